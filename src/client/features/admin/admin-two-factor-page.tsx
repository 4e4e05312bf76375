/**
 * /admin/two-factor: where an admin without two-factor authentication lands when the console
 * requires it (ADMIN_TWO_FACTOR=required): why, and the setup itself. Once it is on, the console
 * opens.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from 'react-router';
import { paths } from '../../../shared/routes';
import { ButtonLink } from '../../components/button';
import { useAuth } from '../auth';
import { TwoFactorSettings } from '../two-factor';

export function Component() {
  const auth = useAuth();
  const navigate = useNavigate();
  const enabled = auth.status === 'signed-in' && auth.user.twoFactorEnabled;
  const { t } = useLingui();
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:py-10">
      <title>{t`Set up two-factor authentication · Admin · Tutorlane`}</title>
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">
        <Trans>Admin</Trans>
      </p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900">
        <Trans>Set up two-factor authentication</Trans>
      </h1>
      <div className="mt-3 max-w-2xl space-y-3 text-slate-700">
        <p>
          <Trans>
            An admin account can see everyone&apos;s details, suspend people and confirm money, so this school
            asks every admin to sign in with a code from an authenticator app as well as the password. The
            admin console opens once two-factor authentication is on.
          </Trans>
        </p>
        <p>
          <Trans>
            It takes a minute: confirm your password, scan the QR code with the app, and enter the code it
            shows.
          </Trans>
        </p>
      </div>
      <section
        aria-label={t`Two-factor authentication`}
        className="mt-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
      >
        <TwoFactorSettings onEnabled={() => navigate(paths.admin)} />
      </section>
      {enabled ? (
        <ButtonLink to={paths.admin} className="mt-6">
          <Trans>Open the admin console</Trans>
        </ButtonLink>
      ) : null}
    </div>
  );
}
