/**
 * /contact: how to reach support (details from the server's configuration), business hours, the
 * contact form that really sends (stored, then mailed to support), and the FAQ.
 */
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { CONTACT_SUBJECTS, SUPPORT_RESPONSE_HOURS } from '../../../shared/constants';
import { messages } from '../../../shared/messages';
import { Button } from '../../components/button';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { Spinner } from '../../components/spinner';
import { fieldClass, TextArea, TextField } from '../../components/text-field';
import { ApiError, api } from '../../lib/api-client';
import { getPublicConfig, type PublicConfig, publicConfigInPage } from '../../lib/public-config';
import type { ContactDraft, ContactField, ContactProblem } from './contact-checks';
import { faq } from './faq';

const hours = [
  { days: 'Monday - Friday', time: '9:00 AM - 6:00 PM' },
  { days: 'Saturday', time: '10:00 AM - 4:00 PM' },
  { days: 'Sunday', time: 'Closed' },
];

const empty: ContactDraft = { name: '', email: '', subject: '', message: '' };

// The browser check uses the shared zod schema, about 25 kB gzipped: it is fetched once the visitor
// turns to the form, not with the page (Lighthouse budgets /contact). Should it fail to load, the
// server's check still answers.
let checks: Promise<(draft: ContactDraft) => ContactProblem | null> | undefined;
function loadChecks() {
  checks ??= import('./contact-checks').then(
    (module) => module.firstContactProblem,
    () => {
      checks = undefined;
      return () => null;
    },
  );
  return checks;
}

export function Component() {
  const [chatNote, setChatNote] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);

  const startChat = () => {
    setChatNote(true);
    nameRef.current?.focus();
  };

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <title>Contact us · Tutorlane</title>
      <header className="max-w-2xl">
        <h1 className="text-4xl font-extrabold tracking-tight text-slate-900">Contact Us</h1>
        <p className="mt-3 text-lg text-slate-700">
          Questions about lessons, your account or becoming a tutor? We reply to every message within{' '}
          {SUPPORT_RESPONSE_HOURS} hours.
        </p>
      </header>

      <div className="mt-10 grid gap-8 lg:grid-cols-3">
        <aside className="space-y-6 lg:col-span-1">
          <section
            aria-labelledby="reach-us"
            className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
          >
            <h2 id="reach-us" className="text-lg font-semibold text-slate-900">
              Reach us
            </h2>
            <SupportDetails />
            <Button variant="secondary" className="mt-5 w-full" onClick={startChat}>
              Start Live Chat
            </Button>
            {chatNote ? (
              <div className="mt-3">
                <StatusMessage tone="info">
                  Live chat is coming soon. Until then, send us a message with the form and we will reply
                  within {SUPPORT_RESPONSE_HOURS} hours.
                </StatusMessage>
              </div>
            ) : null}
          </section>

          <section
            aria-labelledby="hours"
            className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
          >
            <h2 id="hours" className="text-lg font-semibold text-slate-900">
              Business hours
            </h2>
            <dl className="mt-4 space-y-2 text-sm">
              {hours.map((row) => (
                <div key={row.days} className="flex justify-between gap-4">
                  <dt className="text-slate-700">{row.days}</dt>
                  <dd className="font-medium text-slate-900">{row.time}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-4 text-sm text-slate-600">
              We respond to every message within {SUPPORT_RESPONSE_HOURS} hours.
            </p>
          </section>
        </aside>

        <ContactForm nameRef={nameRef} />
      </div>

      <section aria-labelledby="faq-heading" className="mt-16">
        <h2 id="faq-heading" className="text-2xl font-bold tracking-tight text-slate-900">
          Frequently asked questions
        </h2>
        <div className="mt-6 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
          {faq.map((item) => (
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

type SupportState =
  | { status: 'loading' }
  | { status: 'ready'; support: PublicConfig['support'] }
  | { status: 'failed'; retrying: boolean; attempt: number };

const detailLink = 'font-semibold text-brand-700 underline-offset-2 hover:underline';

/** Support's email and phone from the server's configuration; when they cannot be loaded, says so and offers a retry. */
function SupportDetails() {
  // The page carries the configuration; a page without it (Vite's dev server's) asks the server.
  const [state, setState] = useState<SupportState>(() => {
    const inPage = publicConfigInPage();
    return inPage ? { status: 'ready', support: inPage.support } : { status: 'loading' };
  });
  const emailRef = useRef<HTMLAnchorElement>(null);
  const focusEmail = useRef(false);

  const load = useCallback((retry: boolean) => {
    if (retry)
      setState((current) => (current.status === 'failed' ? { ...current, retrying: true } : current));
    getPublicConfig()
      .then((config) => {
        // After a retry the Try again button is gone: its focus goes to what it brought.
        focusEmail.current = retry;
        setState({ status: 'ready', support: config.support });
      })
      .catch(() =>
        setState((current) => ({
          status: 'failed',
          retrying: false,
          attempt: current.status === 'failed' ? current.attempt + 1 : 1,
        })),
      );
  }, []);

  // Only a page without the configuration starts out loading.
  useEffect(() => {
    if (state.status === 'loading') load(false);
  }, [state.status, load]);

  useEffect(() => {
    if (state.status === 'ready' && focusEmail.current) {
      focusEmail.current = false;
      emailRef.current?.focus();
    }
  }, [state]);

  if (state.status === 'failed') {
    return (
      <div className="mt-4 space-y-3">
        {/* Keyed by attempt, so a retry that fails again is announced again. */}
        <ErrorMessage key={state.attempt}>
          We could not load our email address and phone number. You can still write to us with the form.
        </ErrorMessage>
        <Button
          variant="secondary"
          busy={state.retrying}
          aria-disabled={state.retrying || undefined}
          onClick={() => {
            if (!state.retrying) load(true);
          }}
        >
          Try again
        </Button>
      </div>
    );
  }
  const support = state.status === 'ready' ? state.support : null;
  const loading = (
    <span className="inline-flex items-center gap-2 text-slate-600">
      <Spinner />
      Loading…
    </span>
  );
  return (
    <dl className="mt-4 space-y-4 text-sm">
      <div>
        <dt className="font-medium text-slate-600">Email</dt>
        <dd className="mt-1 min-h-6">
          {support ? (
            <a ref={emailRef} href={`mailto:${support.email}`} className={detailLink}>
              {support.email}
            </a>
          ) : (
            loading
          )}
        </dd>
      </div>
      <div>
        <dt className="font-medium text-slate-600">Phone</dt>
        <dd className="mt-1 min-h-6">
          {support ? (
            <a href={`tel:${support.phone.replace(/[^\d+]/g, '')}`} className={detailLink}>
              {support.phone}
            </a>
          ) : (
            loading
          )}
        </dd>
      </div>
    </dl>
  );
}

function ContactForm({ nameRef }: { nameRef: React.RefObject<HTMLInputElement | null> }) {
  const [fields, setFields] = useState<ContactDraft>(empty);
  const [sending, setSending] = useState(false);
  // One notice at a time, so a browser check, a refusal and a thank-you never show together. Its
  // key remounts it, so the same error after another try is announced again.
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string; key: number } | null>(null);
  const [invalid, setInvalid] = useState<ContactField[]>([]);
  const noticeId = useId();
  const checking = useRef(false);

  const show = (tone: 'success' | 'error', text: string) =>
    setNotice((current) => ({ tone, text, key: (current?.key ?? 0) + 1 }));

  const update = (name: ContactField) => (event: { target: { value: string } }) => {
    setFields((current) => ({ ...current, [name]: event.target.value }));
    setInvalid((current) => current.filter((field) => field !== name));
    // A new message begins: the thanks for the last one no longer applies.
    setNotice((current) => (current?.tone === 'success' ? null : current));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending || checking.current) return;
    checking.current = true;
    const problem = await loadChecks()
      .then((firstContactProblem) => firstContactProblem(fields))
      .finally(() => {
        checking.current = false;
      });
    setInvalid(problem?.fields ?? []);
    if (problem) {
      show('error', problem.message);
      return;
    }
    setNotice(null);
    setSending(true);
    try {
      await api('/api/contact', { method: 'POST', body: fields });
      setFields(empty);
      show('success', messages.contactSuccess);
    } catch (caught) {
      // A 400 says what is wrong with the message in words the visitor can act on; when the server
      // is down, busy (429) or out of reach, the catalogue's text says to try again.
      show(
        'error',
        caught instanceof ApiError && caught.status === 400 ? caught.message : messages.contactError,
      );
    } finally {
      setSending(false);
    }
  };

  const invalidProps = (name: ContactField) =>
    invalid.includes(name) ? { 'aria-invalid': true, 'aria-describedby': noticeId } : {};

  return (
    <section
      aria-labelledby="form-heading"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 lg:col-span-2"
    >
      <h2 id="form-heading" className="text-lg font-semibold text-slate-900">
        Send us a message
      </h2>
      <form noValidate onSubmit={onSubmit} onFocus={() => void loadChecks()} className="mt-6 space-y-5">
        {notice ? (
          <div id={noticeId} key={notice.key}>
            {notice.tone === 'success' ? (
              <StatusMessage>{notice.text}</StatusMessage>
            ) : (
              <ErrorMessage>{notice.text}</ErrorMessage>
            )}
          </div>
        ) : null}
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            ref={nameRef}
            label="Name"
            name="name"
            autoComplete="name"
            value={fields.name}
            onChange={update('name')}
            {...invalidProps('name')}
          />
          <TextField
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            value={fields.email}
            onChange={update('email')}
            {...invalidProps('email')}
          />
        </div>
        <div>
          <label htmlFor="contact-subject" className="block text-sm font-medium text-slate-800">
            Subject
          </label>
          <select
            id="contact-subject"
            name="subject"
            className={fieldClass}
            value={fields.subject}
            onChange={update('subject')}
            {...invalidProps('subject')}
          >
            <option value="">Select a subject</option>
            {CONTACT_SUBJECTS.map((subject) => (
              <option key={subject.value} value={subject.value}>
                {subject.label}
              </option>
            ))}
          </select>
        </div>
        <TextArea
          label="Message"
          name="message"
          rows={6}
          value={fields.message}
          onChange={update('message')}
          {...invalidProps('message')}
        />
        {/* aria-disabled, not disabled, while sending: a disabled button would drop the focus. */}
        <Button type="submit" size="lg" busy={sending} aria-disabled={sending || undefined}>
          {sending ? 'Sending…' : 'Send Message'}
        </Button>
      </form>
    </section>
  );
}
