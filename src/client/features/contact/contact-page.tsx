/**
 * /contact: how to reach support and when (the site settings an admin edits, with the
 * configuration's address and phone by default; how soon support replies only once an admin says),
 * the contact form that really sends (stored, then mailed to support), and the FAQ (what most
 * tutors charge, once enough are listed).
 */
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { type ActionFunctionArgs, useFetcher, useLoaderData, useRevalidator } from 'react-router';
import { CONTACT_SUBJECTS, type ContactSubject } from '../../../shared/constants';
import * as messages from '../../../shared/messages';
import { businessHoursLines, phoneLink, replyTimeLabel } from '../../../shared/settings/site-settings';
import { Button } from '../../components/button';
import { ActionForm, FormAnswerMessage, SubmitButton } from '../../components/form';
import { ErrorMessage } from '../../components/messages';
import { SelectField, TextArea, TextField } from '../../components/text-field';
import { ApiError, api, request } from '../../lib/api';
import { check, type FormAnswer, formValues, loadFormChecks } from '../../lib/forms';
import { translated } from '../../lib/i18n';
import { getPublicConfig } from '../../lib/public-config';
import { rateLabel } from '../../lib/rate-label';
import { faq } from './faq';
import { LiveChatButton } from './live-chat-button';

/**
 * Support's email, phone and hours, its reply time and the typical rate: the page's own, else
 * asked of the server; null when that fails (nothing is promised then).
 */
export async function loader() {
  try {
    const config = await getPublicConfig();
    return {
      support: config.support,
      replyTime:
        config.supportReplyHours === null ? null : replyTimeLabel(config.supportReplyHours, translated),
      rate: config.typicalHourlyRate && rateLabel(config.typicalHourlyRate, config.payments.currency),
    };
  } catch {
    return { support: null, replyTime: null, rate: null };
  }
}

export async function action({ request: submitted }: ActionFunctionArgs): Promise<FormAnswer> {
  const { contactForm } = await loadFormChecks();
  const form = check(contactForm, await formValues(submitted));
  if (form.problem) return form;
  try {
    await request(api.contact.$post({ json: form.data }));
    return { done: messages.contactSuccess };
  } catch (error) {
    // A 400 says what is wrong with the message in words the visitor can act on; when the server
    // is down, busy (429) or out of reach, the catalogue's text says to try again.
    const message = translated(
      error instanceof ApiError && error.status === 400 ? error.message : messages.contactError,
    );
    return { problem: { message, fields: {} } };
  }
}

export function Component() {
  const { t } = useLingui();
  const nameRef = useRef<HTMLInputElement>(null);
  const { replyTime, rate } = useLoaderData<typeof loader>();

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <title>{t`Contact us · Tutorlane`}</title>
      <header className="max-w-2xl">
        <h1 className="text-4xl font-extrabold tracking-tight text-slate-900">
          <Trans>Contact Us</Trans>
        </h1>
        <p className="mt-3 text-lg text-slate-700">
          {replyTime ? (
            <Trans>
              Questions about lessons, your account or becoming a tutor? We reply to every message within{' '}
              {replyTime}.
            </Trans>
          ) : (
            <Trans>Questions about lessons, your account or becoming a tutor? Write to us.</Trans>
          )}
        </p>
      </header>

      <div className="mt-10 grid gap-8 lg:grid-cols-3">
        <aside className="space-y-6 lg:col-span-1">
          <section
            aria-labelledby="reach-us"
            className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
          >
            <h2 id="reach-us" className="text-lg font-semibold text-slate-900">
              <Trans>Reach us</Trans>
            </h2>
            <SupportDetails />
            <LiveChatButton className="mt-5" />
          </section>

          <section
            aria-labelledby="hours"
            className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
          >
            <h2 id="hours" className="text-lg font-semibold text-slate-900">
              <Trans>Business hours</Trans>
            </h2>
            <BusinessHours />
            {replyTime ? (
              <p className="mt-4 text-sm text-slate-600">
                <Trans>We respond to every message within {replyTime}.</Trans>
              </p>
            ) : null}
          </section>
        </aside>

        <ContactForm nameRef={nameRef} />
      </div>

      <section aria-labelledby="faq-heading" className="mt-16">
        <h2 id="faq-heading" className="text-2xl font-bold tracking-tight text-slate-900">
          <Trans>Frequently asked questions</Trans>
        </h2>
        <div className="mt-6 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
          {faq(rate).map((item) => (
            <details key={item.question} className="group p-5">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-semibold text-slate-900">
                {item.question}
                <span aria-hidden="true" className="text-brand-700 transition-transform group-open:rotate-45">
                  +
                </span>
              </summary>
              <p className="mt-3 text-slate-700">{item.answer}</p>
            </details>
          ))}
        </div>
      </section>
    </div>
  );
}

const detailLink = 'font-semibold text-brand-700 underline-offset-2 hover:underline';

/** Support's email and phone; when they could not be loaded, says so and offers a retry. */
function SupportDetails() {
  const { support } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const [attempts, setAttempts] = useState(0);
  const emailRef = useRef<HTMLAnchorElement>(null);
  const retrying = revalidator.state === 'loading';

  // After a retry its button is gone: its focus goes to what it brought.
  useEffect(() => {
    if (support && attempts > 0) emailRef.current?.focus();
  }, [support, attempts]);

  if (!support) {
    return (
      <div className="mt-4 space-y-3">
        {/* Keyed by attempt, so a retry that fails again is announced again. */}
        <ErrorMessage key={attempts}>
          <Trans>
            We could not load our email address, phone number and hours. You can still write to us with the
            form.
          </Trans>
        </ErrorMessage>
        <Button
          variant="secondary"
          busy={retrying}
          aria-disabled={retrying || undefined}
          onClick={() => {
            if (retrying) return;
            setAttempts((count) => count + 1);
            void revalidator.revalidate();
          }}
        >
          <Trans>Try loading our details again</Trans>
        </Button>
      </div>
    );
  }
  return (
    <dl className="mt-4 space-y-4 text-sm">
      <div>
        <dt className="font-medium text-slate-600">
          <Trans>Email</Trans>
        </dt>
        <dd className="mt-1 min-h-6">
          <a ref={emailRef} href={`mailto:${support.email}`} className={detailLink}>
            {support.email}
          </a>
        </dd>
      </div>
      <div>
        <dt className="font-medium text-slate-600">
          <Trans>Phone</Trans>
        </dt>
        <dd className="mt-1 min-h-6">
          <a href={phoneLink(support.phone)} className={detailLink} dir="ltr">
            {support.phone}
          </a>
        </dd>
      </div>
    </dl>
  );
}

/** The days and times support answers, one line each, as the site settings say them. */
function BusinessHours() {
  const { support } = useLoaderData<typeof loader>();
  // Without them, Reach us above already says what could not be loaded and offers to try again.
  if (!support) return null;
  return (
    <ul className="mt-4 space-y-1.5 text-sm font-medium text-slate-900">
      {businessHoursLines(support.hours).map((line) => (
        <li key={line} className="break-words">
          {line}
        </li>
      ))}
    </ul>
  );
}

/** The contact form's subjects, as CONTACT_SUBJECTS names them (the value is what is sent). */
const SUBJECT_LABELS = {
  general: msg`General Inquiry`,
  technical: msg`Technical Support`,
  billing: msg`Billing Question`,
  tutoring: msg`Tutoring Services`,
  partnership: msg`Partnership`,
  other: msg`Other`,
} satisfies Record<ContactSubject, unknown>;

function ContactForm({ nameRef }: { nameRef: React.RefObject<HTMLInputElement | null> }) {
  const { t } = useLingui();
  const fetcher = useFetcher<FormAnswer>();
  const form = useRef<HTMLFormElement>(null);

  // Sent: the fields are cleared for the next message.
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.done) form.current?.reset();
  }, [fetcher.state, fetcher.data]);

  return (
    <section
      aria-labelledby="form-heading"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 lg:col-span-2"
    >
      <h2 id="form-heading" className="text-lg font-semibold text-slate-900">
        <Trans>Send us a message</Trans>
      </h2>
      <ActionForm fetcher={fetcher} formRef={form} className="mt-6 space-y-5">
        <FormAnswerMessage />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField ref={nameRef} label={t`Name`} name="name" autoComplete="name" />
          <TextField label={t`Email`} type="email" name="email" autoComplete="email" />
        </div>
        <SelectField label={t`Subject`} name="subject" defaultValue="">
          <option value="">{t`Select a subject`}</option>
          {CONTACT_SUBJECTS.map((subject) => (
            <option key={subject.value} value={subject.value}>
              {t(SUBJECT_LABELS[subject.value])}
            </option>
          ))}
        </SelectField>
        <TextArea label={t`Message`} name="message" rows={6} />
        <SubmitButton size="lg" busyLabel={t`Sending…`}>
          <Trans>Send Message</Trans>
        </SubmitButton>
      </ActionForm>
    </section>
  );
}
