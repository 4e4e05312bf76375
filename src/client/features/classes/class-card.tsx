/** A class in a list (/classes, a tutor's page): what it is, who teaches it, when it meets next, its seats and price. */
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { classPath } from '../../../shared/routes';
import { translated } from '../../lib/i18n';
import { instantLabel } from '../../lib/time-labels';
import type { ClassView } from './class-api';
import { nextSession, PricePerSession, SeatsLeft } from './class-parts';

export function ClassCard({
  view,
  timeZone,
  showTutor = true,
  level = 2,
}: {
  view: ClassView;
  timeZone: string;
  /** Off on the tutor's own page, which names them already. */
  showTutor?: boolean;
  /** The heading's level: under the page's title, or under a section's. */
  level?: 2 | 3;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  const { t } = useLingui();
  const next = nextSession(view);
  const count = view.sessions.filter((session) => session.status !== 'cancelled').length;
  const tutor = view.tutor.displayName;
  const minutes = view.minutes;
  const subject = translated(view.subject);
  const language = translated(view.language);
  const when = next ? instantLabel(Date.parse(next.start), timeZone) : '';
  return (
    <article className="relative flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition-shadow focus-within:ring-2 focus-within:ring-brand-600 hover:shadow-md">
      <Heading className="text-lg font-semibold text-slate-900">
        <Link to={classPath(view.id)} className="after:absolute after:inset-0 focus-visible:outline-none">
          <bdi>{view.title}</bdi>
        </Link>
      </Heading>
      {showTutor ? (
        <p className="mt-1 text-sm text-slate-700">
          <Trans>
            with <bdi>{tutor}</bdi>
          </Trans>
        </p>
      ) : null}
      <ul className="mt-3 flex flex-wrap gap-1.5" aria-label={t`Subject and language`}>
        <li className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-medium text-brand-800">
          {subject}
        </li>
        <li className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-800">
          <Trans>In {language}</Trans>
        </li>
      </ul>
      <dl className="mt-4 space-y-1 text-sm">
        <div className="flex flex-wrap gap-x-1">
          <dt className="text-slate-600">
            <Trans>Next session:</Trans>
          </dt>
          <dd className="font-medium text-slate-900">
            {next ? <bdi>{when}</bdi> : <Trans>None ahead</Trans>}
          </dd>
        </div>
        <div className="flex flex-wrap gap-x-1">
          <dt className="sr-only">
            <Trans>Sessions</Trans>
          </dt>
          <dd className="text-slate-700">
            <Plural value={count} one="# session" other="# sessions" />
            {' · '}
            <Plural value={minutes} one="# minute each" other="# minutes each" />
          </dd>
        </div>
      </dl>
      <div className="mt-auto flex flex-wrap items-end justify-between gap-2 pt-4">
        <p className="text-lg font-bold text-slate-900">
          <PricePerSession price={view.price} />
        </p>
        <p className="text-sm font-semibold">
          <SeatsLeft view={view} />
        </p>
      </div>
    </article>
  );
}
