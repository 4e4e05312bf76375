/**
 * /schedule: the calendar is announced for a later stage; the sidebar shows quick actions,
 * upcoming events and statistics, worded for the user's role. Should the server refuse (the
 * session ended, or the email is not verified), the page itself asks to sign up or sign in.
 */
import { useLoaderData } from 'react-router';
import { paths } from '../../../shared/routes';
import { ButtonLink } from '../../components/button';
import { CardSection } from '../../components/card';
import { ComingSoonButton } from '../../components/coming-soon';
import { ApiError, api, request } from '../../lib/api';

/** The schedule, or null when the server refused it (the session ended, or is unverified). */
export async function loader() {
  try {
    return await request(api.schedule.$get());
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return null;
    throw error;
  }
}

export function Component() {
  const schedule = useLoaderData<typeof loader>();

  if (!schedule) {
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <title>Schedule · Tutorlane</title>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">Schedule</h1>
        <p className="mt-4 text-slate-700">
          Your schedule is for registered members with a verified email. Create an account, or sign in and
          verify your email, to see it.
        </p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <ButtonLink to={paths.signup}>Create Account</ButtonLink>
          <ButtonLink to={paths.login} variant="secondary">
            Sign In
          </ButtonLink>
        </div>
      </div>
    );
  }

  const tutor = schedule.role === 'tutor';
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-12">
      <title>Schedule · Tutorlane</title>
      <header>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">Schedule</h1>
        <p className="mt-2 min-h-6 text-slate-700">{schedule.subtitle}</p>
      </header>
      {schedule ? (
        <div className="mt-8 grid gap-6 lg:grid-cols-3">
          <section
            aria-labelledby="calendar-heading"
            className="flex min-h-80 flex-col items-center justify-center rounded-2xl border-2 border-dashed border-slate-300 bg-white p-8 text-center lg:col-span-2"
          >
            <svg
              viewBox="0 0 24 24"
              className="size-12 text-brand-700"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.6"
              aria-hidden="true"
            >
              <path d="M7 3v3m10-3v3M4 9h16M5 5h14a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1z" />
            </svg>
            <h2 id="calendar-heading" className="mt-4 text-xl font-semibold text-slate-900">
              Calendar Coming Soon
            </h2>
            <p className="mt-2 max-w-md text-slate-700">
              {tutor
                ? 'A full calendar to set your availability and see every booked session is on its way.'
                : 'A full calendar to book lessons and see every session at a glance is on its way.'}
            </p>
          </section>
          <div className="space-y-6">
            <CardSection title="Quick actions">
              <div className="space-y-3">
                {tutor ? (
                  <>
                    <ComingSoonButton
                      label="Set Availability"
                      note="Setting your availability is coming soon."
                    />
                    <ComingSoonButton label="Block Time Off" note="Blocking time off is coming soon." />
                  </>
                ) : (
                  <>
                    <ComingSoonButton label="Book a Lesson" note="Booking lessons is coming soon." />
                    <ComingSoonButton label="Request a Reschedule" note="Rescheduling is coming soon." />
                  </>
                )}
              </div>
            </CardSection>
            <CardSection title="Upcoming events">
              <ul className="space-y-3">
                {schedule.upcomingEvents.map((event) => (
                  <li key={event.title}>
                    <p className="font-medium text-slate-900">{event.title}</p>
                    <p className="text-sm text-slate-600">{event.when}</p>
                  </li>
                ))}
              </ul>
            </CardSection>
            <CardSection title="Statistics">
              <dl className="space-y-2">
                {schedule.statistics.map((stat) => (
                  <div key={stat.label} className="flex justify-between text-sm">
                    <dt className="text-slate-700">{stat.label}</dt>
                    <dd className="font-semibold text-slate-900">{stat.value}</dd>
                  </div>
                ))}
              </dl>
            </CardSection>
          </div>
        </div>
      ) : null}
    </div>
  );
}
