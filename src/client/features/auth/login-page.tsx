/**
 * /login: sign in, then on to the page that sent the visitor here, or the dashboard. An account
 * with two-factor authentication on is asked for its code after the password, as a second step of
 * the same page (no session exists until the code is right).
 */
import { useState } from 'react';
import { type ActionFunctionArgs, Link, redirect, useFetcher, useSearchParams } from 'react-router';
import * as messages from '../../../shared/messages';
import { paths, safeRedirect } from '../../../shared/routes';
import { AuthCard } from '../../components/auth-card';
import { Button } from '../../components/button';
import { ActionForm, FormAnswerMessage, SubmitButton } from '../../components/form';
import { StatusMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { check, type FormAnswer, formValues, loadFormChecks, refused } from '../../lib/forms';
import { authStore } from './auth-store';

/** The password step's answer when the account asks for a code next. */
const CODE_STEP = 'code';

export async function action({ request }: ActionFunctionArgs): Promise<FormAnswer | Response> {
  const values = await formValues(request);
  if (values.step === CODE_STEP) {
    const method = values.method === 'backup' ? 'backup' : 'totp';
    const code = String(values.code ?? '').trim();
    if (!code) {
      const message =
        method === 'totp'
          ? 'Enter the 6-digit code from your authenticator app'
          : 'Enter one of your backup codes';
      return { problem: { message, fields: { code: message } } };
    }
    try {
      await authStore.verifyTwoFactor(method, code, values.trustDevice === 'on');
    } catch (error) {
      return refused(error);
    }
  } else {
    const { signInForm } = await loadFormChecks();
    const form = check(signInForm, values);
    if (form.problem) return form;
    try {
      const user = await authStore.signIn(form.data.email, form.data.password);
      if (!user) return { done: CODE_STEP };
    } catch (error) {
      return refused(error, messages.loginFailedPrefix);
    }
  }
  // The guard of the page asked for sends an unverified user on to /verify-email.
  const back = safeRedirect(new URL(request.url).searchParams.get('redirectTo'));
  return redirect(back ?? paths.dashboard);
}

export function Component() {
  const [params] = useSearchParams();
  const fetcher = useFetcher<FormAnswer>();
  // The form posts to this page with its query, so the action knows where to go next.
  const here = `${paths.login}${params.toString() ? `?${params}` : ''}`;
  if (fetcher.data?.done === CODE_STEP) return <CodeStep action={here} />;
  return (
    <AuthCard
      title="Sign in to Tutorlane"
      subtitle={
        <>
          New here?{' '}
          <Link to={paths.signup} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      <title>Sign in · Tutorlane</title>
      <ActionForm fetcher={fetcher} action={here} className="space-y-5">
        {params.get('verified') === '1' ? <StatusMessage>{messages.emailVerifiedNote}</StatusMessage> : null}
        {params.get('reset') === '1' ? <StatusMessage>{messages.passwordResetDone}</StatusMessage> : null}
        <FormAnswerMessage />
        <TextField label="Email" type="email" name="email" autoComplete="email" />
        <div>
          <TextField label="Password" type="password" name="password" autoComplete="current-password" />
          <p className="mt-2 text-end text-sm">
            <Link
              to={paths.forgotPassword}
              className="font-medium text-brand-700 underline-offset-2 hover:underline"
            >
              Forgot password?
            </Link>
          </p>
        </div>
        <SubmitButton className="w-full" size="lg">
          Sign In
        </SubmitButton>
      </ActionForm>
    </AuthCard>
  );
}

/** The second step: a code from the authenticator app, or one of the backup codes. */
function CodeStep({ action }: { action: string }) {
  const fetcher = useFetcher<FormAnswer>();
  const [method, setMethod] = useState<'totp' | 'backup'>('totp');
  const totp = method === 'totp';
  return (
    <AuthCard
      title="Enter your sign-in code"
      subtitle={
        totp
          ? 'Your password was right. Open your authenticator app and enter the 6-digit code it shows for Tutorlane.'
          : 'Your password was right. Enter one of the backup codes you saved when you set up two-factor authentication. Each one works once.'
      }
    >
      <title>Sign-in code · Tutorlane</title>
      <ActionForm fetcher={fetcher} action={action} className="space-y-5">
        <FormAnswerMessage />
        <input type="hidden" name="step" value={CODE_STEP} />
        <input type="hidden" name="method" value={method} />
        {totp ? (
          <TextField
            key="totp"
            label="Authentication code"
            name="code"
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            autoFocus
          />
        ) : (
          <TextField
            key="backup"
            label="Backup code"
            name="code"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
          />
        )}
        <label className="flex min-h-8 cursor-pointer items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" name="trustDevice" className="size-4" />
          Trust this device for 30 days
        </label>
        <SubmitButton className="w-full" size="lg">
          Verify
        </SubmitButton>
        <Button variant="ghost" className="w-full" onClick={() => setMethod(totp ? 'backup' : 'totp')}>
          {totp ? 'Use a backup code' : 'Use your authenticator app'}
        </Button>
      </ActionForm>
    </AuthCard>
  );
}
