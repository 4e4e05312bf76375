/**
 * /verify-email: tells the user a link was sent and offers to resend it. Opened from the mailed
 * link (?token=…), its loader spends the token whoever is signed in here, then moves on: to the
 * dashboard when this browser is signed in as that account, otherwise to sign in with a note that
 * the email is verified. A link opened again says the email is verified; an expired one says so
 * and offers a new one. A browser signed in as another, verified account would be sent straight
 * back from /login to its dashboard, so that one hears the outcome here, with a way to switch.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import {
  type ActionFunctionArgs,
  Link,
  type LoaderFunctionArgs,
  redirect,
  useFetcher,
  useLoaderData,
  useNavigate,
} from 'react-router';
import * as messages from '../../../shared/messages';
import { paths } from '../../../shared/routes';
import { AuthCard } from '../../components/auth-card';
import { Button, ButtonLink } from '../../components/button';
import { ActionForm, FormAnswerMessage, SubmitButton } from '../../components/form';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { ApiError } from '../../lib/api';
import { check, type FormAnswer, formValues, loadFormChecks } from '../../lib/forms';
import { translated } from '../../lib/i18n';
import { useAuth } from './auth-provider';
import { type AuthUser, authStore } from './auth-store';

const verifiedLogin = `${paths.login}?verified=1`;

type LinkOutcome =
  | { link: 'none' }
  | { link: 'verified-for-another'; other: AuthUser }
  | { link: 'refused'; message: string; other: AuthUser | null };

export async function loader({ request }: LoaderFunctionArgs): Promise<LinkOutcome | Response> {
  const token = new URL(request.url).searchParams.get('token');
  if (!token) return { link: 'none' };
  const signedInHere = authStore.getState().user;
  const other = signedInHere?.emailVerified ? signedInHere : null;
  try {
    const result = await authStore.verifyEmail(token);
    if (result.signedIn) return redirect(paths.dashboard);
    if (!other) return redirect(verifiedLogin);
    return { link: 'verified-for-another', other };
  } catch (error) {
    const message = translated(error instanceof ApiError ? error.message : messages.verificationLinkInvalid);
    return { link: 'refused', message, other };
  }
}

// The link is spent once: sending the resend form must not spend it again.
export const shouldRevalidate = () => false;

export async function action({ request }: ActionFunctionArgs): Promise<FormAnswer> {
  const signedIn = authStore.getState().user;
  let email = signedIn?.email;
  if (!email) {
    const { emailForm } = await loadFormChecks();
    const form = check(emailForm, await formValues(request));
    if (form.problem) return form;
    email = form.data.email;
  }
  try {
    await authStore.resendVerification(email);
    return { done: messages.verificationSent };
  } catch {
    return { problem: { message: messages.verificationFailed, fields: {} } };
  }
}

export function Component() {
  const { t } = useLingui();
  const outcome = useLoaderData<typeof loader>();
  const auth = useAuth();
  const navigate = useNavigate();
  if (outcome.link === 'verified-for-another') return <SignedInAsAnother user={outcome.other} verified />;
  if (outcome.link === 'refused' && outcome.other) {
    return <SignedInAsAnother user={outcome.other} verified={false} error={outcome.message} />;
  }
  const user = auth.status === 'signed-in' ? auth.user : null;
  const email = user?.email;
  return (
    <AuthCard
      title={t`Verify your email`}
      subtitle={
        email ? (
          <Trans>
            We sent a verification link to{' '}
            <strong className="text-slate-900">
              <bdi>{email}</bdi>
            </strong>
            . Open it to activate your account.
          </Trans>
        ) : (
          t`We sent a verification link to your email. Open it to activate your account.`
        )
      }
    >
      <title>{t`Verify your email · Tutorlane`}</title>
      <div className="space-y-5">
        {outcome.link === 'refused' ? <ErrorMessage>{outcome.message}</ErrorMessage> : null}
        <ResendForm signedInEmail={user?.email} />
        <Button variant="secondary" className="w-full" onClick={() => navigate(paths.login)}>
          <Trans>Back to Login</Trans>
        </Button>
        <p className="text-center text-sm text-slate-600">
          <Trans>
            Already verified?{' '}
            <Link
              to={paths.login}
              className="font-semibold text-brand-700 underline-offset-2 hover:underline"
            >
              Sign in
            </Link>
          </Trans>
        </p>
      </div>
    </AuthCard>
  );
}

/** The link's outcome, told to a browser signed in as another account that is already verified. */
function SignedInAsAnother({ user, verified, error }: { user: AuthUser; verified: boolean; error?: string }) {
  const { t } = useLingui();
  const { actions } = useAuth();
  const navigate = useNavigate();
  const email = user.email;
  const switchAccount = async () => {
    await actions.signOut();
    navigate(verified ? verifiedLogin : paths.login, { replace: true });
  };
  const title = verified ? t`Email verified` : t`Verify your email`;
  return (
    <AuthCard title={title}>
      <title>{t`${title} · Tutorlane`}</title>
      <div className="space-y-5">
        {verified ? (
          <StatusMessage>{translated(messages.emailVerifiedNote)}</StatusMessage>
        ) : (
          <ErrorMessage>{error}</ErrorMessage>
        )}
        <p className="text-sm text-slate-600">
          <Trans>
            This browser is signed in as{' '}
            <strong className="text-slate-900">
              <bdi>{email}</bdi>
            </strong>
            . To sign in with another account, log out first.
          </Trans>
        </p>
        <Button className="w-full" onClick={switchAccount}>
          <Trans>Log out and sign in</Trans>
        </Button>
        <ButtonLink to={paths.dashboard} variant="secondary" className="w-full">
          <Trans>Go to Dashboard</Trans>
        </ButtonLink>
      </div>
    </AuthCard>
  );
}

function ResendForm({ signedInEmail }: { signedInEmail: string | undefined }) {
  const { t } = useLingui();
  const fetcher = useFetcher<FormAnswer>();
  return (
    <ActionForm fetcher={fetcher} className="space-y-4">
      <FormAnswerMessage />
      {signedInEmail ? null : (
        <TextField
          label={t`Email`}
          type="email"
          name="email"
          autoComplete="email"
          hint={t`The address you signed up with.`}
        />
      )}
      <SubmitButton className="w-full">
        <Trans>Resend Verification Email</Trans>
      </SubmitButton>
    </ActionForm>
  );
}
