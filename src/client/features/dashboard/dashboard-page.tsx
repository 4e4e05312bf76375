/**
 * /dashboard: the verified user's overview, built by the server from their lessons, with times in
 * their own zone (the saved one, else this browser's). A tutor sees today's lessons, earnings,
 * sessions, students and waiting requests, and their students (a class session once, with the
 * seats held, linking to its class); a student their next lessons (a class seat named after it),
 * their learning goals (a bar per goal: the share of its milestones done), achievements, and the
 * lessons that took place lately, to book again. A parent sees each child's next lessons, their
 * tutors' latest notes and their goals, and what the family spent this month (./parent-view.tsx).
 * Every empty list says what to do next.
 */
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { InferResponseType } from 'hono/client';
import { Link, useLoaderData } from 'react-router';
import { formatAmount } from '../../../shared/amounts';
import { formatLocale } from '../../../shared/format-locale';
import { bookAgainPath } from '../../../shared/lessons/book-again';
import { tookPlace } from '../../../shared/lessons/lesson-states';
import { paths, studentPath } from '../../../shared/routes';
import { Achievements } from '../../components/achievements';
import { ButtonLink } from '../../components/button';
import { CardSection } from '../../components/card';
import { ClassBadge, ClassTitleLink, SeatsHeld } from '../../components/class-session-parts';
import { GoalList, NewGoalForm } from '../../components/goals';
import { RoomLink, StatusBadge } from '../../components/lesson-parts';
import { ReviewInvites } from '../../components/review-invites';
import { ZoneNote } from '../../components/zone-note';
import { api, request } from '../../lib/api';
import { usePaymentsConfig } from '../../lib/payments-config';
import { clockLabel, lessonTimeLabel, monthLabel, shortDayLabel } from '../../lib/time-labels';
import { browserTimeZone } from '../../lib/time-zones';
import { useAuth } from '../auth';
import { ParentView } from './parent-view';

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
    // A class's seat is booked again on its class's page, not as a lesson.
    .filter((lesson) => tookPlace(lesson.status) && lesson.classSession === null)
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
  const { t } = useLingui();
  const auth = useAuth();
  const { dashboard, past } = useLoaderData<typeof loader>();

  const user = auth.status === 'signed-in' ? auth.user : null;
  const name = user?.displayName ?? '';
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-12">
      <title>{t`Dashboard · Tutorlane`}</title>
      <header>
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">
          {user
            ? user.role === 'tutor'
              ? t`Tutor dashboard`
              : user.role === 'parent'
                ? t`Parent dashboard`
                : t`Student dashboard`
            : t`Dashboard`}
        </p>
        <h1 className="mt-1 wrap-break-word text-3xl font-bold tracking-tight text-slate-900">
          {/* "Welcome" in the session that first opens it after verifying; "back" on every later sign-in. */}
          {dashboard.firstVisit
            ? user
              ? t`Welcome, ${name}`
              : t`Welcome`
            : user
              ? t`Welcome back, ${name}`
              : t`Welcome back`}
        </h1>
        <ZoneNote timeZone={dashboard.timeZone} className="mt-2" />
      </header>
      <div className="mt-8">
        {dashboard.role === 'parent' ? (
          <ParentView data={dashboard} />
        ) : dashboard.role === 'tutor' ? (
          <TutorView data={dashboard} />
        ) : (
          <StudentView data={dashboard} past={past} />
        )}
      </div>
    </div>
  );
}

function TutorView({ data }: { data: TutorDashboard }) {
  const { t } = useLingui();
  const { earnings } = data;
  const payments = usePaymentsConfig();
  const month = monthLabel(Date.now(), data.timeZone);
  const waiting = data.pendingRequests;
  const reviews = data.rating.count;
  const rating =
    data.rating.average === null
      ? '–'
      : new Intl.NumberFormat(formatLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
          data.rating.average,
        );
  const count = (value: number) => new Intl.NumberFormat(formatLocale()).format(value);
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      {!data.hasAvailability ? (
        <div className="rounded-2xl border border-amber-200 bg-amber-50 p-5 text-amber-950 lg:col-span-3">
          <p className="font-semibold">
            <Trans>Students cannot book you yet.</Trans>
          </p>
          <p className="mt-1 text-sm">
            <Trans>
              Set the hours you teach each week, and your lesson lengths, so your free times appear on your
              profile.
            </Trans>
          </p>
          <ButtonLink to={paths.availability} className="mt-3">
            <Trans>Set your hours</Trans>
          </ButtonLink>
        </div>
      ) : null}
      <CardSection title={t`Today's schedule`} className="lg:col-span-2">
        {data.today.length === 0 ? (
          <p className="text-sm text-slate-700">
            <Trans>
              No lessons today.{' '}
              <Link to={paths.schedule} className="font-semibold text-brand-700 underline">
                See your schedule
              </Link>{' '}
              for the days ahead.
            </Trans>
          </p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {data.today.map((lesson) => {
              const minutes = lesson.minutes;
              return (
                <li key={lesson.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
                  <span className="w-14 font-mono text-sm font-semibold text-brand-700">
                    {clockLabel(Date.parse(lesson.start), data.timeZone)}
                  </span>
                  {lesson.classSession ? (
                    <ClassTitleLink classId={lesson.classSession.classId} title={lesson.classSession.title} />
                  ) : (
                    <span className="font-medium text-slate-900">{lesson.with?.displayName}</span>
                  )}
                  <span className="text-sm text-slate-600">
                    {lesson.subject} · <Trans>{minutes} min</Trans>
                  </span>
                  {lesson.classSession ? (
                    <SeatsHeld students={lesson.classSession.students} seats={lesson.classSession.seats} />
                  ) : null}
                  <StatusBadge status={lesson.status} />
                  <RoomLink lesson={lesson} onlyWhenOpen />
                </li>
              );
            })}
          </ul>
        )}
        {data.pendingRequests > 0 ? (
          <p className="mt-4 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-950">
            {t`${plural(waiting, {
              one: '# lesson request is waiting for your answer.',
              other: '# lesson requests are waiting for your answer.',
            })}`}{' '}
            <Link to={paths.schedule} className="font-semibold underline">
              <Trans>Answer on your schedule</Trans>
            </Link>
          </p>
        ) : null}
      </CardSection>
      <CardSection title={t`Earnings this month`}>
        <p className="text-4xl font-extrabold text-slate-900 tabular-nums">
          {formatAmount(earnings.thisMonthCents, earnings.currency, { minor: 'always' })}
        </p>
        <p className="mt-1 text-sm text-slate-600">
          {/* The month is the tutor's own, in their zone, as the server counted it. */}
          {payments.on
            ? t`Settled to you in ${month}, after the school’s commission: each lesson once it took place, each late cancellation fee once it was charged.`
            : t`The price of the lessons that took place in ${month}.`}
        </p>
        <dl className="mt-4 space-y-2 text-sm">
          <div className="flex flex-wrap justify-between gap-x-3">
            <dt className="text-slate-600">
              <Trans>Last month</Trans>
            </dt>
            <dd className="font-semibold text-slate-900 tabular-nums">
              {formatAmount(earnings.lastMonthCents, earnings.currency, { minor: 'always' })}
            </dd>
          </div>
          <div className="flex flex-wrap justify-between gap-x-3">
            {/* Not this month's: what lessons ahead hold, whichever month they fall in. */}
            <dt className="text-slate-600">
              {payments.on ? t`Held for your coming lessons` : t`Your confirmed lessons ahead`}
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
            <Trans>Open your wallet</Trans>
          </Link>
        ) : null}
      </CardSection>
      <CardSection title={t`Performance`} className="lg:col-span-2">
        <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
          <Stat label={t`Total sessions`} value={count(data.totalSessions)} detail={t`Lessons completed`} />
          <Stat
            label={t`Rating`}
            value={rating}
            detail={
              reviews === 0
                ? t`No reviews yet`
                : t`${plural(reviews, { one: 'From # review', other: 'From # reviews' })}`
            }
          />
          <Stat
            label={t`Active students`}
            value={count(data.activeStudents)}
            detail={t`Last 30 days and ahead`}
          />
          <Stat
            label={t`Requests waiting`}
            value={count(data.pendingRequests)}
            detail={t`Each expires after 48 hours`}
          />
        </dl>
      </CardSection>
      <CardSection title={t`Quick actions`}>
        <div className="space-y-3">
          <ButtonLink to={paths.availability} variant="secondary" className="w-full">
            <Trans>Set Availability</Trans>
          </ButtonLink>
          <ButtonLink to={paths.messages} variant="secondary" className="w-full">
            <Trans>View Messages</Trans>
          </ButtonLink>
          <ButtonLink to={paths.profile} variant="secondary" className="w-full">
            <Trans>Update Profile</Trans>
          </ButtonLink>
        </div>
      </CardSection>
      <CardSection title={t`Your students`} className="lg:col-span-3">
        {data.students.length === 0 ? (
          <p className="text-sm text-slate-700">
            <Trans>
              Students you teach appear here after their first confirmed lesson, each with their lessons, your
              notes and their goals.
            </Trans>
          </p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {data.students.map((student) => {
              const lessons = student.lessons;
              const day = shortDayLabel(Date.parse(student.lastLessonAt), data.timeZone);
              return (
                <li key={student.id} className="rounded-xl bg-slate-50 p-4">
                  <Link
                    to={studentPath(student.id)}
                    className="font-semibold text-brand-700 underline-offset-2 hover:underline"
                  >
                    {student.displayName}
                  </Link>
                  <p className="text-sm text-slate-600">
                    {t`${plural(lessons, { one: '# lesson', other: '# lessons' })}`} ·{' '}
                    {Date.parse(student.lastLessonAt) > Date.now() ? t`booked until ${day}` : t`last ${day}`}
                  </p>
                </li>
              );
            })}
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
  const { t } = useLingui();
  const completed = data.completedBySubject.map((item) => `${item.subject} ${item.lessons}`).join(' · ');
  // Two columns on a wide screen: lessons and goals on the left, the rest beside them.
  return (
    <div className="grid items-start gap-6 lg:grid-cols-3">
      <div className="space-y-6 lg:col-span-2">
        <CardSection title={t`Upcoming lessons`}>
          {data.upcoming.length === 0 ? (
            <p className="text-sm text-slate-700">
              <Trans>No lessons booked yet. Find a tutor and pick a time that suits you.</Trans>
            </p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {data.upcoming.map((lesson) => {
                const subject = lesson.subject;
                const name = lesson.with?.displayName ?? '';
                const minutes = lesson.minutes;
                const group = lesson.classSession;
                return (
                  <li key={lesson.id} className="py-3">
                    <div className="flex flex-wrap items-center gap-2">
                      {group ? (
                        <span className="text-slate-900">
                          <Trans>
                            <ClassTitleLink classId={group.classId} title={group.title} /> with {name}
                          </Trans>
                        </span>
                      ) : (
                        <span className="font-medium text-slate-900">
                          <Trans>
                            {subject} with {name}
                          </Trans>
                        </span>
                      )}
                      {group ? <ClassBadge /> : null}
                      <StatusBadge status={lesson.status} />
                    </div>
                    <p className="mt-0.5 text-sm text-slate-700">
                      {lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), data.timeZone)} ·{' '}
                      <Trans>{minutes} min</Trans>
                    </p>
                    <RoomLink lesson={lesson} onlyWhenOpen />
                  </li>
                );
              })}
            </ul>
          )}
          <Link
            to={paths.schedule}
            className="mt-4 inline-block text-sm font-semibold text-brand-700 underline"
          >
            <Trans>Open your schedule</Trans>
          </Link>
        </CardSection>
        {past.length > 0 ? (
          <CardSection title={t`Book again`}>
            <ul className="divide-y divide-slate-100">
              {past.map((lesson) => {
                const subject = lesson.subject;
                const name = lesson.tutor.displayName;
                const minutes = lesson.minutes;
                return (
                  <li key={lesson.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                    <div>
                      <p className="font-medium text-slate-900">
                        <Trans>
                          {subject} with {name}
                        </Trans>
                      </p>
                      <p className="mt-0.5 text-sm text-slate-700">
                        {lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), data.timeZone)} ·{' '}
                        <Trans>{minutes} min</Trans>
                      </p>
                    </div>
                    <ButtonLink
                      to={bookAgainPath({ ...lesson, tutorId: lesson.tutor.id }, Date.now(), data.timeZone)}
                      variant="secondary"
                      aria-label={t`Book ${subject} with ${name} again`}
                    >
                      <Trans>Book again</Trans>
                    </ButtonLink>
                  </li>
                );
              })}
            </ul>
          </CardSection>
        ) : null}
        <CardSection title={t`Learning progress`}>
          <GoalList
            editable
            goals={data.goals}
            empty={t`Set a goal for what you are learning, with the steps on the way: each step you or your tutor tick moves its bar.`}
          />
          <NewGoalForm />
        </CardSection>
      </div>
      <div className="space-y-6">
        <ReviewInvites tutors={data.toReview} />
        <CardSection title={t`Find New Tutors`}>
          <p className="text-sm text-slate-700">
            <Trans>Explore tutors by subject, price and language.</Trans>
          </p>
          <ButtonLink to={paths.tutors} className="mt-4 w-full">
            <Trans>Browse Tutors</Trans>
          </ButtonLink>
          <ButtonLink to={paths.messages} variant="secondary" className="mt-3 w-full">
            <Trans>View Messages</Trans>
          </ButtonLink>
        </CardSection>
        <CardSection title={t`Achievements`}>
          <Achievements achievements={data.achievements} timeZone={data.timeZone} />
          {data.completedBySubject.length > 0 ? (
            <p className="mt-4 border-t border-slate-100 pt-3 text-sm text-slate-700">
              <Trans>Lessons completed: {completed}</Trans>
            </p>
          ) : null}
        </CardSection>
      </div>
    </div>
  );
}
