/**
 * /verify-email: tells the user a link was sent, offers to resend it, and, when opened from the
 * mailed link (?token=…), spends the token and moves on: to the dashboard when this browser is
 * signed in as that account, otherwise to sign in with a note that the email is verified.
 */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { messages } from '../../../shared/messages';
import { paths } from '../../../shared/routes';
import { AuthCard } from '../../components/auth-card';
import { Button, ButtonLink } from '../../components/button';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { LoadingBlock } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import { useAuth } from './auth-provider';

export function Component() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [checking, setChecking] = useState(Boolean(token));
  const [linkError, setLinkError] = useState('');
  const spent = useRef(false);

  useEffect(() => {
    if (!token || spent.current) return;
    spent.current = true;
    auth.actions
      .verifyEmail(token)
      .then((result) =>
        navigate(result.signedIn ? paths.dashboard : `${paths.login}?verified=1`, { replace: true }),
      )
      .catch((error: Error) => {
        setLinkError(error.message);
        setChecking(false);
      });
  }, [token, auth.actions, navigate]);

  if (checking) {
    return (
      <AuthCard title="Verifying your email">
        <title>Verifying your email · Tutorlane</title>
        <LoadingBlock label="Checking your verification link…" />
      </AuthCard>
    );
  }

  const user = auth.status === 'signed-in' ? auth.user : null;
  return (
    <AuthCard
      title="Verify your email"
      subtitle={
        user ? (
          <>
            We sent a verification link to <strong className="text-slate-900">{user.email}</strong>. Open it
            to activate your account.
          </>
        ) : (
          'We sent a verification link to your email. Open it to activate your account.'
        )
      }
    >
      <title>Verify your email · Tutorlane</title>
      <div className="space-y-5">
        {linkError ? <ErrorMessage>{linkError}</ErrorMessage> : null}
        <ResendForm signedInEmail={user?.email} />
        <ButtonLink to={paths.login} variant="secondary" className="w-full">
          Back to Login
        </ButtonLink>
        <p className="text-center text-sm text-slate-600">
          Already verified?{' '}
          <Link to={paths.login} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
            Sign in
          </Link>
        </p>
      </div>
    </AuthCard>
  );
}

function ResendForm({ signedInEmail }: { signedInEmail: string | undefined }) {
  const { actions } = useAuth();
  const [email, setEmail] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const address = signedInEmail ?? email.trim();
    if (!address) {
      setState('failed');
      return;
    }
    setState('sending');
    try {
      await actions.resendVerification(address);
      setState('sent');
    } catch {
      setState('failed');
    }
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      {state === 'sent' ? <StatusMessage>{messages.verificationSent}</StatusMessage> : null}
      {state === 'failed' ? <ErrorMessage>{messages.verificationFailed}</ErrorMessage> : null}
      {signedInEmail ? null : (
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          hint="The address you signed up with."
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      )}
      <Button type="submit" className="w-full" busy={state === 'sending'} disabled={state === 'sending'}>
        Resend Verification Email
      </Button>
    </form>
  );
}
