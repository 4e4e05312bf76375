/**
 * /classes/:id: a group class's page: what it is and who teaches it, its sessions in the visitor's
 * zone (each with the way into its room while that is open, for its tutor and its students), its
 * seats, waitlist, minimum and price, where it stands, and what the visitor can do about it.
 */
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Link, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { formatAmount } from '../../../shared/amounts';
import { CLASS_DECISION_HOURS } from '../../../shared/classes/class-constants';
import { roomState } from '../../../shared/lessons/room-rules';
import { classRoomPath, paths, tutorPath } from '../../../shared/routes';
import { ButtonLink } from '../../components/button';
import { NotFound } from '../../components/not-found';
import { ZoneNote } from '../../components/zone-note';
import { ApiError } from '../../lib/api';
import { translated } from '../../lib/i18n';
import { lessonTimeLabel } from '../../lib/time-labels';
import { browserTimeZone } from '../../lib/time-zones';
import { useAuth } from '../auth';
import { ClassActions } from './class-actions';
import { type ClassSession, type ClassView, fetchClass } from './class-api';
import { ClassStatusBadge, PricePerSession, SeatsLeft, SessionStatus, sessionsAhead } from './class-parts';

export async function loader({ params, request }: LoaderFunctionArgs) {
  try {
    return { view: await fetchClass(params.id ?? '', request.signal) };
  } catch (caught) {
    if (caught instanceof ApiError && caught.status === 404) return { view: null };
    throw caught;
  }
}

/** Its room is open now (as a lesson's: from 10 minutes before until it ends) and it has not ended. */
function roomOpen(session: ClassSession, now: number) {
  const times = { start: Date.parse(session.start), end: Date.parse(session.end) };
  return session.status === 'scheduled' && now < times.end && roomState(times, now) === 'open';
}

/** Where the class stands, in a sentence. */
function StandingNote({ view }: { view: ClassView }) {
  const min = view.minStudents;
  const hours = CLASS_DECISION_HOURS;
  const reason = view.cancelReason ?? '';
  switch (view.status) {
    case 'scheduled':
      return (
        <Plural
          value={min}
          one={`It goes ahead with at least # student: that is decided ${hours} hours before the first session.`}
          other={`It goes ahead with at least # students: that is decided ${hours} hours before the first session.`}
        />
      );
    case 'held':
      return <Trans>It is going ahead.</Trans>;
    case 'cancelled':
      return reason ? (
        <Trans>
          It was cancelled: <q dir="auto">{reason}</q>
        </Trans>
      ) : (
        <Trans>It was cancelled.</Trans>
      );
    case 'ended':
      return <Trans>Every session has taken place.</Trans>;
  }
}

function Sessions({ view, timeZone, mayJoin }: { view: ClassView; timeZone: string; mayJoin: boolean }) {
  const now = Date.now();
  return (
    <ol className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
      {view.sessions.map((session, index) => {
        const number = index + 1;
        return (
          <li key={session.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
            <div>
              <p className="text-sm font-medium text-slate-900">
                <span className="text-slate-600">
                  <Trans>Session {number}</Trans>
                  {' · '}
                </span>
                <bdi>{lessonTimeLabel(Date.parse(session.start), Date.parse(session.end), timeZone)}</bdi>
              </p>
              <p className="mt-1">
                <SessionStatus status={session.status} />
              </p>
            </div>
            {mayJoin && roomOpen(session, now) ? (
              <ButtonLink to={classRoomPath(view.id, session.id)}>
                <Trans>Join the room</Trans>
              </ButtonLink>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

export function Component() {
  const { t } = useLingui();
  const { view } = useLoaderData<typeof loader>();
  const auth = useAuth();
  const timeZone = auth.user?.timeZone ?? browserTimeZone();
  if (!view) {
    return (
      <NotFound title={t`Class not found`} text={t`This class does not exist.`}>
        <ButtonLink to={paths.classes}>
          <Trans>See the classes</Trans>
        </ButtonLink>
      </NotFound>
    );
  }
  const title = view.title;
  const tutorName = view.tutor.displayName;
  const mayJoin = auth.user?.id === view.tutor.id || view.you?.status === 'enrolled';
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:py-12">
      <title>{t`${title} · Group class · Tutorlane`}</title>
      <Link
        to={paths.classes}
        className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline"
      >
        <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
          ←
        </span>{' '}
        <Trans>All classes</Trans>
      </Link>
      {/* One column: what it is, then its price and the way to enrol, then its description and
          sessions; two: the price and the actions beside both. */}
      <div className="mt-6 grid gap-8 lg:grid-cols-5">
        <div className="lg:col-span-3">
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <ClassStatusBadge status={view.status} />
            <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-medium text-brand-800">
              {translated(view.subject)}
            </span>
          </p>
          <h1 dir="auto" className="mt-3 text-3xl font-bold tracking-tight text-slate-900">
            {view.title}
          </h1>
          <p className="mt-2 text-lg text-slate-800">
            <Trans>
              with{' '}
              <Link to={tutorPath(view.tutor.id)} className="font-semibold text-brand-700 underline">
                <bdi>{tutorName}</bdi>
              </Link>
            </Trans>
          </p>
          <p className="mt-3 text-slate-700">
            <StandingNote view={view} />
          </p>
        </div>
        <aside className="space-y-4 lg:col-span-2 lg:col-start-4 lg:row-span-2 lg:row-start-1">
          <ClassFacts view={view} />
          <ClassActions view={view} />
        </aside>
        <div className="space-y-8 lg:col-span-3">
          {view.description ? (
            <section aria-labelledby="class-about">
              <h2 id="class-about" className="text-xl font-semibold text-slate-900">
                <Trans>About this class</Trans>
              </h2>
              <p dir="auto" className="mt-3 whitespace-pre-line text-slate-800">
                {view.description}
              </p>
            </section>
          ) : null}
          <section aria-labelledby="class-sessions">
            <h2 id="class-sessions" className="text-xl font-semibold text-slate-900">
              <Trans>Sessions</Trans>
            </h2>
            <ZoneNote timeZone={timeZone} className="mt-1" />
            <Sessions view={view} timeZone={timeZone} mayJoin={mayJoin} />
          </section>
        </div>
      </div>
    </div>
  );
}

/** The price and the numbers: seats, waitlist, minimum, length, and what the sessions ahead cost. */
function ClassFacts({ view }: { view: ClassView }) {
  const { t } = useLingui();
  const ahead = sessionsAhead(view).length;
  const total = formatAmount(view.price.amountCents * ahead, view.price.currency);
  const waiting = view.waitlist;
  const min = view.minStudents;
  const minutes = view.minutes;
  return (
    <section
      aria-labelledby="class-details"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id="class-details" className="text-lg font-semibold text-slate-900">
        <Trans>Details</Trans>
      </h2>
      <p className="mt-2 text-2xl font-bold text-slate-900">
        <PricePerSession price={view.price} />
      </p>
      <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
        <Detail term={t`Seats`}>
          <SeatsLeft view={view} />
        </Detail>
        <Detail term={t`Waitlist`}>
          <Plural value={waiting} _0="Nobody waiting" one="# waiting" other="# waiting" />
        </Detail>
        <Detail term={t`Minimum to run`}>
          <Plural value={min} one="# student" other="# students" />
        </Detail>
        <Detail term={t`Language`}>{translated(view.language)}</Detail>
        <Detail term={t`Each session`}>
          <Plural value={minutes} one="# minute" other="# minutes" />
        </Detail>
        {view.price.amountCents > 0 && ahead > 0 ? (
          <Detail term={t`Sessions ahead`}>
            <Plural value={ahead} one={`# session: ${total}`} other={`# sessions: ${total}`} />
          </Detail>
        ) : null}
      </dl>
    </section>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-slate-600">{term}</dt>
      <dd className="font-medium text-slate-900">{children}</dd>
    </div>
  );
}
