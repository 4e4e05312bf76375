/** /login: sign in, then on to the page that sent the visitor here, or the dashboard. */
import { type ActionFunctionArgs, Link, redirect, useFetcher, useSearchParams } from 'react-router';
import * as messages from '../../../shared/messages';
import { paths, safeRedirect } from '../../../shared/routes';
import { AuthCard } from '../../components/auth-card';
import { ActionForm, FormAnswerMessage, SubmitButton } from '../../components/form';
import { StatusMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { check, type FormAnswer, formValues, loadFormChecks, refused } from '../../lib/forms';
import { authStore } from './auth-store';

export async function action({ request }: ActionFunctionArgs): Promise<FormAnswer | Response> {
  const { signInForm } = await loadFormChecks();
  const form = check(signInForm, await formValues(request));
  if (form.problem) return form;
  try {
    await authStore.signIn(form.data.email, form.data.password);
  } catch (error) {
    return refused(error, messages.loginFailedPrefix);
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
          <p className="mt-2 text-right text-sm">
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
