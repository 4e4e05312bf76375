import { Link } from 'react-router';
import { TYPICAL_PRICE_RANGE } from '../../../shared/constants';
import { paths } from '../../../shared/routes';
import { ButtonLink } from '../../components/button';

const stats = [
  { value: '10,000+', label: 'Students helped' },
  { value: '500+', label: 'Expert tutors' },
  { value: '50,000+', label: 'Lessons completed' },
];

const features = [
  {
    title: 'One-on-one sessions',
    text: 'Lessons built around you: your pace, your questions, your goals.',
    icon: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 8a7 7 0 0 1 14 0',
  },
  {
    title: 'Flexible scheduling',
    text: 'Book mornings, evenings or weekends, whenever learning fits your week.',
    icon: 'M7 3v3m10-3v3M4 9h16M5 5h14a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1z',
  },
  {
    title: 'Video sessions',
    text: 'Video lessons in your browser are coming soon. Every tutor profile already shows their time zone and the languages they teach in.',
    icon: 'M15 10l5-3v10l-5-3M4 7h11v10H4z',
  },
  {
    title: 'Progress tracking',
    text: 'See how far you have come, lesson by lesson and subject by subject.',
    icon: 'M4 19h16M7 15v-4m5 4V7m5 8v-6',
  },
  {
    title: 'Verified tutors',
    text: 'Every tutor confirms their email address, and a profile appears in search only once it is complete.',
    icon: 'M12 3l7 3v5c0 4.5-3 8.5-7 10-4-1.5-7-5.5-7-10V6l7-3zm-3 9l2 2 4-4',
  },
  {
    title: 'Affordable rates',
    text: `Tutors set their own rates: most charge ${TYPICAL_PRICE_RANGE}, with no subscription.`,
    icon: 'M12 3v18m4-14H10a3 3 0 0 0 0 6h4a3 3 0 0 1 0 6H7',
  },
];

const categories = [
  {
    name: 'Math & Science',
    examples: 'Algebra, calculus, physics, chemistry',
    color: 'bg-sky-50 text-sky-900 border-sky-200',
  },
  {
    name: 'Languages',
    examples: 'English, Spanish, French, Mandarin',
    color: 'bg-amber-50 text-amber-900 border-amber-200',
  },
  {
    name: 'Programming',
    examples: 'Python, JavaScript, web development',
    color: 'bg-emerald-50 text-emerald-900 border-emerald-200',
  },
  {
    name: 'Arts & Design',
    examples: 'Drawing, music theory, graphic design',
    color: 'bg-rose-50 text-rose-900 border-rose-200',
  },
];

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

export function Component() {
  return (
    <>
      <title>Tutorlane: one-on-one tutoring with verified tutors</title>
      <section className="bg-gradient-to-b from-brand-50 to-slate-50">
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:py-24 lg:grid-cols-2">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">
              Tutoring that fits your life
            </p>
            <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl">
              Learn anything with a tutor who gets you
            </h1>
            <p className="mt-5 text-lg text-slate-700">
              Tutorlane connects students with verified tutors for one-on-one lessons in math, science,
              languages, programming and the arts. Book when it suits you and see your progress grow.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <ButtonLink to={paths.signup} size="lg">
                Get Started Free
              </ButtonLink>
              {/* Named "Learn More" (the product's contract); the hidden words tell crawlers where it leads. */}
              <ButtonLink to={paths.contact} size="lg" variant="secondary" aria-label="Learn More">
                Learn More<span className="sr-only"> about Tutorlane</span>
              </ButtonLink>
            </div>
          </div>
          <div aria-hidden="true" className="hidden lg:block">
            <div className="relative mx-auto max-w-md rounded-3xl border border-slate-200 bg-white p-6 shadow-xl">
              <div className="flex items-center gap-3">
                <div className="flex size-12 items-center justify-center rounded-full bg-brand-100 font-bold text-brand-800">
                  SC
                </div>
                <div>
                  <p className="font-semibold text-slate-900">Dr. Sarah Chen</p>
                  <p className="text-sm text-slate-600">Calculus · 4.9 ★</p>
                </div>
                <span className="ml-auto rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-semibold text-emerald-800">
                  Live
                </span>
              </div>
              <div className="mt-5 h-40 rounded-2xl bg-gradient-to-br from-brand-600 to-brand-900 p-4 text-white">
                <p className="font-mono text-sm opacity-90">d/dx (x² + 3x) = 2x + 3</p>
                <p className="mt-3 font-mono text-sm opacity-90">∫ 2x dx = x² + C</p>
              </div>
              <div className="mt-5 space-y-2">
                <div className="h-2 w-full rounded-full bg-slate-100">
                  <div className="h-2 w-3/4 rounded-full bg-brand-600" />
                </div>
                <p className="text-sm text-slate-600">Unit 4 of 6 complete</p>
              </div>
            </div>
          </div>
        </div>
      </section>

      <section aria-label="Tutorlane in numbers" className="border-y border-slate-200 bg-white">
        <dl className="mx-auto grid max-w-6xl grid-cols-3 gap-4 px-4 py-10 text-center">
          {stats.map((stat) => (
            <div key={stat.label} className="flex flex-col-reverse">
              <dt className="mt-1 text-sm font-medium text-slate-600">{stat.label}</dt>
              <dd className="text-2xl font-extrabold text-brand-700 sm:text-3xl">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="features-heading" className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
        <h2 id="features-heading" className="text-center text-3xl font-bold tracking-tight text-slate-900">
          Why students choose Tutorlane
        </h2>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {features.map((feature) => (
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
            Subjects for every goal
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
                    {category.name}
                  </Link>
                </h3>
                <p className="mt-2 text-sm">{category.examples}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="cta-heading" className="mx-auto max-w-6xl px-4 py-16 sm:py-20">
        <div className="rounded-3xl bg-brand-800 px-6 py-12 text-center text-white sm:px-12">
          <h2 id="cta-heading" className="text-3xl font-bold tracking-tight">
            Ready to start learning?
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-brand-100">
            Create your free account in a minute, as a student or as a tutor.
          </p>
          {/* The global brand-600 focus outline is ~1.5:1 on this dark panel; white is ~10:1. */}
          <ButtonLink
            to={paths.signup}
            size="lg"
            variant="secondary"
            className="mt-8 focus-visible:outline-white"
          >
            Create your free account
          </ButtonLink>
        </div>
      </section>
    </>
  );
}
