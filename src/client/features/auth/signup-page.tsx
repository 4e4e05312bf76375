import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DEFAULT_ROLE, ROLE_LABELS, ROLES, type Role } from '../../../shared/constants';
import { messages } from '../../../shared/messages';
import { paths } from '../../../shared/routes';
import { firstSignUpProblem } from '../../../shared/sign-up-checks';
import { AuthCard } from '../../components/auth-card';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { ApiError } from '../../lib/api-client';
import { useAuth } from './auth-provider';
import { HumanCheck } from './human-check';

const roleHints: Record<Role, string> = {
  student: 'I want to learn',
  tutor: 'I want to teach',
};

export function Component() {
  const { actions } = useAuth();
  const navigate = useNavigate();
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  // ?role=tutor (the footer's Become a tutor) preselects Tutor; anything else keeps the default.
  const [searchParams] = useSearchParams();
  const [role, setRole] = useState<Role>(searchParams.get('role') === 'tutor' ? 'tutor' : DEFAULT_ROLE);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  const [error, setError] = useState('');
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    setError('');
    const problem = firstSignUpProblem({
      fullName,
      email,
      password,
      confirmPassword,
      captchaDone: Boolean(captcha),
    });
    if (problem) {
      setError(problem);
      return;
    }
    setSubmitting(true);
    try {
      await actions.signUp({ fullName, email, password, confirmPassword, role, captcha: captcha ?? '' });
      navigate(paths.verifyEmail);
    } catch (caught) {
      setError(
        `${messages.signupFailedPrefix}${caught instanceof ApiError ? caught.message : messages.unexpectedError}`,
      );
      // A solution works once: a new check for the next try.
      setCaptcha(null);
      setCaptchaKey((key) => key + 1);
      setSubmitting(false);
    }
  };

  return (
    <AuthCard
      title="Create your account"
      subtitle={
        <>
          Already have an account?{' '}
          <Link to={paths.login} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      <title>Create your account · Tutorlane</title>
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        {error ? <ErrorMessage>{error}</ErrorMessage> : null}
        <TextField
          label="Full Name"
          name="name"
          autoComplete="name"
          value={fullName}
          onChange={(event) => setFullName(event.target.value)}
        />
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          hint="At least 6 characters. Avoid common passwords."
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <TextField
          label="Confirm Password"
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          value={confirmPassword}
          onChange={(event) => setConfirmPassword(event.target.value)}
        />
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">I am a</legend>
          <div className="mt-2 grid grid-cols-2 gap-3">
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
                  <span className="block text-sm font-semibold text-slate-900">{ROLE_LABELS[value]}</span>
                  {/* Described, not named: the radio's name stays "Student" or "Tutor". */}
                  <span id={`role-hint-${value}`} aria-hidden="true" className="block text-xs text-slate-600">
                    {roleHints[value]}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <HumanCheck onChange={setCaptcha} resetKey={captchaKey} />
        {/* aria-disabled rather than disabled: the button reads as disabled until the check is done,
            yet pressing it still explains what is missing (the seed's first message). */}
        <Button
          type="submit"
          className="w-full"
          size="lg"
          busy={submitting}
          aria-disabled={!captcha || submitting}
        >
          Create Account
        </Button>
      </form>
    </AuthCard>
  );
}
