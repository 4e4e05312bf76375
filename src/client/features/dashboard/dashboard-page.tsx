/**
 * /dashboard: the verified user's overview, built by the server from their lessons, with times in
 * their own zone (the saved one, else this browser's). A tutor sees today's lessons, earnings,
 * sessions, students and waiting requests, and their students; a student their next lessons,
 * their learning goals (a bar per goal: the share of its milestones done), achievements, and the
 * lessons that took place lately, to book again.
 * Every empty list says what to do next.
 */

import type { InferResponseType } from 'hono/client';
import { Link, useLoaderData } from 'react-router';
import { formatAmount } from '../../../shared/amounts';
import { ROLE_LABELS } from '../../../shared/constants';
import { bookAgainPath } from '../../../shared/lessons/book-again';
import { tookPlace } from '../../../shared/lessons/lesson-states';
import { paths, studentPath } from '../../../shared/routes';
import { Achievements } from '../../components/achievements';
import { ButtonLink } from '../../components/button';
import { CardSection } from '../../components/card';
import { GoalList, NewGoalForm } from '../../components/goals';
import { RoomLink, StatusBadge, ZoneNote } from '../../components/lesson-parts';
import { ReviewInvites } from '../../components/review-invites';
import { api, request } from '../../lib/api';
import { usePaymentsConfig } from '../../lib/payments-config';
import { clockLabel, lessonTimeLabel, monthLabel, shortDayLabel } from '../../lib/time-labels';
import { browserTimeZone } from '../../lib/time-zones';
import { useAuth } from '../auth';

type Dashboard = InferResponseType<typeof api.dashboard.$get, 200>;
type TutorDashboard = Extract<Dashboard, { role: 'tutor' }>;
type StudentDashboard = Extract<Dashboard, { role: 'student' }>;

type PastLesson = InferResponseType<typeof api.lessons.$get, 200>['lessons'][number];

/** How many lessons that took place a student's dashboard offers to book again. */
const BOOK_AGAIN_COUNT = 3;
const DAY = 24 * 60 * 60 * 1000;

/**
 * The dashboard, and for a student the lessons of the last month that took place, the latest of
 * each tutor and subject first, to book again.
 */
export const loader = async () => {
  const dashboard = await request(api.dashboard.$get({ query: { timeZone: browserTimeZone() } }));
  if (dashboard.role !== 'student') return { dashboard, past: [] as PastLesson[] };
  const now = Date.now();
  const { lessons } = await request(
    api.lessons.$get({
      query: { from: new Date(now - 30 * DAY).toISOString(), to: new Date(now).toISOString() },
    }),
  );
  const seen = new Set<string>();
  const past = lessons
    .filter((lesson) => tookPlace(lesson.status))
    .reverse()
    .filter((lesson) => {
      const key = `${lesson.tutor.id}|${lesson.subject}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, BOOK_AGAIN_COUNT);
  return { dashboard, past };
};

export function Component() {
  const auth = useAuth();
  const { dashboard, past } = useLoaderData<typeof loader>();

  const user = auth.status === 'signed-in' ? auth.user : null;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-12">
      <title>Dashboard · Tutorlane</title>
      <header>
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">
          {user ? `${ROLE_LABELS[user.role]} dashboard` : 'Dashboard'}
        </p>
        <h1 className="mt-1 wrap-break-word text-3xl font-bold tracking-tight text-slate-900">
          {/* "Welcome" in the session that first opens it after verifying; "back" on every later sign-in. */}
          {dashboard.firstVisit ? 'Welcome' : 'Welcome back'}
          {user ? `, ${user.displayName}` : ''}
        </h1>
        <ZoneNote timeZone={dashboard.timeZone} className="mt-2" />
      </header>
      <div className="mt-8">
        {dashboard.role === 'tutor' ? (
          <TutorView data={dashboard} />
        ) : (
          <StudentView data={dashboard} past={past} />
        )}
      </div>
    </div>
  );
}

function TutorView({ data }: { data: TutorDashboard }) {
  const { earnings } = data;
  const payments = usePaymentsConfig();
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      {!data.hasAvailability ? (
        <div className="rounded-2xl border border-amber-200 bg-amber-50 p-5 text-amber-950 lg:col-span-3">
          <p className="font-semibold">Students cannot book you yet.</p>
          <p className="mt-1 text-sm">
            Set the hours you teach each week, and your lesson lengths, so your free times appear on your
            profile.
          </p>
          <ButtonLink to={paths.availability} className="mt-3">
            Set your hours
          </ButtonLink>
        </div>
      ) : null}
      <CardSection title="Today's schedule" className="lg:col-span-2">
        {data.today.length === 0 ? (
          <p className="text-sm text-slate-700">
            No lessons today.{' '}
            <Link to={paths.schedule} className="font-semibold text-brand-700 underline">
              See your schedule
            </Link>{' '}
            for the days ahead.
          </p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {data.today.map((lesson) => (
              <li key={lesson.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
                <span className="w-14 font-mono text-sm font-semibold text-brand-700">
                  {clockLabel(Date.parse(lesson.start), data.timeZone)}
                </span>
                <span className="font-medium text-slate-900">{lesson.with.displayName}</span>
                <span className="text-sm text-slate-600">
                  {lesson.subject} · {lesson.minutes} min
                </span>
                <StatusBadge status={lesson.status} />
                <RoomLink lesson={lesson} onlyWhenOpen />
              </li>
            ))}
          </ul>
        )}
        {data.pendingRequests > 0 ? (
          <p className="mt-4 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-950">
            {data.pendingRequests === 1
              ? '1 lesson request is waiting for your answer.'
              : `${data.pendingRequests} lesson requests are waiting for your answer.`}{' '}
            <Link to={paths.schedule} className="font-semibold underline">
              Answer on your schedule
            </Link>
          </p>
        ) : null}
      </CardSection>
      <CardSection title="Earnings this month">
        <p className="text-4xl font-extrabold text-slate-900 tabular-nums">
          {formatAmount(earnings.thisMonthCents, earnings.currency, { minor: 'always' })}
        </p>
        <p className="mt-1 text-sm text-slate-600">
          {/* The month is the tutor's own, in their zone, as the server counted it. */}
          {payments.on
            ? `Settled to you in ${monthLabel(Date.now(), data.timeZone)}, after the school’s commission: each lesson once it took place, each late cancellation fee once it was charged.`
            : `The price of the lessons that took place in ${monthLabel(Date.now(), data.timeZone)}.`}
        </p>
        <dl className="mt-4 space-y-2 text-sm">
          <div className="flex flex-wrap justify-between gap-x-3">
            <dt className="text-slate-600">Last month</dt>
            <dd className="font-semibold text-slate-900 tabular-nums">
              {formatAmount(earnings.lastMonthCents, earnings.currency, { minor: 'always' })}
            </dd>
          </div>
          <div className="flex flex-wrap justify-between gap-x-3">
            {/* Not this month's: what lessons ahead hold, whichever month they fall in. */}
            <dt className="text-slate-600">
              {payments.on ? 'Held for your coming lessons' : 'Your confirmed lessons ahead'}
            </dt>
            <dd className="font-semibold text-slate-900 tabular-nums">
              {formatAmount(earnings.pendingCents, earnings.currency, { minor: 'always' })}
            </dd>
          </div>
        </dl>
        {payments.on ? (
          <Link
            to={paths.wallet}
            className="mt-3 inline-block text-sm font-semibold text-brand-700 underline"
          >
            Open your wallet
          </Link>
        ) : null}
      </CardSection>
      <CardSection title="Performance" className="lg:col-span-2">
        <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
          <Stat label="Total sessions" value={String(data.totalSessions)} detail="Lessons completed" />
          <Stat
            label="Rating"
            value={data.rating.average === null ? '–' : data.rating.average.toFixed(1)}
            detail={
              data.rating.count === 0
                ? 'No reviews yet'
                : `From ${data.rating.count} review${data.rating.count === 1 ? '' : 's'}`
            }
          />
          <Stat label="Active students" value={String(data.activeStudents)} detail="Last 30 days and ahead" />
          <Stat
            label="Requests waiting"
            value={String(data.pendingRequests)}
            detail="Each expires after 48 hours"
          />
        </dl>
      </CardSection>
      <CardSection title="Quick actions">
        <div className="space-y-3">
          <ButtonLink to={paths.availability} variant="secondary" className="w-full">
            Set Availability
          </ButtonLink>
          <ButtonLink to={paths.messages} variant="secondary" className="w-full">
            View Messages
          </ButtonLink>
          <ButtonLink to={paths.profile} variant="secondary" className="w-full">
            Update Profile
          </ButtonLink>
        </div>
      </CardSection>
      <CardSection title="Your students" className="lg:col-span-3">
        {data.students.length === 0 ? (
          <p className="text-sm text-slate-700">
            Students you teach appear here after their first confirmed lesson, each with their lessons, your
            notes and their goals.
          </p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {data.students.map((student) => (
              <li key={student.id} className="rounded-xl bg-slate-50 p-4">
                <Link
                  to={studentPath(student.id)}
                  className="font-semibold text-brand-700 underline-offset-2 hover:underline"
                >
                  {student.displayName}
                </Link>
                <p className="text-sm text-slate-600">
                  {student.lessons === 1 ? '1 lesson' : `${student.lessons} lessons`} ·{' '}
                  {Date.parse(student.lastLessonAt) > Date.now() ? 'booked until' : 'last'}{' '}
                  {shortDayLabel(Date.parse(student.lastLessonAt), data.timeZone)}
                </p>
              </li>
            ))}
          </ul>
        )}
      </CardSection>
    </div>
  );
}

function Stat({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="flex flex-col-reverse rounded-xl bg-slate-50 p-4">
      <dt className="mt-1 text-sm text-slate-600">
        {label}
        {detail ? <span className="block text-xs">{detail}</span> : null}
      </dt>
      <dd className="text-2xl font-bold text-slate-900">{value}</dd>
    </div>
  );
}

function StudentView({ data, past }: { data: StudentDashboard; past: PastLesson[] }) {
  // Two columns on a wide screen: lessons and goals on the left, the rest beside them.
  return (
    <div className="grid items-start gap-6 lg:grid-cols-3">
      <div className="space-y-6 lg:col-span-2">
        <CardSection title="Upcoming lessons">
          {data.upcoming.length === 0 ? (
            <p className="text-sm text-slate-700">
              No lessons booked yet. Find a tutor and pick a time that suits you.
            </p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {data.upcoming.map((lesson) => (
                <li key={lesson.id} className="py-3">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium text-slate-900">
                      {lesson.subject} with {lesson.with.displayName}
                    </span>
                    <StatusBadge status={lesson.status} />
                  </div>
                  <p className="mt-0.5 text-sm text-slate-700">
                    {lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), data.timeZone)} ·{' '}
                    {lesson.minutes} min
                  </p>
                  <RoomLink lesson={lesson} onlyWhenOpen />
                </li>
              ))}
            </ul>
          )}
          <Link
            to={paths.schedule}
            className="mt-4 inline-block text-sm font-semibold text-brand-700 underline"
          >
            Open your schedule
          </Link>
        </CardSection>
        {past.length > 0 ? (
          <CardSection title="Book again">
            <ul className="divide-y divide-slate-100">
              {past.map((lesson) => (
                <li key={lesson.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                  <div>
                    <p className="font-medium text-slate-900">
                      {lesson.subject} with {lesson.tutor.displayName}
                    </p>
                    <p className="mt-0.5 text-sm text-slate-700">
                      {lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), data.timeZone)} ·{' '}
                      {lesson.minutes} min
                    </p>
                  </div>
                  <ButtonLink
                    to={bookAgainPath({ ...lesson, tutorId: lesson.tutor.id }, Date.now(), data.timeZone)}
                    variant="secondary"
                    aria-label={`Book ${lesson.subject} with ${lesson.tutor.displayName} again`}
                  >
                    Book again
                  </ButtonLink>
                </li>
              ))}
            </ul>
          </CardSection>
        ) : null}
        <CardSection title="Learning progress">
          <GoalList
            editable
            goals={data.goals}
            empty="Set a goal for what you are learning, with the steps on the way: each step you or your tutor tick moves its bar."
          />
          <NewGoalForm />
        </CardSection>
      </div>
      <div className="space-y-6">
        <ReviewInvites tutors={data.toReview} />
        <CardSection title="Find New Tutors">
          <p className="text-sm text-slate-700">Explore tutors by subject, price and language.</p>
          <ButtonLink to={paths.tutors} className="mt-4 w-full">
            Browse Tutors
          </ButtonLink>
          <ButtonLink to={paths.messages} variant="secondary" className="mt-3 w-full">
            View Messages
          </ButtonLink>
        </CardSection>
        <CardSection title="Achievements">
          <Achievements achievements={data.achievements} timeZone={data.timeZone} />
          {data.completedBySubject.length > 0 ? (
            <p className="mt-4 border-t border-slate-100 pt-3 text-sm text-slate-700">
              Lessons completed:{' '}
              {data.completedBySubject.map((item) => `${item.subject} ${item.lessons}`).join(' · ')}
            </p>
          ) : null}
        </CardSection>
      </div>
    </div>
  );
}
