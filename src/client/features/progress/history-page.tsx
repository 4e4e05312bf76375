/**
 * The lessons between the signed-in user and one other person, newest first, with their notes:
 * - /students/:id is a tutor's page for one student: the lessons (writing notes on those that
 *   took place) and the student's goals, whose milestones the tutor ticks and adds to;
 * - /tutors/:id/lessons is a student's history with one tutor: the lessons and the tutor's notes.
 * Someone with no lessons with the user does not exist here (404).
 */
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { data, Link, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { tookPlace } from '../../../shared/lessons/lesson-states';
import { paths, tutorPath } from '../../../shared/routes';
import { CardSection } from '../../components/card';
import { GoalList } from '../../components/goals';
import { NotesEditor, NotesView } from '../../components/lesson-notes';
import { StatusBadge } from '../../components/lesson-parts';
import { ZoneNote } from '../../components/zone-note';
import { ApiError, api, request } from '../../lib/api';
import { lessonTimeLabel } from '../../lib/time-labels';
import { browserTimeZone } from '../../lib/time-zones';

export async function loader({ params, request: page }: LoaderFunctionArgs) {
  try {
    return await request(
      api.history[':id'].$get(
        { param: { id: params.id ?? '' }, query: { timeZone: browserTimeZone() } },
        { init: { signal: page.signal } },
      ),
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw data('Not Found', { status: 404 });
    throw error;
  }
}

export function Component() {
  const { t } = useLingui();
  const history = useLoaderData<typeof loader>();
  const { person, timeZone } = history;
  const asTutor = person.role === 'student';
  const past = history.lessons.filter((lesson) => tookPlace(lesson.status));
  const name = person.displayName;
  const together = past.length;
  const title = asTutor ? name : t`Lessons with ${name}`;
  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:py-12">
      <title>{t`${title} · Tutorlane`}</title>
      <header>
        <Link
          to={asTutor ? paths.dashboard : paths.schedule}
          className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline"
        >
          <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
            ←
          </span>{' '}
          {asTutor ? t`Back to your dashboard` : t`Back to your schedule`}
        </Link>
        <p className="mt-4 text-sm font-semibold uppercase tracking-wide text-brand-700">
          {asTutor ? t`Your student` : t`Your tutor`}
        </p>
        <h1 className="mt-1 wrap-break-word text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
        <p className="mt-2 text-slate-700">
          {t`${plural(together, { one: '# lesson together so far.', other: '# lessons together so far.' })}`}{' '}
          <Link
            to={`${paths.messages}?to=${encodeURIComponent(person.id)}`}
            state={{ name: person.displayName }}
            className="font-semibold text-brand-700 underline"
          >
            <Trans>Message {name}</Trans>
          </Link>
          {asTutor ? null : (
            <>
              {' · '}
              <Link to={tutorPath(person.id)} className="font-semibold text-brand-700 underline">
                <Trans>{name}’s profile</Trans>
              </Link>
            </>
          )}
        </p>
        <ZoneNote timeZone={timeZone} className="mt-1" />
      </header>

      <div className="mt-8 space-y-6">
        {history.goals ? (
          <CardSection title={t`Learning goals`}>
            <GoalList goals={history.goals} empty={t`${name} has not set any goals yet.`} />
          </CardSection>
        ) : null}
        <CardSection title={t`Lessons`}>
          <ul className="divide-y divide-slate-100">
            {history.lessons.map((lesson) => {
              const when = lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), timeZone);
              const minutes = lesson.minutes;
              return (
                <li key={lesson.id} className="py-4 first:pt-0 last:pb-0">
                  <div className="flex flex-wrap items-center gap-2">
                    <p className="font-semibold text-slate-900">{lesson.subject}</p>
                    <StatusBadge status={lesson.status} />
                  </div>
                  <p className="mt-1 text-sm text-slate-700">
                    {when} · <Trans>{minutes} min</Trans>
                  </p>
                  {asTutor && tookPlace(lesson.status) ? (
                    <NotesEditor
                      lessonId={lesson.id}
                      notes={lesson.notes}
                      lessonName={`${lesson.subject}, ${when}`}
                    />
                  ) : lesson.notes ? (
                    <NotesView notes={lesson.notes} className="mt-2" />
                  ) : tookPlace(lesson.status) ? (
                    <p className="mt-1 text-sm text-slate-600">
                      <Trans>No notes on this lesson yet.</Trans>
                    </p>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </CardSection>
      </div>
    </div>
  );
}
