/** /reset-password?token=…: choose a new password with the mailed link; every session then ends. */
import { type ActionFunctionArgs, Link, redirect, useFetcher, useSearchParams } from 'react-router';
import * as messages from '../../../shared/messages';
import { paths } from '../../../shared/routes';
import { AuthCard } from '../../components/auth-card';
import { ActionForm, FormAnswerMessage, SubmitButton } from '../../components/form';
import { ErrorMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { check, type FormAnswer, formValues, loadFormChecks, refused } from '../../lib/forms';
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
    Request a new link
  </Link>
);

export function Component() {
  const [params] = useSearchParams();
  const fetcher = useFetcher<FormAnswer>();
  const token = params.get('token');
  if (!token) {
    return (
      <AuthCard title="Choose a new password">
        <title>Reset password · Tutorlane</title>
        <ErrorMessage>{messages.resetLinkInvalid}</ErrorMessage>
        <p className="mt-4 text-sm">{requestNewLink}</p>
      </AuthCard>
    );
  }
  const linkSpent = fetcher.state === 'idle' && fetcher.data?.problem?.message === messages.resetLinkInvalid;
  return (
    <AuthCard
      title="Choose a new password"
      subtitle="Every device signed in to your account will be signed out."
    >
      <title>Reset password · Tutorlane</title>
      <ActionForm fetcher={fetcher} action={`${paths.resetPassword}?${params}`} className="space-y-5">
        <FormAnswerMessage />
        {linkSpent ? <p className="text-sm">{requestNewLink}</p> : null}
        <TextField
          label="New Password"
          type="password"
          name="newPassword"
          autoComplete="new-password"
          hint="At least 6 characters. Avoid common passwords."
        />
        <TextField
          label="Confirm Password"
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
        />
        <SubmitButton size="lg" className="w-full">
          Reset Password
        </SubmitButton>
      </ActionForm>
    </AuthCard>
  );
}
