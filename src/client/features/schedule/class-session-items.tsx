/**
 * Group classes on the schedule: the calendar's entries for lessons and the tutor's class sessions
 * (a session once, saying how many students hold a seat; a student's seat named after its class),
 * and the tutor's card for a session ahead, linking to its class. A seat has no cancel or move of
 * its own: a student leaves the class on its page.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { formatAmount } from '../../../shared/amounts';
import { ClassBadge, ClassTitleLink, SeatsHeld } from '../../components/class-session-parts';
import { RoomLink, StatusBadge } from '../../components/lesson-parts';
import { lessonTimeLabel } from '../../lib/time-labels';
import type { Lesson, TaughtSession } from './schedule-data';
import type { CalendarLesson } from './week-calendar';

/** The week's lessons and class sessions as the calendar shows them, by start. */
export function useCalendarLessons(
  lessons: Lesson[],
  sessions: TaughtSession[],
  role: 'student' | 'tutor',
): CalendarLesson[] {
  const { t } = useLingui();
  const fromLessons = lessons.map(
    (lesson): CalendarLesson => ({
      ...lesson,
      subject: lesson.classSession?.title ?? lesson.subject,
      withName: role === 'tutor' ? lesson.student.displayName : lesson.tutor.displayName,
    }),
  );
  const fromSessions = sessions.map((session): CalendarLesson => {
    const { students, seats } = session;
    return {
      id: session.id,
      start: session.start,
      end: session.end,
      minutes: session.minutes,
      status: session.status === 'ended' ? 'completed' : 'confirmed',
      subject: session.title,
      seriesId: null,
      withName: t`${students} of ${seats} students`,
    };
  });
  return [...fromLessons, ...fromSessions].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
}

/** A class session the tutor teaches, in the list of what is ahead. */
export function TaughtSessionItem({ session, timeZone }: { session: TaughtSession; timeZone: string }) {
  const minutes = session.minutes;
  const price = formatAmount(session.price.amountCents, session.price.currency);
  const status = session.status === 'ended' ? 'completed' : 'confirmed';
  return (
    <li className="py-4 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center gap-2">
        <ClassTitleLink classId={session.classId} title={session.title} />
        <ClassBadge />
        <SeatsHeld students={session.students} seats={session.seats} />
      </div>
      <p className="mt-1 text-sm text-slate-700">
        {lessonTimeLabel(Date.parse(session.start), Date.parse(session.end), timeZone)} ·{' '}
        <Trans>{minutes} min</Trans> · {session.subject} · <Trans>{price} a student</Trans>
      </p>
      <RoomLink
        lesson={{
          id: session.id,
          start: session.start,
          end: session.end,
          status,
          classSession: { classId: session.classId, sessionId: session.id },
        }}
      />
    </li>
  );
}

/** A student's seat in a class session: named after the class, left on the class's page. */
export function SeatItem({ lesson, timeZone }: { lesson: Lesson; timeZone: string }) {
  const group = lesson.classSession;
  if (!group) return null;
  const name = lesson.tutor.displayName;
  const minutes = lesson.minutes;
  return (
    <li className="py-4 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center gap-2">
        <p className="text-slate-900">
          <Trans>
            <ClassTitleLink classId={group.classId} title={group.title} /> with {name}
          </Trans>
        </p>
        <ClassBadge />
        <StatusBadge status={lesson.status} />
      </div>
      <p className="mt-1 text-sm text-slate-700">
        {lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), timeZone)} ·{' '}
        <Trans>{minutes} min</Trans> · {formatAmount(lesson.price.amountCents, lesson.price.currency)}
      </p>
      <RoomLink lesson={lesson} />
      <p className="mt-1 text-sm text-slate-600">
        <Trans>To leave the class, open its page.</Trans>
      </p>
    </li>
  );
}
