import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { messages } from '../../../shared/messages';
import { paths } from '../../../shared/routes';
import { AuthCard } from '../../components/auth-card';
import { Button } from '../../components/button';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { ApiError } from '../../lib/api-client';
import { useAuth } from './auth-provider';

export function Component() {
  const { actions } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [submitting, setSubmitting] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    if (!email.trim() || !password) {
      setError(messages.fillAllFields);
      return;
    }
    setSubmitting(true);
    try {
      await actions.signIn(email, password);
      // The guard sends an unverified user on to /verify-email.
      navigate(paths.dashboard);
    } catch (caught) {
      setError(
        `${messages.loginFailedPrefix}${caught instanceof ApiError ? caught.message : messages.unexpectedError}`,
      );
      setSubmitting(false);
    }
  };

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
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        {params.get('verified') === '1' ? <StatusMessage>{messages.emailVerifiedNote}</StatusMessage> : null}
        {params.get('reset') === '1' ? <StatusMessage>{messages.passwordResetDone}</StatusMessage> : null}
        {error ? <ErrorMessage>{error}</ErrorMessage> : null}
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <div>
          <TextField
            label="Password"
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <p className="mt-2 text-right text-sm">
            <Link
              to={paths.forgotPassword}
              className="font-medium text-brand-700 underline-offset-2 hover:underline"
            >
              Forgot password?
            </Link>
          </p>
        </div>
        <Button type="submit" className="w-full" size="lg" busy={submitting} disabled={submitting}>
          Sign In
        </Button>
      </form>
    </AuthCard>
  );
}
