/**
 * /availability: a tutor's weekly hours, days off and special hours, and booking settings, in
 * the tutor's time zone, with a preview of the times students could book that follows every
 * edit. The whole form is kept in the browser until it is saved: a refusal marks the field the
 * server names and loses nothing. On a phone the long sections fold, each saying what it holds,
 * and Save stays on the screen while there are changes to save. A student learns that
 * availability is a tutor's.
 */
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { InferResponseType } from 'hono/client';
import { useEffect, useMemo, useReducer, useState } from 'react';
import {
  type ActionFunctionArgs,
  type ShouldRevalidateFunction,
  useFetcher,
  useLoaderData,
} from 'react-router';
import type { Interval } from '../../../shared/lessons/availability';
import { isPlanned } from '../../../shared/lessons/lesson-states';
import { localDate } from '../../../shared/lessons/lesson-times';
import { paths } from '../../../shared/routes';
import { ButtonLink } from '../../components/button';
import { unfoldAround } from '../../components/fold';
import { ActionForm, FormAnswerMessage, SaveBar, SubmitButton } from '../../components/form';
import { SelectField } from '../../components/text-field';
import { ApiError, api, request } from '../../lib/api';
import { type FormAnswer, refused } from '../../lib/forms';
import { i18n } from '../../lib/i18n';
import { usePaymentsConfig } from '../../lib/payments-config';
import { clockLabel } from '../../lib/time-labels';
import { browserTimeZone, describeTimeZone, timeZoneOptions } from '../../lib/time-zones';
import { authStore } from '../auth';
import {
  type AvailabilityBody,
  bodyFrom,
  changeDraft,
  controlFor,
  type Draft,
  draftFrom,
  hasAnyWindow,
  normalized,
} from './availability-draft';
import { PREVIEW_DAYS } from './availability-preview';
import { BookingSettings } from './booking-settings';
import { DateOverrides } from './date-overrides';
import { LeaveWarning } from './leave-warning';
import { AvailabilityPreview } from './preview-panel';
import { WeeklyHours } from './weekly-hours';

const DAY = 24 * 60 * 60 * 1000;
/** The form's whole state travels to the action in this one field, as JSON. */
const DRAFT_FIELD = 'draft';
const SAVED = msg`Your availability has been saved.`;

type Saved = InferResponseType<typeof api.availability.$get, 200>;

/** The tutor's availability, profile zone and planned lessons; null for anyone who is not a tutor. */
export async function loader() {
  const user = authStore.getState().user;
  if (user?.role !== 'tutor') return null;
  const now = Date.now();
  try {
    const [availability, { lessons }] = await Promise.all([
      request(api.availability.$get()),
      // The preview's days, and a day either side for lessons that reach into them.
      request(
        api.lessons.$get({
          query: {
            from: new Date(now - DAY).toISOString(),
            to: new Date(now + (PREVIEW_DAYS + 2) * DAY).toISOString(),
          },
        }),
      ),
    ]);
    const busy: Interval[] = lessons
      .filter((lesson) => isPlanned(lesson.status))
      .map((lesson) => ({ start: Date.parse(lesson.start), end: Date.parse(lesson.end) }));
    // A tutor who never chose a zone gets null, and the form starts from this browser's.
    return { availability, savedTimeZone: availability.timeZone, busy };
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return null;
    throw error;
  }
}

export async function action({ request: submitted }: ActionFunctionArgs): Promise<FormAnswer> {
  const form = await submitted.formData();
  const draft = JSON.parse(String(form.get(DRAFT_FIELD))) as Draft;
  try {
    // The body's numbers are checked by the server, which names the field at fault.
    const saved = await request(api.availability.$put({ json: bodyFrom(draft) }));
    // The hours' zone is the profile's: the session knows it now too.
    authStore.noteTimeZone(saved.timeZone);
    return { done: i18n._(SAVED) };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 0) return refused(error);
    const control = controlFor(error.field, draft);
    return { problem: { message: error.message, fields: control ? { [control]: error.message } : {} } };
  }
}

/** A refused save changes nothing on the server: nothing to load again. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as FormAnswer | undefined)?.problem ? false : defaultShouldRevalidate;

export function Component() {
  const data = useLoaderData<typeof loader>();
  return data ? (
    <AvailabilityEditor saved={data.availability} savedTimeZone={data.savedTimeZone} busy={data.busy} />
  ) : (
    <ForTutorsOnly />
  );
}

function ForTutorsOnly() {
  const { t } = useLingui();
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <title>{t`Availability · Tutorlane`}</title>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">
        <Trans>Availability</Trans>
      </h1>
      <p className="mt-4 text-slate-700">
        <Trans>
          Availability is for tutors: it is where a tutor sets the hours students can book lessons. As a
          student, you book a lesson at one of the times a tutor offers, on the tutor's page.
        </Trans>
      </p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <ButtonLink to={paths.dashboard}>
          <Trans>Go to your dashboard</Trans>
        </ButtonLink>
        <ButtonLink to={paths.tutors} variant="secondary">
          <Trans>Find a tutor</Trans>
        </ButtonLink>
      </div>
    </div>
  );
}

/** The first focusable control of a field the form's answer names. */
function controlOf(name: string): HTMLElement | null | undefined {
  const element = document.getElementsByName(name)[0] ?? document.getElementById(name);
  return element?.matches('input, select, textarea, button')
    ? element
    : element?.querySelector<HTMLElement>('input, select, textarea, button');
}

/** That control brought into view, its section unfolded first on a phone, and focused. */
function focusControl(name: string) {
  const control = controlOf(name);
  unfoldAround(control, { now: true });
  control?.scrollIntoView({ block: 'center' });
  control?.focus({ preventScroll: true });
}

function AvailabilityEditor({
  saved,
  savedTimeZone,
  busy,
}: {
  saved: Saved;
  savedTimeZone: string | null;
  busy: Interval[];
}) {
  const { t } = useLingui();
  const fetcher = useFetcher<FormAnswer>();
  // A tutor who never chose a zone starts from the browser's; saving makes it theirs.
  const [startZone] = useState(() => savedTimeZone ?? browserTimeZone());
  const { currency } = usePaymentsConfig();
  const [draft, change] = useReducer(changeDraft, saved, (first) =>
    draftFrom({ ...first, timeZone: startZone }, startZone, currency),
  );
  const zones = useMemo(() => timeZoneOptions(), []);
  const zoneChoices = zones.some((zone) => zone.value === draft.timeZone)
    ? zones
    : [{ value: draft.timeZone, label: describeTimeZone(draft.timeZone) }, ...zones];

  // Adding or removing a window moves the focus to what comes next, once it is drawn.
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  useEffect(() => {
    if (!focusTarget) return;
    document.getElementById(focusTarget)?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  const now = Date.now();
  const zoneName = describeTimeZone(draft.timeZone);
  const zoneClock = clockLabel(now, draft.timeZone);
  const today = localDate(now, draft.timeZone);
  const savedBody = { ...saved, timeZone: savedTimeZone ?? startZone };
  // A date that has passed while the page was open changes nothing (a save drops it): no change.
  const fromToday = (body: AvailabilityBody) => ({
    ...body,
    overrides: body.overrides.filter((override) => override.date >= today),
  });
  const unsaved = normalized(fromToday(bodyFrom(draft))) !== normalized(fromToday(savedBody));
  const answer = fetcher.state === 'idle' ? fetcher.data : undefined;
  const problemField = answer?.problem ? Object.keys(answer.problem.fields)[0] : undefined;
  // A field the server refused is shown, whichever section holds it.
  useEffect(() => {
    if (problemField) unfoldAround(controlOf(problemField));
  }, [problemField]);

  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-12">
      <title>{t`Availability · Tutorlane`}</title>
      <LeaveWarning
        unsaved={unsaved}
        description={t`Your changes to your availability are not saved yet. If you leave now, they are lost.`}
      />
      <header>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">
          <Trans>Availability</Trans>
        </h1>
        <p className="mt-2 text-slate-700">
          <Trans>
            When students can book lessons with you, in{' '}
            <span className="font-medium text-slate-900">{zoneName}</span>.
          </Trans>
        </p>
      </header>
      {hasAnyWindow(savedBody) ? null : (
        <section
          aria-labelledby="no-hours-heading"
          className="mt-6 rounded-2xl border border-amber-200 bg-amber-50 p-4 sm:p-5"
        >
          <h2 id="no-hours-heading" className="font-semibold text-amber-950">
            <Trans>Students cannot book lessons with you yet</Trans>
          </h2>
          <p className="mt-1 text-sm text-amber-950">
            <Trans>
              Add the hours you teach below (weekly, or on a date) and save: students can then book them.
            </Trans>
          </p>
        </section>
      )}
      {/* The preview is inside the form (it has no control of its own) so that the save bar holds to
          the screen over it too. */}
      <ActionForm fetcher={fetcher} className="mt-8">
        <input type="hidden" name={DRAFT_FIELD} value={JSON.stringify(draft)} />
        <div className="grid items-start gap-6 lg:grid-cols-5">
          <div className="space-y-6 lg:col-span-3">
            <section
              aria-labelledby="zone-heading"
              className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
            >
              <h2 id="zone-heading" className="text-lg font-semibold text-slate-900">
                <Trans>Your time zone</Trans>
              </h2>
              <SelectField
                label={t`Time zone`}
                name="timeZone"
                value={draft.timeZone}
                onChange={(event) => change({ type: 'timeZone', timeZone: event.target.value })}
                hint={
                  savedTimeZone
                    ? t`Your hours are in this zone; it is ${zoneClock} there now. Saving also makes it your profile’s time zone.`
                    : t`Your hours are in this zone; it is ${zoneClock} there now. We started from your browser’s zone. Saving also makes it your profile’s time zone.`
                }
                className="mt-3"
              >
                {zoneChoices.map((zone) => (
                  <option key={zone.value} value={zone.value}>
                    {zone.label}
                  </option>
                ))}
              </SelectField>
            </section>
            <WeeklyHours weekly={draft.weekly} change={change} focus={setFocusTarget} />
            <DateOverrides overrides={draft.overrides} today={today} change={change} focus={setFocusTarget} />
            <BookingSettings draft={draft} change={change} />
          </div>
          <div className="lg:col-span-2">
            <AvailabilityPreview draft={draft} busy={busy} />
          </div>
        </div>
        <SaveBar
          unsaved={unsaved}
          className="mt-6 space-y-3 py-3"
          heldClassName="-mx-4 px-4 sm:mx-0 sm:rounded-2xl sm:border-x"
        >
          <FormAnswerMessage />
          {problemField ? (
            <button
              type="button"
              className="text-sm font-semibold text-brand-700 underline"
              onClick={() => focusControl(problemField)}
            >
              <Trans>Go to the problem</Trans>
            </button>
          ) : null}
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <SubmitButton size="lg" busyLabel={t`Saving…`}>
              <Trans>Save Availability</Trans>
            </SubmitButton>
            {unsaved ? (
              <p className="text-sm text-slate-700">
                <Trans>You have changes that are not saved yet.</Trans>
              </p>
            ) : null}
          </div>
        </SaveBar>
      </ActionForm>
    </div>
  );
}
