/** After a completed lesson, the student is asked to review the tutor: one link per tutor not reviewed yet. */
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { tutorPath } from '../../shared/routes';
import { CardSection } from './card';

export function ReviewInvites({ tutors }: { tutors: { tutorId: string; displayName: string }[] }) {
  const { t } = useLingui();
  if (tutors.length === 0) return null;
  return (
    <CardSection title={t`Review your tutors`}>
      <p className="text-sm text-slate-700">
        <Trans>How were your lessons? A few words help other students choose.</Trans>
      </p>
      <ul className="mt-3 space-y-2">
        {tutors.map(({ tutorId, displayName: name }) => (
          <li key={tutorId}>
            <Link
              to={`${tutorPath(tutorId)}#reviews-heading`}
              className="text-sm font-semibold text-brand-700 underline"
            >
              <Trans>Review {name}</Trans>
            </Link>
          </li>
        ))}
      </ul>
    </CardSection>
  );
}
