/**
 * What the schedule page loads: the role's wording and the zone to show times in (GET
 * /api/schedule), the lessons of the week on screen and of the weeks ahead (GET /api/lessons), a
 * tutor's class sessions in them (GET /api/schedule/class-sessions), and
 * the calendar feed's address, and the lessons of the last 30 days that took place, with notes. The week is the URL's `?week=` (a Monday, "YYYY-MM-DD"), else this
 * week in the user's zone.
 */
import type { InferResponseType } from 'hono/client';
import type { LoaderFunctionArgs } from 'react-router';
import { isPlanned, tookPlace } from '../../../shared/lessons/lesson-states';
import { addDays, localDate, mondayOf, startOfLocalDay } from '../../../shared/lessons/lesson-times';
import { ApiError, api, request } from '../../lib/api';
import { browserTimeZone } from '../../lib/time-zones';

export type Lesson = InferResponseType<typeof api.lessons.$get, 200>['lessons'][number];
/** A class session the tutor teaches, once whatever number of seats are held in it. */
export type TaughtSession = InferResponseType<
  (typeof api.schedule)['class-sessions']['$get'],
  200
>['sessions'][number];

/** How far ahead the list of upcoming lessons looks, and how far back the recent ones. */
const UPCOMING_DAYS = 90;
const RECENT_DAYS = 30;
const DAY = 24 * 60 * 60 * 1000;

const isLocalDate = (value: string | null): value is string =>
  value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

export async function loadSchedule({ request: page }: LoaderFunctionArgs) {
  const signal = page.signal;
  let info: InferResponseType<typeof api.schedule.$get, 200>;
  try {
    info = await request(api.schedule.$get({ query: { timeZone: browserTimeZone() } }, { init: { signal } }));
  } catch (error) {
    // The session ended or is unverified: the page asks to sign up or sign in.
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return null;
    throw error;
  }
  const { timeZone } = info;
  const asked = new URL(page.url).searchParams.get('week');
  const monday = mondayOf(isLocalDate(asked) ? asked : localDate(Date.now(), timeZone));
  const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  const weekFrom = new Date(startOfLocalDay(monday, timeZone)).toISOString();
  const weekTo = new Date(startOfLocalDay(addDays(monday, 7), timeZone)).toISOString();
  const now = Date.now();
  const tutor = info.role === 'tutor';
  const sessionsIn = async (from: number, to: number) =>
    tutor
      ? (
          await request(
            api.schedule['class-sessions'].$get(
              { query: { from: new Date(from).toISOString(), to: new Date(to).toISOString() } },
              { init: { signal } },
            ),
          )
        ).sessions
      : [];
  const [week, upcoming, recent, feed, weekSessions, nearSessions] = await Promise.all([
    request(api.lessons.$get({ query: { from: weekFrom, to: weekTo } }, { init: { signal } })),
    request(
      api.lessons.$get(
        {
          query: { from: new Date(now).toISOString(), to: new Date(now + UPCOMING_DAYS * DAY).toISOString() },
        },
        { init: { signal } },
      ),
    ),
    request(
      api.lessons.$get(
        { query: { from: new Date(now - RECENT_DAYS * DAY).toISOString(), to: new Date(now).toISOString() } },
        { init: { signal } },
      ),
    ),
    request(api['calendar-feed'].$get(undefined, { init: { signal } })),
    sessionsIn(Date.parse(weekFrom), Date.parse(weekTo)),
    sessionsIn(now, now + UPCOMING_DAYS * DAY),
  ]);
  // The tutor's seats are shown as their sessions, each once; a student's seat is their lesson.
  const shown = (lessons: Lesson[]) => (tutor ? lessons.filter((lesson) => !lesson.classSession) : lessons);
  return {
    ...info,
    days,
    monday,
    weekLessons: shown(week.lessons),
    weekSessions,
    upcoming: shown(upcoming.lessons).filter((lesson) => isPlanned(lesson.status)),
    upcomingSessions: nearSessions.filter((session) => session.status === 'scheduled'),
    /** Lessons that took place in the last weeks, the latest first: where their notes are. */
    recent: shown(recent.lessons)
      .filter((lesson) => tookPlace(lesson.status))
      .reverse(),
    feedUrl: feed.url,
  };
}

export type ScheduleData = NonNullable<Awaited<ReturnType<typeof loadSchedule>>>;
