/** /reset-password?token=…: choose a new password with the mailed link; every session then ends. */
import { Trans, useLingui } from '@lingui/react/macro';
import { type ActionFunctionArgs, Link, redirect, useFetcher, useSearchParams } from 'react-router';
import * as messages from '../../../shared/messages';
import { paths } from '../../../shared/routes';
import { AuthCard } from '../../components/auth-card';
import { ActionForm, FormAnswerMessage, SubmitButton } from '../../components/form';
import { ErrorMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { check, type FormAnswer, formValues, loadFormChecks, refused } from '../../lib/forms';
import { translated } from '../../lib/i18n';
import { authStore } from './auth-store';

export async function action({ request }: ActionFunctionArgs): Promise<FormAnswer | Response> {
  const { resetPasswordForm } = await loadFormChecks();
  const form = check(resetPasswordForm, await formValues(request));
  if (form.problem) return form;
  const token = new URL(request.url).searchParams.get('token') ?? '';
  try {
    await authStore.resetPassword(token, form.data.newPassword, form.data.confirmPassword);
  } catch (error) {
    return refused(error);
  }
  return redirect(`${paths.login}?reset=1`);
}

const requestNewLink = (
  <Link to={paths.forgotPassword} className="font-semibold underline">
    <Trans>Request a new link</Trans>
  </Link>
);

export function Component() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const fetcher = useFetcher<FormAnswer>();
  const token = params.get('token');
  if (!token) {
    return (
      <AuthCard title={t`Choose a new password`}>
        <title>{t`Reset password · Tutorlane`}</title>
        <ErrorMessage>{translated(messages.resetLinkInvalid)}</ErrorMessage>
        <p className="mt-4 text-sm">{requestNewLink}</p>
      </AuthCard>
    );
  }
  const problem = fetcher.state === 'idle' ? fetcher.data?.problem?.message : undefined;
  // The server says it in the page's language.
  const linkSpent =
    problem !== undefined &&
    (problem === messages.resetLinkInvalid || problem === translated(messages.resetLinkInvalid));
  return (
    <AuthCard
      title={t`Choose a new password`}
      subtitle={t`Every device signed in to your account will be signed out.`}
    >
      <title>{t`Reset password · Tutorlane`}</title>
      <ActionForm fetcher={fetcher} action={`${paths.resetPassword}?${params}`} className="space-y-5">
        <FormAnswerMessage />
        {linkSpent ? <p className="text-sm">{requestNewLink}</p> : null}
        <TextField
          label={t`New Password`}
          type="password"
          name="newPassword"
          autoComplete="new-password"
          hint={t`At least 6 characters. Avoid common passwords.`}
        />
        <TextField
          label={t`Confirm Password`}
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
        />
        <SubmitButton size="lg" className="w-full">
          <Trans>Reset Password</Trans>
        </SubmitButton>
      </ActionForm>
    </AuthCard>
  );
}
