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
        Tutors cannot book lessons. Sign in with a student account to book.
      </p>
    );
  if (role === 'student' && !verified)
    return (
      <p className="mt-3 text-sm text-slate-700">
        Please{' '}
        <Link to={paths.verifyEmail} className="font-semibold text-brand-700 underline">
          verify your email
        </Link>{' '}
        to book this time.
      </p>
    );
  return (
    <div className="mt-3">
      <p className="text-sm text-slate-700">Sign up or sign in to book this time.</p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <ButtonLink to={paths.signup}>Sign up to book</ButtonLink>
        <ButtonLink to={`${paths.login}?redirectTo=${encodeURIComponent(here)}`} variant="secondary">
          Sign in
        </ButtonLink>
      </div>
    </div>
  );
}
