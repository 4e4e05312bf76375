import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router';
import { paths } from '../../../shared/routes';
import { ButtonLink } from '../../components/button';

/** What someone who may not book this time needs to do first. */
export function BookingPrompt({
  here,
  role,
  verified,
}: {
  here: string;
  role: string | undefined;
  verified: boolean;
}) {
  if (role === 'tutor')
    return (
      <p className="mt-3 text-sm text-slate-700">
        <Trans>Tutors cannot book lessons. Sign in with a student account to book.</Trans>
      </p>
    );
  if ((role === 'student' || role === 'parent') && !verified)
    return (
      <p className="mt-3 text-sm text-slate-700">
        <Trans>
          Please{' '}
          <Link to={paths.verifyEmail} className="font-semibold text-brand-700 underline">
            verify your email
          </Link>{' '}
          to book this time.
        </Trans>
      </p>
    );
  return (
    <div className="mt-3">
      <p className="text-sm text-slate-700">
        <Trans>Sign up or sign in to book this time.</Trans>
      </p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <ButtonLink to={paths.signup}>
          <Trans>Sign up to book</Trans>
        </ButtonLink>
        <ButtonLink to={`${paths.login}?redirectTo=${encodeURIComponent(here)}`} variant="secondary">
          <Trans>Sign in</Trans>
        </ButtonLink>
      </div>
    </div>
  );
}
