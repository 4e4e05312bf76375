/**
 * A parent's dashboard (GET /api/dashboard with role "parent"): what the family spent this month,
 * and for each child their next lessons, their tutors' latest notes and their goals. The shape is
 * read here rather than from the server's type, so a field the answer leaves out (an older server)
 * shows as an empty list rather than breaking the page.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { formatAmount } from '../../../shared/amounts';
import type { LessonStatus } from '../../../shared/lessons/lesson-schemas';
import { paths } from '../../../shared/routes';
import { ButtonLink } from '../../components/button';
import { CardSection } from '../../components/card';
import { type Goal, GoalList, NewGoalForm } from '../../components/goals';
import { type Notes, NotesView } from '../../components/lesson-notes';
import { RoomLink, StatusBadge } from '../../components/lesson-parts';
import { lessonTimeLabel, monthLabel } from '../../lib/time-labels';

interface ChildLesson {
  id: string;
  start: string;
  end: string;
  status: LessonStatus;
  subject: string;
  minutes?: number;
  with?: { displayName: string } | null;
  tutor?: { displayName: string } | null;
  classSession?: { classId: string; sessionId: string; title?: string } | null;
}

interface ChildNote {
  lessonId?: string;
  id?: string;
  start?: string;
  end?: string;
  subject?: string;
  tutor?: { displayName: string } | null;
  with?: { displayName: string } | null;
  notes?: Notes | null;
  covered?: string;
  homework?: string;
  updatedAt?: string;
}

interface ChildProgress {
  id: string;
  firstName: string;
  upcoming?: ChildLesson[];
  notes?: ChildNote[];
  goals?: Goal[];
}

export interface ParentDashboard {
  role: 'parent';
  timeZone: string;
  firstVisit?: boolean;
  children: ChildProgress[];
  spentThisMonth: { amountCents: number; currency: string };
}

const tutorName = (item: { tutor?: { displayName: string } | null; with?: { displayName: string } | null }) =>
  item.tutor?.displayName ?? item.with?.displayName ?? '';

export function ParentView({ data }: { data: ParentDashboard }) {
  const { t } = useLingui();
  const month = monthLabel(Date.now(), data.timeZone);
  const spent = formatAmount(data.spentThisMonth.amountCents, data.spentThisMonth.currency, {
    minor: 'always',
  });
  return (
    <div className="grid items-start gap-6 lg:grid-cols-3">
      <div className="space-y-6 lg:col-span-2">
        {data.children.length === 0 ? (
          <CardSection title={t`Your children`}>
            <p className="text-sm text-slate-700">
              <Trans>
                Add your children on the{' '}
                <Link to={paths.family} className="font-semibold text-brand-700 underline">
                  Family
                </Link>{' '}
                page, then book lessons for them on a tutor’s page.
              </Trans>
            </p>
          </CardSection>
        ) : (
          data.children.map((child) => <ChildCard key={child.id} child={child} timeZone={data.timeZone} />)
        )}
      </div>
      <div className="space-y-6">
        <CardSection title={t`Spent this month`}>
          <p className="text-4xl font-extrabold text-slate-900 tabular-nums">{spent}</p>
          <p className="mt-1 text-sm text-slate-600">
            {t`What your children’s lessons and packages took from your wallet in ${month}.`}
          </p>
          <Link
            to={paths.wallet}
            className="mt-3 inline-block text-sm font-semibold text-brand-700 underline"
          >
            <Trans>Open your wallet</Trans>
          </Link>
        </CardSection>
        <CardSection title={t`Find New Tutors`}>
          <ButtonLink to={paths.tutors} className="w-full">
            <Trans>Browse Tutors</Trans>
          </ButtonLink>
          <ButtonLink to={paths.family} variant="secondary" className="mt-3 w-full">
            <Trans>Manage your family</Trans>
          </ButtonLink>
        </CardSection>
      </div>
    </div>
  );
}

function ChildCard({ child, timeZone }: { child: ChildProgress; timeZone: string }) {
  const { t } = useLingui();
  const name = child.firstName;
  const upcoming = child.upcoming ?? [];
  const notes = child.notes ?? [];
  const goals = child.goals ?? [];
  return (
    <CardSection title={name}>
      <h3 className="text-sm font-semibold uppercase tracking-wide text-slate-600">
        <Trans>Upcoming lessons</Trans>
      </h3>
      {upcoming.length === 0 ? (
        <p className="mt-1 text-sm text-slate-700">
          <Trans>No lessons booked for {name}. Find a tutor and book a time for them.</Trans>
        </p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {upcoming.map((lesson) => {
            const subject = lesson.classSession?.title ?? lesson.subject;
            const tutor = tutorName(lesson);
            return (
              <li key={lesson.id} className="py-3">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium text-slate-900">
                    <Trans>
                      {subject} with {tutor}
                    </Trans>
                  </span>
                  <StatusBadge status={lesson.status} />
                </div>
                <p className="mt-0.5 text-sm text-slate-700">
                  {lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), timeZone)}
                </p>
                <RoomLink lesson={lesson} onlyWhenOpen />
              </li>
            );
          })}
        </ul>
      )}
      <h3 className="mt-6 text-sm font-semibold uppercase tracking-wide text-slate-600">
        <Trans>Tutors’ notes</Trans>
      </h3>
      {notes.length === 0 ? (
        <p className="mt-1 text-sm text-slate-700">
          <Trans>Notes appear here once a tutor writes them after a lesson.</Trans>
        </p>
      ) : (
        <ul className="mt-2 space-y-4">
          {notes.map((note, index) => {
            const written: Notes | null =
              note.notes ??
              (note.covered !== undefined || note.homework !== undefined
                ? {
                    covered: note.covered ?? '',
                    homework: note.homework ?? '',
                    updatedAt: note.updatedAt ?? '',
                  }
                : null);
            const subject = note.subject ?? '';
            const tutor = tutorName(note);
            const when =
              note.start && note.end
                ? lessonTimeLabel(Date.parse(note.start), Date.parse(note.end), timeZone)
                : '';
            return (
              <li key={note.lessonId ?? note.id ?? index}>
                <p className="text-sm font-medium text-slate-900">
                  {subject && tutor ? t`${subject} with ${tutor}` : subject || tutor}
                  {when ? <span className="font-normal text-slate-600"> · {when}</span> : null}
                </p>
                {written ? <NotesView notes={written} className="mt-1" /> : null}
              </li>
            );
          })}
        </ul>
      )}
      <h3 className="mt-6 text-sm font-semibold uppercase tracking-wide text-slate-600">
        <Trans>Goals</Trans>
      </h3>
      <div className="mt-2">
        <GoalList goals={goals} empty={t`No goals yet. You, ${name} or their tutor can set one.`} />
        <NewGoalForm studentId={child.id} label={t`Add a goal for ${name}`} />
      </div>
    </CardSection>
  );
}
