import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { formatUnits } from '../../../shared/amounts';
import { tutorPath } from '../../../shared/routes';
import { TutorAvatar, VerifiedBadge } from '../../components/tutor-avatar';
import { translated } from '../../lib/i18n';
import { usePaymentsConfig } from '../../lib/payments-config';
import { usePublicConfig } from '../../lib/public-config';
import { namesList, trialPrice } from './labels';
import { RatingSummary } from './ratings';
import { searchedSubject } from './searched-subject';
import type { TutorCardData } from './tutor-api';

export function TutorCard({ tutor, search }: { tutor: TutorCardData; search: string }) {
  // The subject searched for goes with the link (not only the history state), so it survives a
  // page opened in a new tab: the tutor's page preselects it for the booking.
  const { t } = useLingui();
  const catalog = usePublicConfig()?.subjects ?? [];
  const { currency } = usePaymentsConfig();
  const subject = searchedSubject(tutor.subjects, new URLSearchParams(search), catalog);
  const to = subject ? `${tutorPath(tutor.id)}?subject=${encodeURIComponent(subject)}` : tutorPath(tutor.id);
  const price = tutor.trial ? trialPrice(tutor.trial.priceCents, currency) : '';
  const languages = namesList(tutor.languages);
  const years = tutor.yearsExperience;
  return (
    <article className="relative flex h-full flex-col rounded-2xl focus-within:ring-2 focus-within:ring-brand-600 border border-slate-200 bg-white p-5 shadow-sm transition-shadow hover:shadow-md">
      <div className="flex items-start gap-4">
        <TutorAvatar id={tutor.id} name={tutor.displayName} photoVersion={tutor.photoVersion} size={64} />
        <div className="min-w-0 flex-1">
          <h2 className="text-lg font-semibold text-slate-900">
            <Link
              to={to}
              state={{ search }}
              className="after:absolute after:inset-0 focus-visible:outline-none"
            >
              {tutor.displayName}
            </Link>
          </h2>
          <div className="mt-1 flex flex-wrap items-center gap-2">
            {tutor.verified ? <VerifiedBadge /> : null}
            <RatingSummary rating={tutor.rating} />
          </div>
        </div>
        <p className="shrink-0 text-end">
          <span className="block text-xl font-bold text-slate-900">
            {formatUnits(tutor.hourlyRate, currency)}
          </span>
          <span className="block text-xs text-slate-600">
            <Trans>per hour</Trans>
          </span>
          {tutor.trial ? (
            <span className="mt-1 block rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-900">
              {tutor.trial.priceCents === 0 ? <Trans>Free trial</Trans> : <Trans>Trial {price}</Trans>}
            </span>
          ) : null}
        </p>
      </div>
      <p dir="auto" className="mt-3 line-clamp-2 text-sm text-slate-700">
        {tutor.headline}
      </p>
      <ul className="mt-4 flex flex-wrap gap-1.5" aria-label={t`Subjects`}>
        {tutor.subjects.map((subject) => (
          <li
            key={subject}
            className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-medium text-brand-800"
          >
            {translated(subject)}
          </li>
        ))}
      </ul>
      <p className="mt-auto pt-4 text-xs text-slate-600">
        <Trans>Speaks {languages}</Trans>
        {years !== null ? (
          <>
            {' · '}
            <Plural value={years} one="# year of experience" other="# years of experience" />
          </>
        ) : null}
      </p>
    </article>
  );
}
