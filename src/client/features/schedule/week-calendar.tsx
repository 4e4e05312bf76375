/**
 * One week of the user's lessons, Monday to Sunday in their zone. On a wide screen the days are
 * columns on a time axis; on a phone they are a list. Either way the markup is a list of days,
 * each a heading and its lessons, so a screen reader hears the same thing.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import type { CSSProperties } from 'react';
import type { LessonStatus } from '../../../shared/lessons/lesson-schemas';
import { isRequest, neverHappened } from '../../../shared/lessons/lesson-states';
import { localDate, startOfLocalDay } from '../../../shared/lessons/lesson-times';
import { statusLabel } from '../../components/lesson-parts';
import { clockLabel, shortDayLabel } from '../../lib/time-labels';
import { dayLanes, type Placed } from './day-lanes';

/**
 * What the calendar shows of a lesson: its time, its status, what it is (`subject`, or a class's
 * title) and with whom (`withName`: the other person, or for a class session its tutor teaches,
 * how many students hold a seat).
 */
export interface CalendarLesson {
  id: string;
  start: string;
  end: string;
  minutes: number;
  status: LessonStatus;
  subject: string;
  seriesId: string | null;
  withName: string;
}
type Lesson = CalendarLesson;

/** The hours always shown on the axis; lessons outside them widen it. */
const DEFAULT_FIRST_HOUR = 8;
const DEFAULT_LAST_HOUR = 20;
const HOUR_HEIGHT_REM = 3;

/** Minutes since the local midnight of `day`, for an instant (DST days included: wall-clock minutes). */
function wallMinutes(at: number, timeZone: string): number {
  const [hours, minutes] = clockLabel(at, timeZone).split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

export function WeekCalendar({
  days,
  lessons,
  timeZone,
}: {
  /** The seven local dates, "YYYY-MM-DD", Monday first. */
  days: string[];
  lessons: Lesson[];
  timeZone: string;
}) {
  const byDay = new Map<string, Lesson[]>(days.map((day) => [day, []]));
  for (const lesson of lessons) byDay.get(localDate(Date.parse(lesson.start), timeZone))?.push(lesson);

  const shown = lessons.filter((lesson) => byDay.has(localDate(Date.parse(lesson.start), timeZone)));
  let first = DEFAULT_FIRST_HOUR;
  let last = DEFAULT_LAST_HOUR;
  for (const lesson of shown) {
    const start = wallMinutes(Date.parse(lesson.start), timeZone);
    first = Math.min(first, Math.floor(start / 60));
    last = Math.max(last, Math.min(24, Math.ceil((start + lesson.minutes) / 60)));
  }
  const hours = Array.from({ length: last - first }, (_, i) => first + i);
  const span = (last - first) * 60;
  const today = localDate(Date.now(), timeZone);
  const lanes = new Map(
    [...byDay].map(([day, list]) => [
      day,
      dayLanes(list.map((lesson) => ({ start: Date.parse(lesson.start), end: Date.parse(lesson.end) }))),
    ]),
  );
  const statuses = new Set(shown.map((lesson) => lesson.status));

  return (
    <div>
      <div className="md:flex">
        <div aria-hidden="true" className="hidden w-12 shrink-0 pt-10 md:block">
          {hours.map((hour) => (
            <div
              key={hour}
              className="text-end text-xs text-slate-500"
              style={{ height: `${HOUR_HEIGHT_REM}rem` }}
            >
              <span className="relative -top-2 pe-2">{String(hour).padStart(2, '0')}:00</span>
            </div>
          ))}
        </div>
        <ol className="grid flex-1 gap-3 md:grid-cols-7 md:gap-0 md:border-s md:border-slate-200">
          {days.map((day) => {
            const dayLessons = byDay.get(day) ?? [];
            const dayStart = startOfLocalDay(day, timeZone);
            const headingId = `day-${day}`;
            return (
              <li
                key={day}
                aria-labelledby={headingId}
                className={`rounded-xl border border-slate-200 md:rounded-none md:border-0 md:border-e md:p-0 ${
                  dayLessons.length === 0 ? 'flex items-baseline justify-between px-3 py-2 md:block' : 'p-3'
                }`}
              >
                <h3
                  id={headingId}
                  className={`text-sm font-semibold md:flex md:h-10 md:items-center md:justify-center md:border-b md:border-slate-200 ${
                    day === today ? 'text-brand-700' : 'text-slate-900'
                  }`}
                >
                  {shortDayLabel(dayStart, timeZone)}
                  {day === today ? (
                    <span className="sr-only">
                      {' '}
                      <Trans>(today)</Trans>
                    </span>
                  ) : null}
                </h3>
                {dayLessons.length === 0 ? (
                  <p className="text-sm text-slate-500 md:sr-only">
                    <Trans>No lessons</Trans>
                  </p>
                ) : null}
                <ul
                  className="mt-2 space-y-2 md:relative md:mt-0 md:h-(--day-height) md:space-y-0 md:bg-[linear-gradient(to_bottom,var(--color-slate-100)_1px,transparent_1px)] md:[background-size:100%_3rem]"
                  style={{ '--day-height': `${(span / 60) * HOUR_HEIGHT_REM}rem` } as CSSProperties}
                >
                  {dayLessons.map((lesson, index) => (
                    <LessonBlock
                      key={lesson.id}
                      lesson={lesson}
                      timeZone={timeZone}
                      withName={lesson.withName}
                      top={wallMinutes(Date.parse(lesson.start), timeZone) - first * 60}
                      span={span}
                      place={lanes.get(day)?.[index] ?? { lane: 0, lanes: 1 }}
                    />
                  ))}
                </ul>
              </li>
            );
          })}
        </ol>
      </div>
      <Legend statuses={statuses} />
    </div>
  );
}

/** Lessons that never happened are muted (and struck through), requests dashed. */
const LOOK: Record<'off' | 'request' | 'on', string> = {
  off: 'border-slate-200 bg-slate-50 text-slate-600',
  request: 'border-dashed border-amber-500 bg-amber-50 text-slate-900',
  on: 'border-brand-600/40 bg-brand-50 text-slate-900',
};
const lookOf = (status: LessonStatus) =>
  neverHappened(status) ? 'off' : isRequest(status) ? 'request' : 'on';

/**
 * One lesson on the calendar. On a wide screen its box is as tall as the lesson, so what it says
 * fits that height: a 30-minute box says its time and the other person on one line; taller ones
 * say the time and subject, then the person, and from 90 minutes the status too. Shorter boxes
 * show their status by their look (see the legend) and say it to screen readers. On a phone the
 * boxes grow with their text and say everything.
 */
function LessonBlock({
  lesson,
  timeZone,
  withName,
  top,
  span,
  place,
}: {
  lesson: Lesson;
  timeZone: string;
  withName: string;
  /** Minutes from the top of the axis to the start. */
  top: number;
  /** Minutes the axis shows. */
  span: number;
  place: Placed;
}) {
  const { t } = useLingui();
  const start = Date.parse(lesson.start);
  const end = Date.parse(lesson.end);
  // What the box can show: a lesson running past the axis is cut at its end.
  const shownMinutes = Math.min(lesson.minutes, span - top);
  const size = shownMinutes < 45 ? 'short' : shownMinutes < 90 ? 'medium' : 'tall';
  const status = lesson.status === 'confirmed' ? null : statusLabel(lesson.status);
  const strike = neverHappened(lesson.status) ? 'md:line-through' : '';
  const style = {
    '--top': `${(top / span) * 100}%`,
    '--height': `${(Math.max(shownMinutes, 20) / span) * 100}%`,
    '--left': `${(place.lane / place.lanes) * 100}%`,
    '--width': `${100 / place.lanes}%`,
  } as CSSProperties;
  const padding = size === 'short' ? 'md:py-0.5' : shownMinutes < 60 ? 'md:py-0' : 'md:py-1';
  const time = clockLabel(start, timeZone);
  const endTime = clockLabel(end, timeZone);
  const subject = lesson.subject;
  const weekly = t`weekly`;
  const what = t`${subject} with ${withName}`;
  return (
    <li
      style={style}
      title={`${time}–${endTime} ${what}${status ? ` (${status})` : ''}${lesson.seriesId ? ` · ${weekly}` : ''}`}
      className={`min-w-0 overflow-hidden rounded-lg border px-2 py-1.5 text-xs leading-4 md:absolute md:top-(--top) md:start-[calc(var(--left)+0.125rem)] md:h-(--height) md:w-[calc(var(--width)-0.25rem)] ${padding} ${LOOK[lookOf(lesson.status)]}`}
    >
      <p className="md:truncate">
        <span className="font-mono font-semibold">{time}</span>
        <span className="sr-only">
          {' '}
          <Trans>to {endTime}</Trans>
        </span>{' '}
        <span className={`font-semibold ${strike} ${size === 'short' ? 'md:sr-only' : ''}`}>
          {lesson.subject}
        </span>
        {size === 'short' ? (
          <span className={`hidden md:inline ${strike}`}>
            <span aria-hidden="true"> {withName}</span>
            <span className="sr-only">
              {' '}
              <Trans>with {withName}</Trans>
            </span>
          </span>
        ) : null}
        {status ? <span className={size === 'tall' ? 'md:hidden' : 'md:sr-only'}> · {status}</span> : null}
        {lesson.seriesId ? (
          <>
            <span aria-hidden="true"> ↻</span>
            <span className="sr-only"> · {weekly}</span>
          </>
        ) : null}
      </p>
      <p className={`truncate ${size === 'short' ? 'md:hidden' : ''}`}>
        {/* On a wide screen the box is narrow: the name alone, the "with" for screen readers. */}
        <span className="md:sr-only">
          <Trans>
            with <span className={strike}>{withName}</span>
          </Trans>
        </span>
        <span aria-hidden="true" className={`hidden md:inline ${strike}`}>
          {withName}
        </span>
      </p>
      {status && size === 'tall' ? <p className="hidden truncate font-medium md:block">{status}</p> : null}
    </li>
  );
}

/** What the looks of the boxes mean, for the statuses this week has (wide screens only). */
function Legend({ statuses }: { statuses: Set<LessonStatus> }) {
  const looks = new Set([...statuses].map(lookOf));
  const { t } = useLingui();
  if (!looks.has('request') && !looks.has('off')) return null;
  const swatch = (look: keyof typeof LOOK) => (
    <span className={`inline-block h-3 w-5 rounded border align-[-2px] ${LOOK[look]}`} />
  );
  return (
    // Screen readers hear each lesson's status with the lesson.
    <ul aria-hidden="true" className="mt-3 hidden flex-wrap gap-x-5 gap-y-1 text-xs text-slate-600 md:flex">
      <li>
        {swatch('on')} {t`Confirmed`}
      </li>
      {looks.has('request') ? (
        <li>
          {swatch('request')} <Trans>Request, waiting for the tutor</Trans>
        </li>
      ) : null}
      {looks.has('off') ? (
        <li>
          {swatch('off')}{' '}
          <Trans>
            <span className="line-through">Cancelled</span>, declined or expired
          </Trans>
        </li>
      ) : null}
    </ul>
  );
}
