/**
 * /signup: create an account as a student, a tutor or a parent, behind a human check the server verifies,
 * then on to /verify-email. One submit shows every problem; the first, in the order the product's
 * messages are given, is the form's alert.
 */
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import {
  type ActionFunctionArgs,
  Link,
  redirect,
  useFetcher,
  useLoaderData,
  useSearchParams,
} from 'react-router';
import { DEFAULT_ROLE, MAX_NAME_LENGTH, ROLES, type Role } from '../../../shared/constants';
import * as messages from '../../../shared/messages';
import { paths } from '../../../shared/routes';
import { AuthCard } from '../../components/auth-card';
import { ActionForm, FormAnswerMessage, SubmitButton } from '../../components/form';
import { TextField } from '../../components/text-field';
import { ApiError } from '../../lib/api';
import { check, type FormAnswer, formValues, loadFormChecks, refused } from '../../lib/forms';
import { getPublicConfig } from '../../lib/public-config';
import { authStore } from './auth-store';
import { HumanCheck } from './human-check';

const roleNames = {
  student: msg`Student`,
  tutor: msg`Tutor`,
  parent: msg`Parent`,
} satisfies Record<Role, unknown>;

const roleHints = {
  student: msg`I want to learn`,
  tutor: msg`I want to teach`,
  parent: msg`I book for my children`,
} satisfies Record<Role, unknown>;

/**
 * Refusals the server makes before it spends the human check's solution: the same solution may
 * be sent again once the form is put right.
 */
const refusedBeforeTheCheck = new Set([
  'VALIDATION_ERROR',
  'INVALID_EMAIL',
  'PASSWORD_TOO_SHORT',
  'PASSWORD_TOO_LONG',
  'PASSWORD_TOO_COMMON',
  'TOO_MANY_REQUESTS',
]);

type SignUpAnswer = FormAnswer & { checkSpent?: boolean };

export const loader = () => getPublicConfig();

export async function action({ request }: ActionFunctionArgs): Promise<SignUpAnswer | Response> {
  const { signUpForm } = await loadFormChecks();
  const values = await formValues(request);
  const form = check(signUpForm, values);
  if (form.problem) return form;
  const role = ROLES.find((known) => known === values.role) ?? DEFAULT_ROLE;
  try {
    await authStore.signUp({ ...form.data, role });
  } catch (error) {
    const spent = !(error instanceof ApiError && error.code && refusedBeforeTheCheck.has(error.code));
    return { ...refused(error, messages.signupFailedPrefix), checkSpent: spent };
  }
  return redirect(paths.verifyEmail);
}

export function Component() {
  const { t } = useLingui();
  const config = useLoaderData<typeof loader>();
  const fetcher = useFetcher<SignUpAnswer>();
  // ?role=tutor (the footer's Become a tutor) preselects Tutor, ?role=parent (a parent's invitation)
  // Parent; anything else keeps the default.
  const [searchParams] = useSearchParams();
  const asked = searchParams.get('role');
  const [role, setRole] = useState<Role>(asked === 'tutor' || asked === 'parent' ? asked : DEFAULT_ROLE);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  const busy = fetcher.state !== 'idle';

  // A solution works once: after the server spent it, a new check for the next try.
  useEffect(() => {
    if (fetcher.data?.checkSpent) {
      setCaptcha(null);
      setCaptchaKey((key) => key + 1);
    }
  }, [fetcher.data]);

  return (
    <AuthCard
      title={t`Create your account`}
      subtitle={
        <Trans>
          Already have an account?{' '}
          <Link to={paths.login} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
            Sign in
          </Link>
        </Trans>
      }
    >
      <title>{t`Create your account · Tutorlane`}</title>
      <ActionForm fetcher={fetcher} className="space-y-5">
        <FormAnswerMessage />
        <TextField label={t`Full Name`} name="name" autoComplete="name" limit={MAX_NAME_LENGTH} />
        <TextField label={t`Email`} type="email" name="email" autoComplete="email" />
        <TextField
          label={t`Password`}
          type="password"
          name="password"
          autoComplete="new-password"
          hint={t`At least 6 characters. Avoid common passwords.`}
        />
        <TextField
          label={t`Confirm Password`}
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
        />
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">
            <Trans>I am a</Trans>
          </legend>
          <div className="mt-2 grid gap-3 sm:grid-cols-3">
            {ROLES.map((value) => (
              <label
                key={value}
                className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-300 p-3 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input
                  type="radio"
                  name="role"
                  value={value}
                  checked={role === value}
                  onChange={() => setRole(value)}
                  aria-describedby={`role-hint-${value}`}
                  className="mt-1 accent-brand-700"
                />
                <span>
                  <span className="block text-sm font-semibold text-slate-900">{t(roleNames[value])}</span>
                  {/* Described, not named: the radio's name stays "Student", "Tutor" or "Parent". */}
                  <span id={`role-hint-${value}`} aria-hidden="true" className="block text-xs text-slate-600">
                    {t(roleHints[value])}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <HumanCheck config={config} onChange={setCaptcha} resetKey={captchaKey} />
        <input type="hidden" name="captcha" value={captcha ?? ''} />
        {/* aria-disabled rather than disabled: the button reads as disabled until the check is done,
            yet pressing it still explains what is missing (the first of the product's messages). */}
        <SubmitButton className="w-full" size="lg" aria-disabled={!captcha || busy || undefined}>
          <Trans>Create Account</Trans>
        </SubmitButton>
      </ActionForm>
    </AuthCard>
  );
}
