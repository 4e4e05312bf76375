/**
 * What every screen listing a group class's session shows of it: its title, linking to the class's
 * page (where a student leaves the class: a seat has no cancel or move of its own), and, for its
 * tutor, how many of its seats are held.
 */
import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router';
import { classPath } from '../../shared/routes';

export function ClassTitleLink({ classId, title }: { classId: string; title: string }) {
  return (
    <Link to={classPath(classId)} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
      {title}
    </Link>
  );
}

/** "3 of 5 students": the seats held in a session its tutor teaches. */
export function SeatsHeld({ students, seats }: { students: number; seats: number }) {
  return (
    <span className="inline-block rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-800">
      <Trans>
        {students} of {seats} students
      </Trans>
    </span>
  );
}

/** The badge that tells a class's session from a one-to-one lesson. */
export function ClassBadge() {
  return (
    <span className="inline-block rounded-full bg-sky-100 px-2.5 py-0.5 text-xs font-semibold text-sky-900">
      <Trans>Group class</Trans>
    </span>
  );
}
