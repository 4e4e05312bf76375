/**
 * /verify-email: tells the user a link was sent, offers to resend it, and, when opened from the
 * mailed link (?token=…), spends the token whoever is signed in here, then moves on: to the
 * dashboard when this browser is signed in as that account, otherwise to sign in with a note that
 * the email is verified. A browser signed in as another, verified account would be sent straight
 * back from /login to its dashboard, so that one hears the outcome here, with a way to switch.
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
import type { AuthUser } from './auth-store';

const verifiedLogin = `${paths.login}?verified=1`;

export function Component() {
  const auth = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [checking, setChecking] = useState(Boolean(token));
  const [linkError, setLinkError] = useState('');
  // Set when this browser is signed in as another, already verified account.
  const [otherAccount, setOtherAccount] = useState<{ user: AuthUser; verified: boolean } | null>(null);
  const spent = useRef(false);

  useEffect(() => {
    if (!token || spent.current) return;
    spent.current = true;
    const signedInHere = auth.actions.getState().user;
    const other = signedInHere?.emailVerified ? signedInHere : null;
    auth.actions
      .verifyEmail(token)
      .then((result) => {
        if (result.signedIn) return navigate(paths.dashboard, { replace: true });
        if (!other) return navigate(verifiedLogin, { replace: true });
        setOtherAccount({ user: other, verified: true });
        setChecking(false);
      })
      .catch((error: Error) => {
        setLinkError(error.message);
        if (other) setOtherAccount({ user: other, verified: false });
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

  if (otherAccount) return <SignedInAsAnother {...otherAccount} error={linkError} />;
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
        <Button variant="secondary" className="w-full" onClick={() => navigate(paths.login)}>
          Back to Login
        </Button>
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

/** The link's outcome, told to a browser signed in as another account that is already verified. */
function SignedInAsAnother({ user, verified, error }: { user: AuthUser; verified: boolean; error: string }) {
  const { actions } = useAuth();
  const navigate = useNavigate();
  const switchAccount = async () => {
    await actions.signOut();
    navigate(verified ? verifiedLogin : paths.login, { replace: true });
  };
  const title = verified ? 'Email verified' : 'Verify your email';
  return (
    <AuthCard title={title}>
      <title>{`${title} · Tutorlane`}</title>
      <div className="space-y-5">
        {verified ? (
          <StatusMessage>{messages.emailVerifiedNote}</StatusMessage>
        ) : (
          <ErrorMessage>{error}</ErrorMessage>
        )}
        <p className="text-sm text-slate-600">
          This browser is signed in as <strong className="text-slate-900">{user.email}</strong>. To sign in
          with another account, log out first.
        </p>
        <Button className="w-full" onClick={switchAccount}>
          Log out and sign in
        </Button>
        <ButtonLink to={paths.dashboard} variant="secondary" className="w-full">
          Go to Dashboard
        </ButtonLink>
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
