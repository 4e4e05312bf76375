/**
 * /tutors/:id: a tutor's public profile, with the way back to the search that led here, and the
 * region to book a lesson. On a phone, where that region comes after the profile, the price and a
 * "Book a lesson" button that leads to it stand under the tutor's name, on the first screen.
 */

import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Suspense } from 'react';
import { Link, type LoaderFunctionArgs, useLoaderData, useLocation } from 'react-router';
import { formatUnits } from '../../../shared/amounts';
import { TRIAL_MINUTES } from '../../../shared/lessons/lesson-constants';
import { paths } from '../../../shared/routes';
import type { TutorPublicProfile } from '../../../shared/tutor-schemas';
import { Button, ButtonLink } from '../../components/button';
import { NotFound } from '../../components/not-found';
import { TutorAvatar, VerifiedBadge } from '../../components/tutor-avatar';
import { ApiError } from '../../lib/api';
import { translated, withTexts } from '../../lib/i18n';
import { useLessonPackages } from '../../lib/lesson-packages';
import { useMediaQuery } from '../../lib/media-query';
import { type PaymentsConfig, paymentsConfigInPage, usePaymentsConfig } from '../../lib/payments-config';
import { preloadable } from '../../lib/preloadable';
import { books } from '../../lib/roles';
import { monthLabel } from '../../lib/time-labels';
import { browserTimeZone, describeTimeZone } from '../../lib/time-zones';
import { authStore, useAuth } from '../auth';
import { listClasses, tutorClasses } from '../classes';
import { useFamilyChildren } from '../family';
import { BOOK_A_LESSON_ID, BookLesson } from './book-lesson';
import { namesList, trialPrice } from './labels';
import { RatingSummary } from './ratings';
import { fetchReviews, fetchTutor } from './tutor-api';
import { ReviewsSection, reviewForms } from './tutor-reviews';

// A tutor's group classes and lesson packages are shown only where there are some (packages only
// while students pay through Tutorlane): their code and texts come with the page's data then, so
// the page renders whole, and not at all for the many tutors without.
const TutorClasses = tutorClasses.part((module) => module.TutorClasses);
const packagesForSale = preloadable(() =>
  withTexts(import('./tutor-packages'), 'features/tutors/tutor-packages.tsx'),
);
const TutorPackages = packagesForSale.part((module) => module.TutorPackages);
const sellsPackages = (tutor: TutorPublicProfile, payments: PaymentsConfig) =>
  payments.on && tutor.booking.packages.length > 0;

export async function loader({ params, request }: LoaderFunctionArgs) {
  const id = params.id ?? '';
  try {
    const [tutor, reviews, classes] = await Promise.all([
      fetchTutor(id, request.signal).then(async (found) => {
        if (sellsPackages(found, paymentsConfigInPage())) await packagesForSale.load();
        return found;
      }),
      // The review forms come with the page where it shows one: to a student who may review, and
      // to the tutor, who may answer.
      fetchReviews(id, 1, request.signal).then(async (first) => {
        const auth = authStore.getState();
        if (first.you || (auth.status === 'signed-in' && auth.user.id === id)) await reviewForms.load();
        return first;
      }),
      // The page stands without its classes: a failure to list them hides the section.
      listClasses({ tutorId: id }, request.signal)
        .catch((error: unknown) => {
          if (error instanceof ApiError) return null;
          throw error;
        })
        .then(async (list) => {
          if (list?.classes.length) await tutorClasses.load();
          return list;
        }),
    ]);
    return { tutor, reviews, classes };
  } catch (caught) {
    if (caught instanceof ApiError && caught.status === 404) return null;
    throw caught;
  }
}

/**
 * "Message": a question before booking. Tutors write to students from their schedule instead; a
 * visitor who is not signed in is asked to, and comes back to the message.
 */
function MessageTutor({ tutorId, name }: { tutorId: string; name: string }) {
  const { t } = useLingui();
  const auth = useAuth();
  if (auth.status === 'signed-in' && auth.user.role === 'tutor') return null;
  return (
    <ButtonLink
      to={`${paths.messages}?to=${encodeURIComponent(tutorId)}`}
      variant="secondary"
      className="w-full"
      title={t`Write to ${name}`}
    >
      <Trans>Message</Trans>
    </ButtonLink>
  );
}

/** The hourly rate as the page shows it, in the school's currency: "$40 per hour". */
function HourlyRate({ rate, currency }: { rate: number; currency: string }) {
  const amount = formatUnits(rate, currency);
  return (
    <p className="text-3xl font-bold text-slate-900">
      <Trans>
        {amount}
        <span className="text-base font-medium text-slate-600"> per hour</span>
      </Trans>
    </p>
  );
}

/** Brings the booking region into view and its heading into focus, so the next Tab is inside it. */
function goToBooking() {
  const region = document.getElementById(BOOK_A_LESSON_ID);
  const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  region?.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
  region?.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
}

export function Component() {
  const { t } = useLingui();
  const data = useLoaderData<typeof loader>();
  const tutor = data?.tutor ?? null;
  const auth = useAuth();
  const payments = usePaymentsConfig();
  // The profile and the booking box side by side (Tailwind's lg), or one after the other.
  const twoColumns = useMediaQuery('(min-width: 1024px)');
  const verified = auth.status === 'signed-in' && auth.user.emailVerified;
  const student = verified && books(auth.user?.role);
  // The student's packages (a parent's: their children's): bought here, they pay for the lessons booked here.
  const packages = useLessonPackages(student && payments.on);
  // A parent books and buys for one of their children.
  const family = useFamilyChildren(verified && auth.user?.role === 'parent');
  const location = useLocation();
  const search = (location.state as { search?: string } | null)?.search ?? '';
  // The subject a search was for (the search's link says it), preselected for a booking.
  const query = new URLSearchParams(location.search);
  const searchedFor = query.get('subject');
  // A length and a time a link asked for ("Book again"): the booking box checks they are offered.
  const asked = { minutes: Number(query.get('minutes')) || null, start: query.get('start') };
  const back = (
    <Link
      to={`${paths.tutors}${search}`}
      className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline"
    >
      <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
        ←
      </span>{' '}
      <Trans>Back to search</Trans>
    </Link>
  );

  if (!tutor) {
    return (
      <NotFound title={t`Tutor not found`} text={t`This profile does not exist or is not public any more.`}>
        <ButtonLink to={`${paths.tutors}${search}`}>
          <Trans>Find another tutor</Trans>
        </ButtonLink>
      </NotFound>
    );
  }

  const name = tutor.displayName;
  const subjects = namesList(tutor.subjects);
  const years = tutor.yearsExperience;
  const trial = tutor.trial;
  const minutes = TRIAL_MINUTES;
  const price = trial ? trialPrice(trial.priceCents, payments.currency) : '';
  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:py-12">
      <title>{t`${name}, ${subjects} tutor · Tutorlane`}</title>
      {back}
      <div className="mt-6 grid gap-8 lg:grid-cols-5">
        <div className="lg:col-span-3">
          <div className="flex flex-col gap-5 sm:flex-row sm:items-center">
            <TutorAvatar
              id={tutor.id}
              name={tutor.displayName}
              photoVersion={tutor.photoVersion}
              size={112}
            />
            <div>
              <h1 className="text-3xl font-bold tracking-tight text-slate-900">{tutor.displayName}</h1>
              <div className="mt-2 flex flex-wrap items-center gap-2">
                {tutor.verified ? <VerifiedBadge /> : null}
                <RatingSummary rating={tutor.rating} />
                {years !== null ? (
                  <span className="text-sm text-slate-700">
                    <Plural value={years} one="# year of experience" other="# years of experience" />
                  </span>
                ) : null}
              </div>
              <p dir="auto" className="mt-2 text-lg text-slate-800">
                {tutor.headline}
              </p>
            </div>
          </div>
          {/* In one column the booking box comes after the profile: the price and the way to it are here. */}
          {twoColumns ? null : (
            <div className="mt-5 flex flex-wrap items-center justify-between gap-3">
              <HourlyRate rate={tutor.hourlyRate} currency={payments.currency} />
              <Button size="lg" onClick={goToBooking}>
                <Trans>Book a lesson</Trans>
              </Button>
            </div>
          )}

          <section aria-labelledby="about-heading" className="mt-8">
            <h2 id="about-heading" className="text-xl font-semibold text-slate-900">
              <Trans>About me</Trans>
            </h2>
            <p dir="auto" className="mt-3 whitespace-pre-line text-slate-800">
              {tutor.about}
            </p>
          </section>

          <section aria-labelledby="teaches-heading" className="mt-8">
            <h2 id="teaches-heading" className="text-xl font-semibold text-slate-900">
              <Trans>Teaches</Trans>
            </h2>
            <ul className="mt-3 flex flex-wrap gap-2">
              {tutor.subjects.map((subject) => (
                <li
                  key={subject}
                  className="rounded-full bg-brand-50 px-3 py-1 text-sm font-medium text-brand-800"
                >
                  {translated(subject)}
                </li>
              ))}
            </ul>
          </section>

          <section aria-labelledby="details-heading" className="mt-8">
            <h2 id="details-heading" className="text-xl font-semibold text-slate-900">
              <Trans>Details</Trans>
            </h2>
            <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-2">
              <div>
                <dt className="text-slate-600">
                  <Trans>Speaks</Trans>
                </dt>
                <dd className="font-medium text-slate-900">
                  {tutor.languages.length > 0 ? namesList(tutor.languages) : <Trans>Not stated</Trans>}
                </dd>
              </div>
              <div>
                <dt className="text-slate-600">
                  <Trans>Time zone</Trans>
                </dt>
                <dd className="font-medium text-slate-900">
                  {tutor.timeZone ? describeTimeZone(tutor.timeZone) : <Trans>Not stated</Trans>}
                </dd>
              </div>
              <div>
                <dt className="text-slate-600">
                  <Trans>On Tutorlane since</Trans>
                </dt>
                <dd className="font-medium text-slate-900">
                  {monthLabel(Date.parse(tutor.memberSince), browserTimeZone())}
                </dd>
              </div>
            </dl>
          </section>
          {data?.classes?.classes.length ? (
            <Suspense fallback={null}>
              <TutorClasses list={data.classes} />
            </Suspense>
          ) : null}
          {data ? (
            <ReviewsSection tutorId={tutor.id} tutorName={tutor.displayName} first={data.reviews} />
          ) : null}
        </div>

        <aside className="space-y-4 lg:col-span-2">
          {twoColumns ? <HourlyRate rate={tutor.hourlyRate} currency={payments.currency} /> : null}
          {trial ? (
            <p className="rounded-lg bg-emerald-50 px-4 py-2 text-sm font-medium text-emerald-900">
              <Trans>
                Trial lesson: {minutes} minutes · {price}
              </Trans>
            </p>
          ) : null}
          <MessageTutor tutorId={tutor.id} name={tutor.displayName} />
          {/* Before the packages: their note after a purchase sends the student up to it. */}
          <BookLesson
            key={`${tutor.id}|${location.search}`}
            tutor={tutor}
            searchedFor={searchedFor}
            asked={asked}
            packages={packages.packages}
            onPackageUsed={packages.reload}
            family={family}
          />
          {sellsPackages(tutor, payments) ? (
            <Suspense fallback={null}>
              <TutorPackages tutor={tutor} onBought={packages.reload} family={family} />
            </Suspense>
          ) : null}
        </aside>
      </div>
    </div>
  );
}
