import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../shared/constants';
import { messages } from '../../../shared/messages';
import { paths } from '../../../shared/routes';
import { AuthCard } from '../../components/auth-card';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { ApiError } from '../../lib/api-client';
import { useAuth } from './auth-provider';

export function Component() {
  const { actions } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [error, setError] = useState('');
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    if (!password || !confirmPassword) return setError(messages.fillAllFields);
    if (password !== confirmPassword) return setError(messages.passwordsDoNotMatch);
    if (password.length < MIN_PASSWORD_LENGTH) return setError(messages.passwordTooShort);
    if (password.length > MAX_PASSWORD_LENGTH) return setError(messages.passwordTooLong);
    setSubmitting(true);
    try {
      await actions.resetPassword(token ?? '', password, confirmPassword);
      navigate(`${paths.login}?reset=1`, { replace: true });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : messages.unexpectedError);
      setSubmitting(false);
    }
  };

  if (!token) {
    return (
      <AuthCard title="Choose a new password">
        <title>Reset password · Tutorlane</title>
        <ErrorMessage>{messages.resetLinkInvalid}</ErrorMessage>
        <p className="mt-4 text-sm">
          <Link
            to={paths.forgotPassword}
            className="font-semibold text-brand-700 underline-offset-2 hover:underline"
          >
            Request a new reset link
          </Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Choose a new password"
      subtitle="Every device signed in to your account will be signed out."
    >
      <title>Reset password · Tutorlane</title>
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        {error ? (
          <ErrorMessage>
            {error}
            {error === messages.resetLinkInvalid ? (
              <>
                {' '}
                <Link to={paths.forgotPassword} className="font-semibold underline">
                  Request a new link
                </Link>
              </>
            ) : null}
          </ErrorMessage>
        ) : null}
        <TextField
          label="New Password"
          type="password"
          autoComplete="new-password"
          hint="At least 6 characters. Avoid common passwords."
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <TextField
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          value={confirmPassword}
          onChange={(event) => setConfirmPassword(event.target.value)}
        />
        <Button type="submit" size="lg" className="w-full" busy={submitting} disabled={submitting}>
          Reset Password
        </Button>
      </form>
    </AuthCard>
  );
}
