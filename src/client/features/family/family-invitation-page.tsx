/**
 * /family/invitations/:token, the link a family invitation's mail carries. A child invited to a
 * login chooses a password here (the link proves the address, so the account is verified) and is
 * then signed in. An invited parent accepts once signed in as a verified parent; on the way they
 * sign in, or sign up as a parent and come back through the same link once their address is
 * verified. A link that is unknown, used or past its 7 days says so.
 */
import { t as say } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  redirect,
  useFetcher,
  useLoaderData,
} from 'react-router';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../shared/constants';
import { familyInvitationPath, paths } from '../../../shared/routes';
import { AuthCard } from '../../components/auth-card';
import { ButtonLink } from '../../components/button';
import { ActionForm, FormAnswerMessage, SubmitButton } from '../../components/form';
import { ErrorMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { ApiError, failureMessage } from '../../lib/api';
import { type FormAnswer, formValues, refused } from '../../lib/forms';
import { authStore, useAuth } from '../auth';
import { acceptInvitation, fetchInvitation, type InvitationView } from './family-api';

type LoaderData =
  | { token: string; invitation: InvitationView; problem: null }
  | { token: string; invitation: null; problem: string };

export async function loader({ params, request }: LoaderFunctionArgs): Promise<LoaderData> {
  const token = params.token ?? '';
  try {
    return { token, invitation: await fetchInvitation(token, request.signal), problem: null };
  } catch (error) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500)
      return { token, invitation: null, problem: failureMessage(error) };
    throw error;
  }
}

const problemAt = (field: string, message: string): FormAnswer => ({
  problem: { message, fields: { [field]: message } },
});

export async function action({ params, request }: ActionFunctionArgs): Promise<FormAnswer | Response> {
  const token = params.token ?? '';
  const values = await formValues(request);
  if (values.kind === 'parent') {
    try {
      await acceptInvitation(token);
    } catch (error) {
      return refused(error);
    }
    return redirect(paths.family);
  }
  const password = String(values.password ?? '');
  const email = String(values.email ?? '');
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH)
    return problemAt(
      'password',
      say`Choose a password of ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`,
    );
  if (password !== values.confirmPassword)
    return problemAt('confirmPassword', say`The two passwords are not the same.`);
  try {
    await acceptInvitation(token, password);
  } catch (error) {
    const answer = refused(error);
    if (error instanceof ApiError && error.status === 400)
      answer.problem.fields.password = answer.problem.message;
    return answer;
  }
  // The login exists and is verified: sign in with it (an account with a code asks for it there).
  try {
    const user = await authStore.signIn(email, password);
    if (user) return redirect(paths.dashboard);
  } catch {
    // Signed in or not, the login is made: the sign-in page takes it from here.
  }
  return redirect(`${paths.login}?verified=1`);
}

export function Component() {
  const { t } = useLingui();
  const data = useLoaderData<typeof loader>();
  if (!data.invitation)
    return (
      <AuthCard title={t`This invitation cannot be used`}>
        <title>{t`Family invitation · Tutorlane`}</title>
        <ErrorMessage>{data.problem}</ErrorMessage>
        <p className="mt-4 text-sm text-slate-700">
          <Trans>An invitation works once, for 7 days. Ask the person who sent it for a new one.</Trans>
        </p>
        <ButtonLink to={paths.home} variant="secondary" className="mt-4 w-full">
          <Trans>Go to the home page</Trans>
        </ButtonLink>
      </AuthCard>
    );
  return data.invitation.kind === 'child_login' ? (
    <ChildLogin invitation={data.invitation} />
  ) : (
    <ParentAcceptance invitation={data.invitation} token={data.token} />
  );
}

function ChildLogin({ invitation }: { invitation: InvitationView }) {
  const { t } = useLingui();
  const fetcher = useFetcher<FormAnswer>();
  const name = invitation.firstName ?? '';
  const parent = invitation.inviterName;
  const email = invitation.email;
  return (
    <AuthCard
      title={name ? t`Your own login, ${name}` : t`Your own login`}
      subtitle={
        <Trans>
          {parent} invited you to sign in to Tutorlane yourself, as <bdi>{email}</bdi>. Your lessons stay paid
          from their wallet.
        </Trans>
      }
    >
      <title>{t`Family invitation · Tutorlane`}</title>
      <ActionForm fetcher={fetcher} className="space-y-5">
        <FormAnswerMessage />
        <input type="hidden" name="kind" value="child_login" />
        {/* For the password manager, and for signing in once the login exists. */}
        <input type="hidden" name="email" value={email} />
        <input type="text" name="username" value={email} autoComplete="username" readOnly hidden />
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
        <SubmitButton className="w-full" size="lg">
          <Trans>Create my login</Trans>
        </SubmitButton>
      </ActionForm>
    </AuthCard>
  );
}

function ParentAcceptance({ invitation, token }: { invitation: InvitationView; token: string }) {
  const { t } = useLingui();
  const auth = useAuth();
  const fetcher = useFetcher<FormAnswer>();
  const student = invitation.inviterName;
  const email = invitation.email;
  const here = familyInvitationPath(token);
  const user = auth.status === 'signed-in' ? auth.user : null;
  return (
    <AuthCard
      title={t`${student} invited you as their parent`}
      subtitle={
        <Trans>
          Once you accept, {student}’s lessons and packages are paid from your wallet. You are told of each
          lesson they book, may set a monthly limit, and can read their conversations with their tutors.
        </Trans>
      }
    >
      <title>{t`Family invitation · Tutorlane`}</title>
      {!user ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-700">
            <Trans>
              The invitation was sent to <bdi>{email}</bdi>. Sign in as a parent to accept it, or create a
              parent’s account, verify your email, then open this link again.
            </Trans>
          </p>
          <ButtonLink to={`${paths.login}?redirectTo=${encodeURIComponent(here)}`} className="w-full">
            <Trans>Sign in to accept</Trans>
          </ButtonLink>
          <ButtonLink to={`${paths.signup}?role=parent`} variant="secondary" className="w-full">
            <Trans>Sign up as a parent</Trans>
          </ButtonLink>
        </div>
      ) : user.role !== 'parent' ? (
        <p className="text-sm text-slate-700">
          <Trans>
            You are signed in with an account that is not a parent’s. Log out, then sign in or sign up as a
            parent, and open this link again.
          </Trans>
        </p>
      ) : !user.emailVerified ? (
        <p className="text-sm text-slate-700">
          <Trans>
            Verify your email first (the link is in the mail we sent you), then open this link again.
          </Trans>
        </p>
      ) : (
        <ActionForm fetcher={fetcher} className="space-y-4">
          <FormAnswerMessage />
          <input type="hidden" name="kind" value="parent" />
          <SubmitButton className="w-full" size="lg">
            <Trans>Accept and pay for {student}</Trans>
          </SubmitButton>
        </ActionForm>
      )}
    </AuthCard>
  );
}
