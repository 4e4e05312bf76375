/**
 * Families on the lesson screens: a parent reads whose lesson it is ("For Emma"), a tutor reads that
 * a parent booked it ("Booked by their parent"). `bookedByParent` is optional: an answer that does
 * not carry it (an older server, a class seat) shows nothing.
 */
import { Trans } from '@lingui/react/macro';
import type { Role } from '../../shared/constants';

interface FamilyLesson {
  student?: { displayName: string } | null;
  bookedByParent?: boolean;
}

export function FamilyBadge({ lesson, reader }: { lesson: object; reader: Role }) {
  const { student, bookedByParent } = lesson as FamilyLesson;
  if (reader === 'parent' && student) {
    const name = student.displayName;
    return (
      <span className="inline-block rounded-full bg-violet-100 px-2.5 py-0.5 text-xs font-semibold text-violet-900">
        <Trans>For {name}</Trans>
      </span>
    );
  }
  if (reader === 'tutor' && bookedByParent === true)
    return (
      <span className="inline-block rounded-full bg-violet-100 px-2.5 py-0.5 text-xs font-semibold text-violet-900">
        <Trans>Booked by their parent</Trans>
      </span>
    );
  return null;
}
