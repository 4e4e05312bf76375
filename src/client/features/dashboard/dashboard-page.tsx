import type { InferResponseType } from 'hono/client';
import { useId } from 'react';
import { useLoaderData } from 'react-router';
import { ROLE_LABELS } from '../../../shared/constants';
import { paths } from '../../../shared/routes';
import { ButtonLink } from '../../components/button';
import { CardSection } from '../../components/card';
import { ComingSoonButton } from '../../components/coming-soon';
import { api, request } from '../../lib/api';
import { useAuth } from '../auth/auth-provider';

type Dashboard = InferResponseType<typeof api.dashboard.$get>;
type TutorDashboard = Extract<Dashboard, { role: 'tutor' }>;
type StudentDashboard = Extract<Dashboard, { role: 'student' }>;

export const loader = () => request(api.dashboard.$get());

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

export function Component() {
  const auth = useAuth();
  const dashboard = useLoaderData<typeof loader>();

  const user = auth.status === 'signed-in' ? auth.user : null;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-12">
      <title>Dashboard · Tutorlane</title>
      <header>
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">
          {user ? `${ROLE_LABELS[user.role]} dashboard` : 'Dashboard'}
        </p>
        <h1 className="mt-1 wrap-break-word text-3xl font-bold tracking-tight text-slate-900">
          Welcome back{user ? `, ${user.displayName}` : ''}
        </h1>
      </header>
      <div className="mt-8">
        {dashboard.role === 'tutor' ? <TutorView data={dashboard} /> : <StudentView data={dashboard} />}
      </div>
    </div>
  );
}

function TutorView({ data }: { data: TutorDashboard }) {
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <CardSection title="Today's schedule" className="lg:col-span-2">
        <ul className="divide-y divide-slate-100">
          {data.todaysSessions.map((session) => (
            <li key={session.time} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
              <span className="w-14 font-mono text-sm font-semibold text-brand-700">{session.time}</span>
              <span className="font-medium text-slate-900">{session.student}</span>
              <span className="text-sm text-slate-600">
                {session.subject} · {session.durationMinutes} min
              </span>
            </li>
          ))}
        </ul>
      </CardSection>
      <CardSection title="Earnings this month">
        <p className="text-4xl font-extrabold text-slate-900">{usd.format(data.earnings.thisMonthUsd)}</p>
        <p className="mt-2 text-sm font-medium text-emerald-800">
          +{data.earnings.changeFromLastMonthPercent}% from last month
        </p>
        <p className="mt-1 text-sm text-slate-600">
          {usd.format(data.earnings.pendingPayoutUsd)} pending payout
        </p>
      </CardSection>
      <CardSection title="Performance" className="lg:col-span-2">
        <dl className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <Stat
            label="Rating"
            value={`${data.performance.rating} ★`}
            detail={`${data.performance.reviews} reviews`}
          />
          <Stat label="Total sessions" value={String(data.performance.totalSessions)} />
          <Stat label="Active students" value={String(data.performance.activeStudents)} />
        </dl>
      </CardSection>
      <CardSection title="Quick actions">
        <div className="space-y-3">
          <ComingSoonButton
            label="Set Availability"
            note="Setting your availability is coming soon, with lesson booking."
          />
          <ComingSoonButton label="View Messages" note="Messaging is coming soon." />
          <ButtonLink to={paths.profile} className="w-full">
            Update Profile
          </ButtonLink>
        </div>
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

function StudentView({ data }: { data: StudentDashboard }) {
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <CardSection title="Upcoming lessons" className="lg:col-span-2">
        <ul className="divide-y divide-slate-100">
          {data.upcomingLessons.map((lesson) => (
            <li key={lesson.when} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
              <span className="w-36 text-sm font-semibold text-brand-700">{lesson.when}</span>
              <span className="font-medium text-slate-900">{lesson.subject}</span>
              <span className="text-sm text-slate-600">
                with {lesson.tutor} · {lesson.durationMinutes} min
              </span>
            </li>
          ))}
        </ul>
      </CardSection>
      <CardSection title="Find New Tutors">
        <p className="text-sm text-slate-700">Explore tutors by subject, price and language.</p>
        <ButtonLink to={paths.tutors} className="mt-4 w-full">
          Browse Tutors
        </ButtonLink>
      </CardSection>
      <CardSection title="Learning progress" className="lg:col-span-2">
        <ul className="space-y-4">
          {data.progress.map((item) => (
            <ProgressRow key={item.subject} subject={item.subject} percent={item.percent} />
          ))}
        </ul>
      </CardSection>
      <CardSection title="Achievements">
        <ul className="space-y-3">
          {data.achievements.map((achievement) => (
            <li key={achievement.title} className="flex gap-3">
              <span
                aria-hidden="true"
                className="flex size-9 shrink-0 items-center justify-center rounded-full bg-amber-100 text-amber-800"
              >
                ★
              </span>
              <span>
                <span className="block font-medium text-slate-900">{achievement.title}</span>
                <span className="block text-sm text-slate-600">{achievement.description}</span>
              </span>
            </li>
          ))}
        </ul>
      </CardSection>
    </div>
  );
}

/** One subject's progress bar, named by the subject through an id that any subject name keeps valid. */
function ProgressRow({ subject, percent }: { subject: string; percent: number }) {
  const labelId = useId();
  return (
    <li>
      <div className="flex justify-between text-sm">
        <span id={labelId} className="font-medium text-slate-900">
          {subject}
        </span>
        <span className="text-slate-600">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
        className="mt-2 h-2.5 rounded-full bg-slate-100"
      >
        <div className="h-2.5 rounded-full bg-brand-600" style={{ width: `${percent}%` }} />
      </div>
    </li>
  );
}
