import { type ActionFunctionArgs, type LoaderFunctionArgs, useFetcher, useLoaderData } from 'react-router';
import {
  HOME_FIGURES,
  MAX_BUSINESS_HOURS_LENGTH,
  MAX_FIGURE_LENGTH,
  MAX_PAYMENT_INSTRUCTIONS_LENGTH,
  MAX_SUPPORT_PHONE_LENGTH,
  MAX_SUPPORT_REPLY_HOURS,
  MIN_SHOWN_COUNT,
} from '../../../shared/settings/site-settings';
import { CardSection } from '../../components/card';
import { ActionForm, FormAnswerMessage, SubmitButton } from '../../components/form';
import { TextArea, TextField } from '../../components/text-field';
import { ApiError } from '../../lib/api';
import { check, type FormAnswer, formValues, loadFormChecks, refused } from '../../lib/forms';
import { usePaymentsConfig } from '../../lib/payments-config';
import { reloadPublicConfig } from '../../lib/public-config';
import { type AdminSettings, changeSettings, fetchSettings, type SettingsChange } from './admin-data';
import { AdminLayout } from './admin-layout';
import { Catalogue } from './admin-settings-catalogue';
import { HourlyRateRangeForm, rangeFrom } from './admin-settings-rates';

export const loader = ({ request }: LoaderFunctionArgs) => fetchSettings(request.signal);

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
    case 'hourly-rates': {
      const range = rangeFrom(values);
      if (!('min' in range)) return range;
      return save(
        { hourlyRateRange: range },
        (changed) =>
          changed.length
            ? 'The hourly rates are saved: a tutor’s next change of rate must be within them.'
            : 'These hourly rates are already the ones in effect.',
        'min',
      );
    }
    case 'default-rates':
      return save({ hourlyRateRange: null }, () => 'Tutors’ hourly rates take the default range now.');
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
  const { currency } = usePaymentsConfig();
  return (
    <AdminLayout
      title="Site settings"
      intro="What visitors see of your school: the home page’s figures, how to reach you and how soon you reply, how to pay you by transfer, the hourly rates tutors may ask, and the subjects tutors choose from. Every change is written to the audit log."
    >
      <div className="space-y-6">
        <FiguresForm figures={settings.homeFigures} counts={settings.homeCounts} />
        <SupportForm support={settings.support} />
        <ReplyTimeForm hours={settings.supportReplyHours} />
        <PaymentInstructionsForm
          instructions={settings.paymentInstructions}
          written={settings.paymentInstructionsSet}
        />
        <HourlyRateRangeForm
          range={settings.hourlyRateRange}
          set={settings.hourlyRateRangeSet}
          currency={currency}
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
