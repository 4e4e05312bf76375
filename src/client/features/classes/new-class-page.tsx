/**
 * /classes/new: a listed tutor announces a group class (title, subject, language, description,
 * length, seats, minimum, price a session, and its sessions: one, or a weekly course laid out in
 * their zone). Anyone else is told why they cannot. The form is checked with the API's own schema
 * (fetched when the form is first touched), then sent; on success the class's page opens.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { type ActionFunctionArgs, Link, redirect, useLoaderData } from 'react-router';
import { parseAmountCents } from '../../../shared/money/amounts';
import { classPath, paths } from '../../../shared/routes';
import { StatusMessage } from '../../components/messages';
import { ApiError, api, request } from '../../lib/api';
import { check, type FormAnswer, formValues, refused } from '../../lib/forms';
import { translated } from '../../lib/i18n';
import { getPublicConfig } from '../../lib/public-config';
import { browserTimeZone } from '../../lib/time-zones';
import { authStore } from '../auth';
import { createClass } from './class-api';
import { loadClassChecks, NewClassForm } from './new-class-form';
import { plannedStarts } from './session-plan';

export async function loader() {
  const user = authStore.getState().user;
  if (user?.role !== 'tutor') return { kind: 'not-tutor' as const };
  const [config, listed] = await Promise.all([
    getPublicConfig(),
    // The public profile answers only for a listed tutor: the one who may create a class.
    request(api.tutors[':id'].$get({ param: { id: user.id } })).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }),
  ]);
  if (!listed) {
    const details = await request(api.profile.details.$get());
    return { kind: 'not-listed' as const, missing: details.role === 'tutor' ? details.missing : [] };
  }
  return {
    kind: 'ready' as const,
    catalog: config.subjects,
    currency: config.payments.currency,
    languages: listed.languages,
    lengths: listed.booking.lessonMinutes,
    timeZone: listed.timeZone ?? user.timeZone ?? browserTimeZone(),
  };
}

/** The API's names of the fields, as the form names them. */
const FORM_FIELD: Record<string, string> = { priceCents: 'price', sessions: 'date' };
const formField = (field: string) => FORM_FIELD[field.split('.')[0] ?? ''] ?? field.split('.')[0] ?? field;

/** A session the API named ("sessions.3"): its number said with the problem, and marked in the preview. */
function sessionProblem(field: string, message: string, fields: Partial<Record<string, string>>) {
  const index = /^sessions\.(\d+)$/.exec(field)?.[1];
  if (index === undefined) return message;
  fields[`session-${index}`] = message;
  const number = Number(index) + 1;
  return translated(/*i18n*/ 'Session {number}: {problem}', { number, problem: message });
}

export async function action({ request: submitted }: ActionFunctionArgs): Promise<FormAnswer | Response> {
  const [checks, config, values] = await Promise.all([
    loadClassChecks(),
    getPublicConfig(),
    formValues(submitted),
  ]);
  const text = (name: string) => String(values[name] ?? '');
  const timeZone = text('timeZone') || browserTimeZone();
  const plan = plannedStarts(
    {
      kind: text('kind') === 'weekly' ? 'weekly' : 'one',
      date: text('date'),
      time: text('time'),
      weeks: text('weeks'),
    },
    timeZone,
  );
  const priceText = text('price').trim();
  const currency = config.payments.currency;
  const price = /^0+([.,]0*)?$/.test(priceText)
    ? { cents: 0 }
    : parseAmountCents(priceText, currency, translated);
  const number = (name: string) => (/^\d+$/.test(text(name)) ? Number(text(name)) : Number.NaN);
  const body = {
    title: text('title'),
    subject: text('subject'),
    language: text('language'),
    description: text('description'),
    minutes: number('minutes'),
    seats: number('seats'),
    minStudents: number('minStudents'),
    priceCents: price.cents ?? Number.NaN,
    sessions: 'starts' in plan ? plan.starts.map((start) => new Date(start).toISOString()) : [],
  };
  const form = check(checks.classSchema, body);
  const fields: Partial<Record<string, string>> = {};
  for (const [field, message] of Object.entries(form.problem?.fields ?? {})) {
    if (message) fields[formField(field)] ??= message;
  }
  // What the schema cannot tell from the body: which field left the sessions or the price unknown.
  if ('problem' in plan)
    fields[plan.problem] =
      plan.problem === 'weeks'
        ? translated(/*i18n*/ 'Choose 2 to 12 weekly sessions')
        : translated(/*i18n*/ 'Choose the date and time of the first session');
  if (price.problem) fields.price = price.problem;
  const first = Object.values(fields)[0] ?? form.problem?.message;
  if (first || !form.data) return { problem: { message: first ?? '', fields } };
  try {
    const { class: created } = await createClass({ ...body, language: form.data.language });
    return redirect(classPath(created.id));
  } catch (error) {
    const answer = refused(error);
    if (error instanceof ApiError && error.field) {
      const message = sessionProblem(error.field, answer.problem.message, answer.problem.fields);
      answer.problem.message = message;
      answer.problem.fields[formField(error.field)] = message;
    } else if (error instanceof ApiError && error.code === 'SLOT_UNAVAILABLE') {
      answer.problem.message = translated(
        /*i18n*/ '{problem} Choose other times for the sessions: nothing was created.',
        { problem: answer.problem.message },
      );
      answer.problem.fields.date = answer.problem.message;
    }
    return answer;
  }
}

export function Component() {
  const { t } = useLingui();
  const data = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-12">
      <title>{t`Create a class · Tutorlane`}</title>
      <Link
        to={paths.classes}
        className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline"
      >
        <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
          ←
        </span>{' '}
        <Trans>All classes</Trans>
      </Link>
      <header className="mt-4">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">
          <Trans>Create a group class</Trans>
        </h1>
        {data.kind === 'ready' ? (
          <p className="mt-2 text-slate-700">
            <Trans>
              Teach two to five students together. Each student pays the price of every session ahead when
              they enrol; it is paid to you session by session, as for lessons.
            </Trans>
          </p>
        ) : null}
      </header>
      <div className="mt-8">
        {data.kind === 'not-tutor' ? (
          <StatusMessage tone="info">
            <Trans>Only tutors create group classes.</Trans>{' '}
            <Link to={paths.classes} className="font-semibold underline">
              <Trans>See the classes you can join</Trans>
            </Link>
          </StatusMessage>
        ) : null}
        {data.kind === 'not-listed' ? (
          <section
            aria-labelledby="class-not-yet"
            className="rounded-2xl border border-amber-200 bg-amber-50 p-5"
          >
            <h2 id="class-not-yet" className="font-semibold text-amber-950">
              <Trans>Your profile must be public and approved before you create a class.</Trans>
            </h2>
            {data.missing.length > 0 ? (
              <>
                <p className="mt-2 text-sm text-amber-950">
                  <Trans>It still needs:</Trans>
                </p>
                <ul className="mt-1 list-disc space-y-1 ps-5 text-sm text-amber-950">
                  {data.missing.map((item) => (
                    <li key={item}>{translated(item)}</li>
                  ))}
                </ul>
              </>
            ) : (
              <p className="mt-2 text-sm text-amber-950">
                <Trans>It is waiting for the school to verify it.</Trans>
              </p>
            )}
            <Link
              to={paths.profile}
              className="mt-3 inline-block text-sm font-semibold text-amber-950 underline"
            >
              <Trans>Go to your profile</Trans>
            </Link>
          </section>
        ) : null}
        {data.kind === 'ready' ? <NewClassForm {...data} /> : null}
      </div>
    </div>
  );
}
