/** What a tutor's profile still needs before it appears in search, or a link to it once it does. */
import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router';
import { tutorPath } from '../../../shared/routes';
import { StatusMessage } from '../../components/messages';
import { translated } from '../../lib/i18n';
import { useAuth } from '../auth';

export function PublicationChecklist({ details }: { details: { published: boolean; missing: string[] } }) {
  const auth = useAuth();
  const id = auth.status === 'signed-in' ? auth.user.id : '';
  return details.published ? (
    <StatusMessage>
      <Trans>Your profile is public: students can find you in search.</Trans>{' '}
      <Link to={tutorPath(id)} className="font-semibold underline">
        <Trans>View your public profile</Trans>
      </Link>
    </StatusMessage>
  ) : (
    <section
      aria-labelledby="checklist-heading"
      className="rounded-2xl border border-amber-200 bg-amber-50 p-5"
    >
      <h2 id="checklist-heading" className="font-semibold text-amber-950">
        <Trans>To appear in search, your profile still needs:</Trans>
      </h2>
      <ul className="mt-2 list-disc space-y-1 ps-5 text-sm text-amber-950">
        {details.missing.map((item) => (
          <li key={item}>{translated(item)}</li>
        ))}
      </ul>
    </section>
  );
}
