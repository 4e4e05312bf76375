/**
 * /: what Tutorlane is, with the school's own figures (its site settings, else its real counts once
 * they mean something), a real tutor of this site in the hero when one is listed with a photo, the
 * features as they are (what most tutors charge, once enough of them are listed), and the subjects.
 */
import { msg, plural, t } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import type { InferResponseType } from 'hono/client';
import { Suspense, use } from 'react';
import { Link, useLoaderData, useLocation } from 'react-router';
import { accountDataMessages } from '../../../shared/account-data';
import { HOME_FIGURES } from '../../../shared/constants';
import { formatLocale } from '../../../shared/format-locale';
import { paths, tutorPath } from '../../../shared/routes';
import { ButtonLink } from '../../components/button';
import { StatusMessage } from '../../components/messages';
import { api, request } from '../../lib/api';
import { translated } from '../../lib/i18n';
import { readPageData } from '../../lib/page-data';
import type { PublicConfig } from '../../lib/public-config';
import { rateLabel } from '../../lib/rate-label';

type FeaturedTutor = NonNullable<InferResponseType<typeof api.tutors.featured.$get, 200>['tutor']>;

/**
 * The figures and the typical rate come with the page (or, from a server still starting, from GET /api/config; asked
 * here rather than through lib/public-config, a module other pages share, which would bring their
 * shared chunk to this page). The featured tutor is asked for without waiting: the page draws at
 * once, the tutor after.
 */
export async function loader() {
  const featured = request(api.tutors.featured.$get()).then(
    (answer) => answer.tutor,
    // Nobody to show is what the hero shows when it cannot ask, too.
    () => null,
  );
  // Without them the page still stands: no figures, and the rates unsaid.
  const config =
    readPageData<PublicConfig>('tl-config') ?? (await request(api.config.$get()).catch(() => null));
  const rate = config?.typicalHourlyRate
    ? rateLabel(config.typicalHourlyRate, config.payments.currency)
    : null;
  return { figures: config?.homeFigures ?? null, rate, featured };
}

/** The features; `rate` is what most of this school's tutors charge (unsaid until enough are listed). */
const features = (rate: string | null) => [
  {
    title: t`One-on-one sessions`,
    text: t`Lessons built around you: your pace, your questions, your goals. Message your tutor before you book and between lessons.`,
    icon: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 8a7 7 0 0 1 14 0',
  },
  {
    title: t`Flexible scheduling`,
    text: t`Pick a free time from your tutor’s calendar, shown in your own time zone. Cancel or move a lesson for free until your tutor’s cancellation window, 24 hours before unless their page says otherwise.`,
    icon: 'M7 3v3m10-3v3M4 9h16M5 5h14a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1z',
  },
  {
    title: t`Video sessions`,
    text: t`Meet in the lesson room, right in your browser: video and sound, screen sharing, and a chat kept with the lesson. Nothing to install.`,
    icon: 'M15 10l5-3v10l-5-3M4 7h11v10H4z',
  },
  {
    title: t`Progress tracking`,
    text: t`Your tutor writes notes after each lesson. Set goals with milestones, tick them off together, and earn achievements as you go.`,
    icon: 'M4 19h16M7 15v-4m5 4V7m5 8v-6',
  },
  {
    title: t`Verified tutors`,
    text: t`Only tutors our team has checked carry the Verified tutor badge. Every tutor confirms their email, and students review their lessons for everyone to read.`,
    icon: 'M12 3l7 3v5c0 4.5-3 8.5-7 10-4-1.5-7-5.5-7-10V6l7-3zm-3 9l2 2 4-4',
  },
  {
    title: t`Affordable rates`,
    text: rate
      ? t`Tutors set their own rates: most charge ${rate}, with no subscription.`
      : t`Tutors set their own rates, shown on every profile, with no subscription.`,
    icon: 'M12 3v18m4-14H10a3 3 0 0 0 0 6h4a3 3 0 0 1 0 6H7',
  },
];

const categories = [
  {
    name: 'Math & Science',
    label: msg`Math & Science`,
    examples: msg`Algebra, calculus, physics, chemistry`,
    color: 'bg-sky-50 text-sky-900 border-sky-200',
  },
  {
    name: 'Languages',
    label: msg`Languages`,
    examples: msg`English, Spanish, French, Mandarin`,
    color: 'bg-amber-50 text-amber-900 border-amber-200',
  },
  {
    name: 'Programming',
    label: msg`Programming`,
    examples: msg`Python, JavaScript, web development`,
    color: 'bg-emerald-50 text-emerald-900 border-emerald-200',
  },
  {
    name: 'Arts & Design',
    label: msg`Arts & Design`,
    examples: msg`Drawing, music theory, graphic design`,
    color: 'bg-rose-50 text-rose-900 border-rose-200',
  },
];

/** As many columns as figures shown, so one or two stand centred rather than in a column of three. */
const FIGURE_COLUMNS: Record<number, string> = { 1: 'grid-cols-1', 2: 'grid-cols-2', 3: 'grid-cols-3' };

function Icon({ path }: { path: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className="size-6"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={path} />
    </svg>
  );
}

const photoUrl = (tutor: FeaturedTutor) =>
  `/api/tutors/${encodeURIComponent(tutor.id)}/photo?v=${encodeURIComponent(tutor.photoVersion)}`;

/** The hero card's top row is always this tall, so nothing below moves when the tutor arrives. */
const heroRow = 'relative flex h-16 items-center gap-4';

/** A real tutor of this site: photo, name, first subject and rating, leading to their page. */
function FeaturedTutorRow({ tutor }: { tutor: FeaturedTutor }) {
  const { t } = useLingui();
  const { average, count } = tutor.rating;
  const score =
    average === null
      ? ''
      : new Intl.NumberFormat(formatLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
          average,
        );
  const reviews = new Intl.NumberFormat(formatLocale()).format(count);
  const rating =
    average === null
      ? t`New on Tutorlane`
      : t`${plural(count, { one: `${score} ★ (${reviews} review)`, other: `${score} ★ (${reviews} reviews)` })}`;
  const subject = translated(tutor.subject);
  return (
    <div className={`${heroRow} rounded-2xl focus-within:ring-2 focus-within:ring-brand-600`}>
      <img
        src={photoUrl(tutor)}
        alt=""
        width={64}
        height={64}
        loading="lazy"
        decoding="async"
        className="size-16 shrink-0 rounded-full bg-slate-100 object-cover"
      />
      <div className="min-w-0">
        <p className="text-xs font-semibold uppercase tracking-wide text-brand-700">
          <Trans>Featured tutor</Trans>
        </p>
        <p className="truncate font-semibold text-slate-900">
          <Link
            to={tutorPath(tutor.id)}
            className="after:absolute after:inset-0 hover:underline focus-visible:outline-none"
          >
            {tutor.displayName}
          </Link>
        </p>
        <p className="truncate text-sm text-slate-700">
          {subject} · <span aria-hidden="true">{rating}</span>
          <span className="sr-only">
            {average === null ? (
              <Trans>new on Tutorlane</Trans>
            ) : (
              <Plural
                value={count}
                one={`rated ${score} out of 5 from ${reviews} review`}
                other={`rated ${score} out of 5 from ${reviews} reviews`}
              />
            )}
          </span>
        </p>
      </div>
    </div>
  );
}

/** No listed tutor with a photo: the room where lessons happen, and nobody invented. */
function LessonRoomRow() {
  return (
    <div className={heroRow}>
      <div className="flex size-16 shrink-0 items-center justify-center rounded-full bg-brand-100 text-brand-800">
        <Icon path="M15 10l5-3v10l-5-3M4 7h11v10H4z" />
      </div>
      <div>
        <p className="font-semibold text-slate-900">
          <Trans>Your lesson room</Trans>
        </p>
        <p className="text-sm text-slate-700">
          <Trans>Video, screen sharing and chat, in your browser</Trans>
        </p>
      </div>
    </div>
  );
}

/** While the featured tutor is asked for: the row's shape, without a word. */
function WaitingRow() {
  return (
    <div aria-hidden="true" className={`${heroRow} motion-safe:animate-pulse`}>
      <div className="size-16 shrink-0 rounded-full bg-slate-100" />
      <div className="flex-1 space-y-2">
        <div className="h-3 w-1/3 rounded bg-slate-100" />
        <div className="h-4 w-2/3 rounded bg-slate-100" />
      </div>
    </div>
  );
}

/** The featured tutor once the server has answered (React's `use`: the loader started the request). */
function HeroRow({ featured }: { featured: Promise<FeaturedTutor | null> }) {
  const tutor = use(featured);
  return tutor ? <FeaturedTutorRow tutor={tutor} /> : <LessonRoomRow />;
}

export function Component() {
  const { t } = useLingui();
  const { figures, rate, featured } = useLoaderData<typeof loader>();
  // Only the figures there are: an admin's, or the real counts that reached the minimum.
  const shown = HOME_FIGURES.flatMap(({ key, label }) => {
    const figure = figures?.[key];
    return figure ? [{ key, label, figure }] : [];
  });
  // Set by /profile when the visitor has just deleted their account.
  const accountDeleted = (useLocation().state as { accountDeleted?: boolean } | null)?.accountDeleted;
  return (
    <>
      <title>{t`Tutorlane: one-on-one tutoring with verified tutors`}</title>
      {accountDeleted ? (
        <div className="mx-auto max-w-6xl px-4 pt-6">
          <StatusMessage>{translated(accountDataMessages.deleted)}</StatusMessage>
        </div>
      ) : null}
      <section className="bg-gradient-to-b from-brand-50 to-slate-50">
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:py-24 lg:grid-cols-2">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">
              <Trans>Tutoring that fits your life</Trans>
            </p>
            <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
              <Trans>Learn anything with a tutor who gets you</Trans>
            </h1>
            <p className="mt-5 text-lg text-slate-700">
              <Trans>
                Find a tutor for math, science, languages, programming or the arts, book one-on-one lessons
                when they suit you, and meet in a video lesson room right in your browser. Message your tutor
                and follow your progress, goal by goal.
              </Trans>
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <ButtonLink to={paths.signup} size="lg">
                <Trans>Get Started Free</Trans>
              </ButtonLink>
              {/* Named "Learn More" (the product's contract); the hidden words tell crawlers where it leads. */}
              <ButtonLink to={paths.contact} size="lg" variant="secondary" aria-label={t`Learn More`}>
                <Trans>
                  Learn More<span className="sr-only"> about Tutorlane</span>
                </Trans>
              </ButtonLink>
            </div>
          </div>
          <div className="hidden lg:block">
            <div className="relative mx-auto max-w-md rounded-3xl border border-slate-200 bg-white p-6 shadow-xl">
              <Suspense fallback={<WaitingRow />}>
                <HeroRow featured={featured} />
              </Suspense>
              {/* An illustration of a lesson: the shared board and a goal's milestones. */}
              <div aria-hidden="true">
                <div className="mt-5 h-40 rounded-2xl bg-gradient-to-br from-brand-600 to-brand-900 p-4 text-white">
                  <p dir="ltr" className="font-mono text-sm opacity-90">
                    d/dx (x² + 3x) = 2x + 3
                  </p>
                  <p dir="ltr" className="mt-3 font-mono text-sm opacity-90">
                    ∫ 2x dx = x² + C
                  </p>
                </div>
                <div className="mt-5 space-y-2">
                  <div className="h-2 w-full rounded-full bg-slate-100">
                    <div className="h-2 w-2/3 rounded-full bg-brand-600" />
                  </div>
                  <p className="text-sm text-slate-600">
                    <Trans>Goal: 4 of 6 milestones reached</Trans>
                  </p>
                </div>
              </div>
            </div>
          </div>
        </div>
      </section>

      {shown.length > 0 ? (
        <section aria-label={t`Tutorlane in numbers`} className="border-y border-slate-200 bg-white">
          <dl
            className={`mx-auto grid max-w-6xl gap-4 px-4 py-10 text-center ${FIGURE_COLUMNS[shown.length] ?? 'grid-cols-3'}`}
          >
            {shown.map(({ key, label, figure }) => (
              <div key={key} className="flex min-w-0 flex-col-reverse">
                <dt className="mt-1 text-sm font-medium text-slate-600">{translated(label)}</dt>
                <dd className="break-words text-xl font-extrabold text-brand-700 sm:text-3xl">{figure}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}

      <section aria-labelledby="features-heading" className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
        <h2 id="features-heading" className="text-center text-3xl font-bold tracking-tight text-slate-900">
          <Trans>Why students choose Tutorlane</Trans>
        </h2>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {features(rate).map((feature) => (
            <li key={feature.title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <div className="flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                <Icon path={feature.icon} />
              </div>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{feature.title}</h3>
              <p className="mt-2 text-slate-700">{feature.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="subjects-heading" className="bg-white py-16 sm:py-20">
        <div className="mx-auto max-w-6xl px-4">
          <h2 id="subjects-heading" className="text-center text-3xl font-bold tracking-tight text-slate-900">
            <Trans>Subjects for every goal</Trans>
          </h2>
          <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {categories.map((category) => (
              <li
                key={category.name}
                className={`relative rounded-2xl border p-6 focus-within:ring-2 focus-within:ring-brand-600 ${category.color}`}
              >
                <h3 className="text-lg font-semibold">
                  <Link
                    to={`${paths.tutors}?category=${encodeURIComponent(category.name)}`}
                    className="after:absolute after:inset-0 focus-visible:outline-none"
                  >
                    {t(category.label)}
                  </Link>
                </h3>
                <p className="mt-2 text-sm">{t(category.examples)}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="cta-heading" className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
        <div className="rounded-3xl bg-brand-800 px-6 py-12 text-center text-white sm:px-12">
          <h2 id="cta-heading" className="text-3xl font-bold tracking-tight">
            <Trans>Ready to start learning?</Trans>
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-brand-100">
            <Trans>Create your free account in a minute, as a student or as a tutor.</Trans>
          </p>
          {/* The global brand-600 focus outline is ~1.5:1 on this dark panel; white is ~10:1. */}
          <ButtonLink
            to={paths.signup}
            size="lg"
            variant="secondary"
            className="mt-8 focus-visible:outline-white"
          >
            <Trans>Create your free account</Trans>
          </ButtonLink>
        </div>
      </section>
    </>
  );
}
