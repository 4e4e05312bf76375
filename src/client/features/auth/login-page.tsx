/**
 * /login: sign in, then on to the page that sent the visitor here, or the dashboard. An account
 * with two-factor authentication on is asked for its code after the password, as a second step of
 * the same page (no session exists until the code is right).
 */
import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { translated } from '../../lib/i18n';
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
          ? t`Enter the 6-digit code from your authenticator app`
          : t`Enter one of your backup codes`;
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
  const { t } = useLingui();
  const [params] = useSearchParams();
  const fetcher = useFetcher<FormAnswer>();
  // The form posts to this page with its query, so the action knows where to go next.
  const here = `${paths.login}${params.toString() ? `?${params}` : ''}`;
  if (fetcher.data?.done === CODE_STEP) return <CodeStep action={here} />;
  return (
    <AuthCard
      title={t`Sign in to Tutorlane`}
      subtitle={
        <Trans>
          New here?{' '}
          <Link to={paths.signup} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
            Create an account
          </Link>
        </Trans>
      }
    >
      <title>{t`Sign in · Tutorlane`}</title>
      <ActionForm fetcher={fetcher} action={here} className="space-y-5">
        {params.get('verified') === '1' ? (
          <StatusMessage>{translated(messages.emailVerifiedNote)}</StatusMessage>
        ) : null}
        {params.get('reset') === '1' ? (
          <StatusMessage>{translated(messages.passwordResetDone)}</StatusMessage>
        ) : null}
        <FormAnswerMessage />
        <TextField label={t`Email`} type="email" name="email" autoComplete="email" />
        <div>
          <TextField label={t`Password`} type="password" name="password" autoComplete="current-password" />
          <p className="mt-2 text-end text-sm">
            <Link
              to={paths.forgotPassword}
              className="font-medium text-brand-700 underline-offset-2 hover:underline"
            >
              <Trans>Forgot password?</Trans>
            </Link>
          </p>
        </div>
        <SubmitButton className="w-full" size="lg">
          <Trans>Sign In</Trans>
        </SubmitButton>
      </ActionForm>
    </AuthCard>
  );
}

/** The second step: a code from the authenticator app, or one of the backup codes. */
function CodeStep({ action }: { action: string }) {
  const { t } = useLingui();
  const fetcher = useFetcher<FormAnswer>();
  const [method, setMethod] = useState<'totp' | 'backup'>('totp');
  const totp = method === 'totp';
  return (
    <AuthCard
      title={t`Enter your sign-in code`}
      subtitle={
        totp
          ? t`Your password was right. Open your authenticator app and enter the 6-digit code it shows for Tutorlane.`
          : t`Your password was right. Enter one of the backup codes you saved when you set up two-factor authentication. Each one works once.`
      }
    >
      <title>{t`Sign-in code · Tutorlane`}</title>
      <ActionForm fetcher={fetcher} action={action} className="space-y-5">
        <FormAnswerMessage />
        <input type="hidden" name="step" value={CODE_STEP} />
        <input type="hidden" name="method" value={method} />
        {totp ? (
          <TextField
            key="totp"
            label={t`Authentication code`}
            name="code"
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            autoFocus
          />
        ) : (
          <TextField
            key="backup"
            label={t`Backup code`}
            name="code"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
          />
        )}
        <label className="flex min-h-8 cursor-pointer items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" name="trustDevice" className="size-4" />
          <Trans>Trust this device for 30 days</Trans>
        </label>
        <SubmitButton className="w-full" size="lg">
          <Trans>Verify</Trans>
        </SubmitButton>
        <Button variant="ghost" className="w-full" onClick={() => setMethod(totp ? 'backup' : 'totp')}>
          {totp ? <Trans>Use a backup code</Trans> : <Trans>Use your authenticator app</Trans>}
        </Button>
      </ActionForm>
    </AuthCard>
  );
}
