import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { messages } from '../../../shared/messages';
import { paths } from '../../../shared/routes';
import { AuthCard } from '../../components/auth-card';
import { Button } from '../../components/button';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { ApiError, api } from '../../lib/api-client';

export function Component() {
  const [email, setEmail] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'sent'>('idle');
  const [error, setError] = useState('');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError('');
    if (!email.trim()) {
      setError(messages.fillAllFields);
      return;
    }
    setState('sending');
    try {
      await api('/api/auth/request-password-reset', {
        method: 'POST',
        body: { email: email.trim() },
      });
      setState('sent');
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : messages.unexpectedError);
      setState('idle');
    }
  };

  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter your email and we will send you a link to choose a new one."
    >
      <title>Forgot password · Tutorlane</title>
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        {state === 'sent' ? <StatusMessage>{messages.resetLinkSent}</StatusMessage> : null}
        {error ? <ErrorMessage>{error}</ErrorMessage> : null}
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Button
          type="submit"
          size="lg"
          className="w-full"
          busy={state === 'sending'}
          disabled={state === 'sending'}
        >
          Send Reset Link
        </Button>
        <p className="text-center text-sm text-slate-600">
          Remembered it?{' '}
          <Link to={paths.login} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
            Sign in
          </Link>
        </p>
      </form>
    </AuthCard>
  );
}
