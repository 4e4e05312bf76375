/** A tutor's upcoming group classes, on their public page; nothing while they have none. */
import { Trans } from '@lingui/react/macro';
import { useId } from 'react';
import { browserTimeZone } from '../../lib/time-zones';
import { useAuth } from '../auth';
import type { ClassList } from './class-api';
import { ClassCard } from './class-card';

export function TutorClasses({ list }: { list: ClassList | null }) {
  const auth = useAuth();
  const headingId = useId();
  if (!list || list.classes.length === 0) return null;
  const timeZone = auth.user?.timeZone ?? browserTimeZone();
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="text-xl font-semibold text-slate-900">
        <Trans>Group classes</Trans>
      </h2>
      <ul className="mt-3 grid gap-4 sm:grid-cols-2">
        {list.classes.map((view) => (
          <li key={view.id}>
            <ClassCard view={view} timeZone={timeZone} showTutor={false} level={3} />
          </li>
        ))}
      </ul>
    </section>
  );
}
