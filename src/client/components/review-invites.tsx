/** After a completed lesson, the student is asked to review the tutor: one link per tutor not reviewed yet. */
import { Link } from 'react-router';
import { tutorPath } from '../../shared/routes';
import { CardSection } from './card';

export function ReviewInvites({ tutors }: { tutors: { tutorId: string; displayName: string }[] }) {
  if (tutors.length === 0) return null;
  return (
    <CardSection title="Review your tutors">
      <p className="text-sm text-slate-700">How were your lessons? A few words help other students choose.</p>
      <ul className="mt-3 space-y-2">
        {tutors.map((tutor) => (
          <li key={tutor.tutorId}>
            <Link
              to={`${tutorPath(tutor.tutorId)}#reviews-heading`}
              className="text-sm font-semibold text-brand-700 underline"
            >
              Review {tutor.displayName}
            </Link>
          </li>
        ))}
      </ul>
    </CardSection>
  );
}
