/**
 * /admin/settings: what visitors see of the school, edited by its admins. The home page's three
 * figures (the school's real counts until set), how to reach support (email, phone, business
 * hours), how soon support replies (no promise until set), what a bank-transfer top-up tells the
 * student to do (PAYMENT_INSTRUCTIONS, or the product's text, until written) and the subject
 * catalogue tutors choose from: subjects added to a category, retired (kept on the profiles that list them, offered to
 * nobody new) and restored. Every change goes to the audit log; this tab's pages show it at once.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { type ActionFunctionArgs, type LoaderFunctionArgs, useFetcher, useLoaderData } from 'react-router';
import { SUBJECT_CATEGORIES } from '../../../shared/constants';
import {
  HOME_FIGURES,
  MAX_BUSINESS_HOURS_LENGTH,
  MAX_FIGURE_LENGTH,
  MAX_PAYMENT_INSTRUCTIONS_LENGTH,
  MAX_SUPPORT_PHONE_LENGTH,
  MAX_SUPPORT_REPLY_HOURS,
  MIN_SHOWN_COUNT,
} from '../../../shared/settings/site-settings';
import { MAX_SUBJECT_NAME_LENGTH } from '../../../shared/tutor-catalog';
import { Button } from '../../components/button';
import { CardSection } from '../../components/card';
import { ActionForm, FormAnswerMessage, SubmitButton } from '../../components/form';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { SelectField, TextArea, TextField } from '../../components/text-field';
import { ApiError } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { check, type FormAnswer, formValues, loadFormChecks, refused } from '../../lib/forms';
import { reloadPublicConfig } from '../../lib/public-config';
import { type AdminSettings, changeSettings, fetchSettings, type SettingsChange } from './admin-data';
import { AdminLayout, EmptyState } from './admin-layout';

export const loader = ({ request }: LoaderFunctionArgs) => fetchSettings(request.signal);

type Subject = AdminSettings['subjects'][number];

/**
 * Sends a change; then this tab's pages carry it (the server's own pages already do). A refusal
 * marks the field it names ("support.email" is the form's "email"), else `refusedField` when the
 * server refused the input (400) without naming one.
 */
async function save(
  change: SettingsChange,
  done: (changed: string[]) => string,
  refusedField?: string,
): Promise<FormAnswer> {
  try {
    const { changed } = await changeSettings(change);
    await reloadPublicConfig().catch(() => {});
    return { done: done(changed) };
  } catch (error) {
    const answer = refused(error);
    const field =
      error instanceof ApiError
        ? (error.field?.split('.').at(-1) ?? (error.status === 400 ? refusedField : undefined))
        : undefined;
    if (field) answer.problem.fields[field] = answer.problem.message;
    return answer;
  }
}

export async function action({ request: submitted }: ActionFunctionArgs): Promise<FormAnswer> {
  const checks = await loadFormChecks();
  const values = await formValues(submitted);
  switch (values.intent) {
    case 'figures': {
      const form = check(checks.homeFiguresForm, values);
      if (form.problem) return form;
      return save({ homeFigures: form.data }, (changed) =>
        changed.length
          ? 'The figures are saved: the home page shows them now.'
          : 'These figures are already the ones shown.',
      );
    }
    case 'real-counts':
      return save({ homeFigures: null }, () => 'The home page shows the school’s real counts now.');
    case 'reply-time': {
      const form = check(checks.supportReplyForm, values);
      if (form.problem) return form;
      const hours = form.data.supportReplyHours;
      return save({ supportReplyHours: hours }, (changed) =>
        !changed.length
          ? 'This reply time is already the one shown.'
          : hours === null
            ? 'No reply time is promised now.'
            : 'The reply time is saved: the contact page, support conversations and contact mails say it now.',
      );
    }
    case 'payment-instructions': {
      const form = check(checks.paymentInstructionsForm, values);
      if (form.problem) return form;
      return save({ paymentInstructions: form.data.paymentInstructions }, (changed) =>
        changed.length
          ? 'The payment instructions are saved: every bank-transfer top-up shows them now.'
          : 'These payment instructions are already the ones shown.',
      );
    }
    case 'default-instructions':
      return save(
        { paymentInstructions: null },
        () => 'Bank-transfer top-ups show the default instructions now.',
      );
    case 'support': {
      const form = check(checks.supportForm, values);
      if (form.problem) return form;
      return save({ support: form.data }, (changed) =>
        changed.length
          ? 'The support details are saved: the contact page shows them now, and contact messages go to this address.'
          : 'These support details are already the ones shown.',
      );
    }
    default: {
      const form = check(checks.newSubjectForm, values);
      if (form.problem) return form;
      const { category, name } = form.data;
      // The server's refusals of a new subject are about its name: already there, or retired elsewhere.
      return save(
        { subjects: { add: [{ category, name }] } },
        (changed) =>
          changed.some((line) => line.startsWith('Subjects restored'))
            ? `${name} is offered again in ${category}.`
            : `${name} is added to ${category}: tutors can choose it now.`,
        'name',
      );
    }
  }
}

export function Component() {
  const settings = useLoaderData<typeof loader>();
  return (
    <AdminLayout
      title="Site settings"
      intro="What visitors see of your school: the home page’s figures, how to reach you and how soon you reply, how to pay you by transfer, and the subjects tutors choose from. Every change is written to the audit log."
    >
      <div className="space-y-6">
        <FiguresForm figures={settings.homeFigures} counts={settings.homeCounts} />
        <SupportForm support={settings.support} />
        <ReplyTimeForm hours={settings.supportReplyHours} />
        <PaymentInstructionsForm
          instructions={settings.paymentInstructions}
          written={settings.paymentInstructionsSet}
        />
        <Catalogue subjects={settings.subjects} />
      </div>
    </AdminLayout>
  );
}

/** "Students helped 12": a count as the intro says it, after its figure's label. */
const countSaid = (count: number, label: string) => `${label} ${count.toLocaleString('en-US')}`;

function FiguresForm({
  figures,
  counts,
}: {
  figures: AdminSettings['homeFigures'];
  counts: AdminSettings['homeCounts'];
}) {
  const fetcher = useFetcher<FormAnswer>();
  const real = HOME_FIGURES.map(({ key, label }) => countSaid(counts[key], label));
  return (
    <CardSection title="Home page figures">
      <div className="-mt-2 mb-4 space-y-2 text-sm text-slate-700">
        <p>
          {figures
            ? 'The three numbers under the home page’s welcome, written as it shows them, such as 10,000+.'
            : `Until you save figures, the home page shows the school’s real counts, each once it reaches ${MIN_SHOWN_COUNT}: students who took a lesson, verified tutors, and lessons that took place.`}
        </p>
        <p>Counted now: {real.join(', ')}.</p>
      </div>
      {/* The button pressed says what to do (Enter in a field presses the first, Save figures). */}
      <ActionForm fetcher={fetcher} className="space-y-4">
        <FormAnswerMessage />
        <div className="grid gap-4 sm:grid-cols-3">
          {HOME_FIGURES.map(({ key, label }) => (
            <TextField
              // Drawn anew when the saved figure changes: back to the counts empties the fields.
              key={`${key}:${figures?.[key] ?? ''}`}
              label={label}
              name={key}
              defaultValue={figures?.[key] ?? ''}
              maxLength={MAX_FIGURE_LENGTH}
              autoComplete="off"
            />
          ))}
        </div>
        <div className="flex flex-wrap gap-3">
          <SubmitButton name="intent" value="figures" busyLabel="Saving…">
            Save figures
          </SubmitButton>
          {figures ? (
            <SubmitButton name="intent" value="real-counts" variant="secondary">
              Show the real counts instead
            </SubmitButton>
          ) : null}
        </div>
      </ActionForm>
    </CardSection>
  );
}

function SupportForm({ support }: { support: AdminSettings['support'] }) {
  const fetcher = useFetcher<FormAnswer>();
  return (
    <CardSection title="Support details">
      <p className="-mt-2 mb-4 text-sm text-slate-700">
        Shown on the contact page. Messages sent with its form are mailed to this email address.
      </p>
      <ActionForm fetcher={fetcher} className="space-y-4">
        <input type="hidden" name="intent" value="support" />
        <FormAnswerMessage />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Support email"
            name="email"
            type="email"
            defaultValue={support.email}
            autoComplete="off"
          />
          <TextField
            label="Support phone"
            name="phone"
            type="tel"
            defaultValue={support.phone}
            maxLength={MAX_SUPPORT_PHONE_LENGTH}
            autoComplete="off"
          />
        </div>
        <TextField
          label="Business hours"
          name="hours"
          defaultValue={support.hours}
          maxLength={MAX_BUSINESS_HOURS_LENGTH}
          hint="Days and times, separated by commas: each part is a line on the contact page, such as Mon-Fri 9-6, Sat 10-4, Sun closed."
          autoComplete="off"
        />
        <SubmitButton busyLabel="Saving…">Save support details</SubmitButton>
      </ActionForm>
    </CardSection>
  );
}

function ReplyTimeForm({ hours }: { hours: number | null }) {
  const fetcher = useFetcher<FormAnswer>();
  return (
    <CardSection title="Support reply time">
      <p className="-mt-2 mb-4 text-sm text-slate-700">
        How soon your team answers a message. Once set, the contact page, support conversations and the
        contact form’s mails promise it; left empty, nothing is promised.
      </p>
      <ActionForm fetcher={fetcher} className="space-y-4">
        <input type="hidden" name="intent" value="reply-time" />
        <FormAnswerMessage />
        <TextField
          label="Reply within (hours)"
          name="supportReplyHours"
          inputMode="numeric"
          defaultValue={hours === null ? '' : String(hours)}
          hint={`A whole number of hours, 1 to ${MAX_SUPPORT_REPLY_HOURS} (a week), such as 24. Empty: no promise.`}
          autoComplete="off"
          className="sm:max-w-xs"
        />
        <SubmitButton busyLabel="Saving…">Save reply time</SubmitButton>
      </ActionForm>
    </CardSection>
  );
}

function PaymentInstructionsForm({ instructions, written }: { instructions: string; written: boolean }) {
  const fetcher = useFetcher<FormAnswer>();
  return (
    <CardSection title="Payment instructions">
      <p className="-mt-2 mb-4 text-sm text-slate-700">
        {written
          ? 'Shown to a student with each bank-transfer top-up, under its reference, with a link to message support.'
          : 'Shown to a student with each bank-transfer top-up, under its reference, with a link to message support. These are the default ones: write your bank details (or where to pay) in their place.'}
      </p>
      {/* The button pressed says what to do (Enter in the text box makes a new line). */}
      <ActionForm fetcher={fetcher} className="space-y-4">
        <FormAnswerMessage />
        <TextArea
          // Drawn anew when the text in effect changes: back to the default shows the default.
          key={instructions}
          label="How to pay by transfer"
          name="paymentInstructions"
          rows={6}
          defaultValue={instructions}
          limit={MAX_PAYMENT_INSTRUCTIONS_LENGTH}
          hint="Bank name, account holder, IBAN or account number, and anything else the student needs. Line breaks are kept. Students are asked to put their top-up’s reference on the transfer."
        />
        <div className="flex flex-wrap gap-3">
          <SubmitButton name="intent" value="payment-instructions" busyLabel="Saving…">
            Save payment instructions
          </SubmitButton>
          {written ? (
            <SubmitButton name="intent" value="default-instructions" variant="secondary">
              Use the default instructions
            </SubmitButton>
          ) : null}
        </div>
      </ActionForm>
    </CardSection>
  );
}

const tutorCount = (count: number) => (count === 1 ? '1 tutor' : `${count} tutors`);

/** The catalogue by category: add a subject, retire one, restore a retired one. */
function Catalogue({ subjects }: { subjects: Subject[] }) {
  const { busy, problem, run } = useApiAction();
  const [done, setDone] = useState<string | null>(null);
  const status = useRef<HTMLDivElement>(null);

  // The button pressed moves to the other list (or away): the focus goes to what happened instead.
  useEffect(() => {
    if (done || problem) status.current?.focus();
  }, [done, problem]);

  async function change(subject: Subject, retire: boolean) {
    setDone(null);
    const went = await run(async () => {
      await changeSettings(
        retire
          ? { subjects: { retire: [subject.name] } }
          : { subjects: { add: [{ category: subject.category, name: subject.name }] } },
      );
      await reloadPublicConfig().catch(() => {});
    });
    if (went)
      setDone(
        retire
          ? `${subject.name} is retired: the ${tutorCount(subject.tutors)} who teach it keep it; nobody else can choose it.`
          : `${subject.name} is offered again in ${subject.category}.`,
      );
  }

  return (
    <CardSection title="Subject catalogue">
      <p className="-mt-2 mb-4 text-sm text-slate-700">
        Tutors choose their subjects from this list, and students search by them. A retired subject stays on
        the profiles that have it (shown, searched and booked there), but nobody else can choose it.
      </p>
      <AddSubjectForm />
      <div ref={status} tabIndex={-1} className="mt-6 focus:outline-none">
        {problem ? (
          <ErrorMessage>{problem}</ErrorMessage>
        ) : done ? (
          <StatusMessage>{done}</StatusMessage>
        ) : null}
      </div>
      <div className="mt-4 grid gap-6 md:grid-cols-2">
        {SUBJECT_CATEGORIES.map((category) => (
          <CategorySubjects
            key={category}
            category={category}
            subjects={subjects.filter((subject) => subject.category === category)}
            busy={busy}
            onChange={change}
          />
        ))}
      </div>
    </CardSection>
  );
}

function CategorySubjects({
  category,
  subjects,
  busy,
  onChange,
}: {
  category: string;
  subjects: Subject[];
  busy: boolean;
  onChange: (subject: Subject, retire: boolean) => void;
}) {
  const headingId = useId();
  const offered = subjects.filter((subject) => !subject.retired);
  const retired = subjects.filter((subject) => subject.retired);
  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-xl border border-slate-200 p-4">
      <h3 id={headingId} className="font-semibold text-slate-900">
        {category}
      </h3>
      {offered.length === 0 ? (
        <div className="mt-3">
          <EmptyState>No subject is offered in {category}.</EmptyState>
        </div>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100">
          {offered.map((subject) => (
            <SubjectRow key={subject.name} subject={subject} busy={busy} onChange={onChange} />
          ))}
        </ul>
      )}
      {retired.length > 0 ? (
        <>
          <h4 className="mt-4 text-sm font-semibold text-slate-700">Retired</h4>
          <ul className="mt-1 divide-y divide-slate-100">
            {retired.map((subject) => (
              <SubjectRow key={subject.name} subject={subject} busy={busy} onChange={onChange} />
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function SubjectRow({
  subject,
  busy,
  onChange,
}: {
  subject: Subject;
  busy: boolean;
  onChange: (subject: Subject, retire: boolean) => void;
}) {
  return (
    <li className="flex items-center justify-between gap-3 py-2">
      <span className="min-w-0 break-words text-sm">
        <span className={subject.retired ? 'text-slate-700' : 'font-medium text-slate-900'}>
          {subject.name}
        </span>
        <span className="block text-xs text-slate-600">{tutorCount(subject.tutors)}</span>
      </span>
      <Button
        variant="secondary"
        className="shrink-0"
        aria-disabled={busy || undefined}
        onClick={() => {
          if (!busy) onChange(subject, !subject.retired);
        }}
      >
        {subject.retired ? 'Restore' : 'Retire'}
        <span className="sr-only"> {subject.name}</span>
      </Button>
    </li>
  );
}

function AddSubjectForm() {
  const fetcher = useFetcher<FormAnswer>();
  const form = useRef<HTMLFormElement>(null);

  // Added: the name is cleared for the next one, the category kept.
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data?.done || !form.current) return;
    const name = form.current.elements.namedItem('name');
    if (name instanceof HTMLInputElement) name.value = '';
  }, [fetcher.state, fetcher.data]);

  return (
    <ActionForm fetcher={fetcher} formRef={form} className="space-y-4 rounded-xl bg-slate-50 p-4">
      <input type="hidden" name="intent" value="add-subject" />
      <FormAnswerMessage />
      <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end">
        <SelectField label="Category" name="category" defaultValue={SUBJECT_CATEGORIES[0]}>
          {SUBJECT_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {category}
            </option>
          ))}
        </SelectField>
        <TextField label="New subject" name="name" maxLength={MAX_SUBJECT_NAME_LENGTH} autoComplete="off" />
        <SubmitButton busyLabel="Adding…">Add subject</SubmitButton>
      </div>
      <p className="text-sm text-slate-600">Adding a retired subject to its category offers it again.</p>
    </ActionForm>
  );
}
