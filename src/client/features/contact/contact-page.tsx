/**
 * /contact: how to reach support (details from the server's configuration), business hours, the
 * contact form that really sends (stored, then mailed to support), and the FAQ.
 */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { CONTACT_SUBJECTS, SUPPORT_RESPONSE_HOURS } from '../../../shared/constants';
import { messages } from '../../../shared/messages';
import { Button } from '../../components/button';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { fieldClass, TextArea, TextField } from '../../components/text-field';
import { api } from '../../lib/api-client';
import { getPublicConfig, type PublicConfig } from '../../lib/public-config';
import { faq } from './faq';

const hours = [
  { days: 'Monday - Friday', time: '9:00 AM - 6:00 PM' },
  { days: 'Saturday', time: '10:00 AM - 4:00 PM' },
  { days: 'Sunday', time: 'Closed' },
];

type FormState = 'idle' | 'sending' | 'success' | 'error';
const empty = { name: '', email: '', subject: '', message: '' };

export function Component() {
  const [support, setSupport] = useState<PublicConfig['support'] | null>(null);
  const [chatNote, setChatNote] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    getPublicConfig()
      .then((config) => setSupport(config.support))
      .catch(() => setSupport(null));
  }, []);

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
            <dl className="mt-4 space-y-4 text-sm">
              <div>
                <dt className="font-medium text-slate-600">Email</dt>
                <dd className="mt-1 min-h-6">
                  {support ? (
                    <a
                      href={`mailto:${support.email}`}
                      className="font-semibold text-brand-700 underline-offset-2 hover:underline"
                    >
                      {support.email}
                    </a>
                  ) : (
                    <span className="text-slate-600">Loading…</span>
                  )}
                </dd>
              </div>
              <div>
                <dt className="font-medium text-slate-600">Phone</dt>
                <dd className="mt-1 min-h-6">
                  {support ? (
                    <a
                      href={`tel:${support.phone.replace(/[^\d+]/g, '')}`}
                      className="font-semibold text-brand-700 underline-offset-2 hover:underline"
                    >
                      {support.phone}
                    </a>
                  ) : (
                    <span className="text-slate-600">Loading…</span>
                  )}
                </dd>
              </div>
            </dl>
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

function ContactForm({ nameRef }: { nameRef: React.RefObject<HTMLInputElement | null> }) {
  const [fields, setFields] = useState(empty);
  const [state, setState] = useState<FormState>('idle');
  const [problem, setProblem] = useState('');

  const update = (name: keyof typeof empty) => (event: { target: { value: string } }) =>
    setFields((current) => ({ ...current, [name]: event.target.value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem('');
    if (!fields.name.trim() || !fields.email.trim() || !fields.message.trim()) {
      setProblem(messages.fillAllFields);
      return;
    }
    if (!fields.subject) {
      setProblem('Please choose a subject');
      return;
    }
    setState('sending');
    try {
      await api('/api/contact', { method: 'POST', body: fields });
      setFields(empty);
      setState('success');
    } catch {
      setState('error');
    }
  };

  return (
    <section
      aria-labelledby="form-heading"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 lg:col-span-2"
    >
      <h2 id="form-heading" className="text-lg font-semibold text-slate-900">
        Send us a message
      </h2>
      <form noValidate onSubmit={onSubmit} className="mt-6 space-y-5">
        {state === 'success' ? <StatusMessage>{messages.contactSuccess}</StatusMessage> : null}
        {state === 'error' ? <ErrorMessage>{messages.contactError}</ErrorMessage> : null}
        {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            ref={nameRef}
            label="Name"
            name="name"
            autoComplete="name"
            value={fields.name}
            onChange={update('name')}
          />
          <TextField
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            value={fields.email}
            onChange={update('email')}
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
        />
        <Button type="submit" size="lg" busy={state === 'sending'} disabled={state === 'sending'}>
          {state === 'sending' ? 'Sending…' : 'Send Message'}
        </Button>
      </form>
    </section>
  );
}
