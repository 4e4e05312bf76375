/** /forgot-password: asks for a reset link by mail (the same answer whether or not the address has an account). */
import { Trans, useLingui } from '@lingui/react/macro';
import { type ActionFunctionArgs, Link, useFetcher } from 'react-router';
import * as messages from '../../../shared/messages';
import { paths } from '../../../shared/routes';
import { AuthCard } from '../../components/auth-card';
import { ActionForm, FormAnswerMessage, SubmitButton } from '../../components/form';
import { TextField } from '../../components/text-field';
import { api, request } from '../../lib/api';
import { check, type FormAnswer, formValues, loadFormChecks, refused } from '../../lib/forms';

export async function action({ request: submitted }: ActionFunctionArgs): Promise<FormAnswer> {
  const { emailForm } = await loadFormChecks();
  const form = check(emailForm, await formValues(submitted));
  if (form.problem) return form;
  try {
    await request(api.auth['request-password-reset'].$post({ json: form.data }));
    return { done: messages.resetLinkSent };
  } catch (error) {
    return refused(error);
  }
}

export function Component() {
  const { t } = useLingui();
  const fetcher = useFetcher<FormAnswer>();
  return (
    <AuthCard
      title={t`Forgot your password?`}
      subtitle={t`Enter your email and we will send you a link to choose a new one.`}
    >
      <title>{t`Forgot password · Tutorlane`}</title>
      <ActionForm fetcher={fetcher} className="space-y-5">
        <FormAnswerMessage />
        <TextField label={t`Email`} type="email" name="email" autoComplete="email" />
        <SubmitButton size="lg" className="w-full">
          <Trans>Send Reset Link</Trans>
        </SubmitButton>
        <p className="text-center text-sm text-slate-600">
          <Trans>
            Remembered it?{' '}
            <Link
              to={paths.login}
              className="font-semibold text-brand-700 underline-offset-2 hover:underline"
            >
              Sign in
            </Link>
          </Trans>
        </p>
      </ActionForm>
    </AuthCard>
  );
}
