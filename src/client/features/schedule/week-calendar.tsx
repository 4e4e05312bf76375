/**
 * One week of the user's lessons, Monday to Sunday in their zone. On a wide screen the days are
 * columns on a time axis; on a phone they are a list. Either way the markup is a list of days,
 * each a heading and its lessons, so a screen reader hears the same thing.
 */
import type { CSSProperties } from 'react';
import { localDate, startOfLocalDay } from '../../../shared/lessons/lesson-times';
import { clockLabel, shortDayLabel } from '../../lib/time-labels';
import { statusLabel } from '../lessons/lesson-parts';
import type { Lesson } from './schedule-data';

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
  role,
}: {
  /** The seven local dates, "YYYY-MM-DD", Monday first. */
  days: string[];
  lessons: Lesson[];
  timeZone: string;
  role: 'student' | 'tutor';
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

  return (
    <div className="md:flex">
      <div aria-hidden="true" className="hidden w-12 shrink-0 pt-10 md:block">
        {hours.map((hour) => (
          <div
            key={hour}
            className="text-right text-xs text-slate-500"
            style={{ height: `${HOUR_HEIGHT_REM}rem` }}
          >
            <span className="relative -top-2 pr-2">{String(hour).padStart(2, '0')}:00</span>
          </div>
        ))}
      </div>
      <ol className="grid flex-1 gap-3 md:grid-cols-7 md:gap-0 md:border-l md:border-slate-200">
        {days.map((day) => {
          const dayLessons = byDay.get(day) ?? [];
          const dayStart = startOfLocalDay(day, timeZone);
          const headingId = `day-${day}`;
          return (
            <li
              key={day}
              aria-labelledby={headingId}
              className={`rounded-xl border border-slate-200 md:rounded-none md:border-0 md:border-r md:p-0 ${
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
                {day === today ? <span className="sr-only"> (today)</span> : null}
              </h3>
              {dayLessons.length === 0 ? (
                <p className="text-sm text-slate-500 md:sr-only">No lessons</p>
              ) : null}
              <ul
                className="mt-2 space-y-2 md:relative md:mt-0 md:h-(--day-height) md:space-y-0 md:bg-[linear-gradient(to_bottom,var(--color-slate-100)_1px,transparent_1px)] md:[background-size:100%_3rem]"
                style={{ '--day-height': `${(span / 60) * HOUR_HEIGHT_REM}rem` } as CSSProperties}
              >
                {dayLessons.map((lesson) => {
                  const start = Date.parse(lesson.start);
                  const end = Date.parse(lesson.end);
                  const from = wallMinutes(start, timeZone) - first * 60;
                  const length = Math.min(lesson.minutes, span - from);
                  const place = {
                    '--top': `${(from / span) * 100}%`,
                    '--height': `${(Math.max(length, 20) / span) * 100}%`,
                  } as CSSProperties;
                  const muted =
                    lesson.status === 'cancelled' ||
                    lesson.status === 'declined' ||
                    lesson.status === 'expired';
                  const look = muted
                    ? 'border-slate-200 bg-slate-50 text-slate-600'
                    : lesson.status === 'pending'
                      ? 'border-dashed border-amber-500 bg-amber-50 text-slate-900'
                      : 'border-brand-200 bg-brand-50 text-slate-900';
                  return (
                    <li
                      key={lesson.id}
                      style={place}
                      className={`overflow-hidden rounded-lg border px-2 py-1.5 text-xs md:absolute md:inset-x-1 md:top-(--top) md:h-(--height) ${look}`}
                    >
                      <p className="font-semibold">
                        <span className="font-mono">{clockLabel(start, timeZone)}</span>
                        <span className="sr-only"> to {clockLabel(end, timeZone)}</span> {lesson.subject}
                        {lesson.status === 'confirmed' ? null : ` · ${statusLabel(lesson.status)}`}
                      </p>
                      <p className="truncate">
                        with {role === 'tutor' ? lesson.student.displayName : lesson.tutor.displayName}
                      </p>
                    </li>
                  );
                })}
              </ul>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
