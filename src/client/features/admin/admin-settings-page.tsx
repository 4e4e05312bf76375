import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { type ActionFunctionArgs, type LoaderFunctionArgs, useFetcher, useLoaderData } from 'react-router';
import { formatLocale } from '../../../shared/format-locale';
import { isLanguage, LANGUAGES } from '../../../shared/languages';
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
import { SelectField, TextArea, TextField } from '../../components/text-field';
import { ApiError } from '../../lib/api';
import { check, type FormAnswer, formValues, loadFormChecks, refused } from '../../lib/forms';
import { i18n, translated } from '../../lib/i18n';
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

/** A text of the actions below, in the page's language. */
const said = (descriptor: MessageDescriptor) => i18n._(descriptor);

export async function action({ request: submitted }: ActionFunctionArgs): Promise<FormAnswer> {
  const checks = await loadFormChecks();
  const values = await formValues(submitted);
  switch (values.intent) {
    case 'figures': {
      const form = check(checks.homeFiguresForm, values);
      if (form.problem) return form;
      return save({ homeFigures: form.data }, (changed) =>
        changed.length
          ? said(msg`The figures are saved: the home page shows them now.`)
          : said(msg`These figures are already the ones shown.`),
      );
    }
    case 'real-counts':
      return save({ homeFigures: null }, () => said(msg`The home page shows the school’s real counts now.`));
    case 'reply-time': {
      const form = check(checks.supportReplyForm, values);
      if (form.problem) return form;
      const hours = form.data.supportReplyHours;
      return save({ supportReplyHours: hours }, (changed) =>
        !changed.length
          ? said(msg`This reply time is already the one shown.`)
          : hours === null
            ? said(msg`No reply time is promised now.`)
            : said(
                msg`The reply time is saved: the contact page, support conversations and contact mails say it now.`,
              ),
      );
    }
    case 'payment-instructions': {
      const form = check(checks.paymentInstructionsForm, values);
      if (form.problem) return form;
      return save({ paymentInstructions: form.data.paymentInstructions }, (changed) =>
        changed.length
          ? said(msg`The payment instructions are saved: every bank-transfer top-up shows them now.`)
          : said(msg`These payment instructions are already the ones shown.`),
      );
    }
    case 'default-instructions':
      return save({ paymentInstructions: null }, () =>
        said(msg`Bank-transfer top-ups show the default instructions now.`),
      );
    case 'hourly-rates': {
      const range = rangeFrom(values);
      if (!('min' in range)) return range;
      return save(
        { hourlyRateRange: range },
        (changed) =>
          changed.length
            ? said(msg`The hourly rates are saved: a tutor’s next change of rate must be within them.`)
            : said(msg`These hourly rates are already the ones in effect.`),
        'min',
      );
    }
    case 'default-rates':
      return save({ hourlyRateRange: null }, () =>
        said(msg`Tutors’ hourly rates take the default range now.`),
      );
    case 'default-language': {
      const chosen = String(values.defaultLanguage ?? '');
      const language = isLanguage(chosen) ? chosen : null;
      return save(
        { defaultLanguage: language },
        (changed) =>
          !changed.length
            ? said(msg`This is already the default language.`)
            : language === null
              ? said(
                  msg`The site speaks the server’s default language now to visitors who have not chosen one.`,
                )
              : said(
                  msg`The default language is saved: visitors who have not chosen a language see the site in it now.`,
                ),
        'defaultLanguage',
      );
    }
    case 'support': {
      const form = check(checks.supportForm, values);
      if (form.problem) return form;
      return save({ support: form.data }, (changed) =>
        changed.length
          ? said(
              msg`The support details are saved: the contact page shows them now, and contact messages go to this address.`,
            )
          : said(msg`These support details are already the ones shown.`),
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
            ? said(msg`${name} is offered again in ${category}.`)
            : said(msg`${name} is added to ${category}: tutors can choose it now.`),
        'name',
      );
    }
  }
}

export function Component() {
  const settings = useLoaderData<typeof loader>();
  const { currency } = usePaymentsConfig();
  const { t } = useLingui();
  return (
    <AdminLayout
      title={t`Site settings`}
      intro={t`What visitors see of your school: the home page’s figures, how to reach you and how soon you reply, how to pay you by transfer, the hourly rates tutors may ask, and the subjects tutors choose from. Every change is written to the audit log.`}
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
        <DefaultLanguageForm language={settings.defaultLanguage} set={settings.defaultLanguageSet} />
        <Catalogue subjects={settings.subjects} />
      </div>
    </AdminLayout>
  );
}

/** "Students helped 12": a count as the intro says it, after its figure's label. */
const countSaid = (count: number, label: string) =>
  `${label} ${new Intl.NumberFormat(formatLocale()).format(count)}`;

/** "Students helped 12, Expert tutors 3": the counts as a list, the way the page's language writes one. */
const listSaid = (parts: string[]) =>
  new Intl.ListFormat(formatLocale(), { style: 'short', type: 'unit' }).format(parts);

function FiguresForm({
  figures,
  counts,
}: {
  figures: AdminSettings['homeFigures'];
  counts: AdminSettings['homeCounts'];
}) {
  const fetcher = useFetcher<FormAnswer>();
  const { t } = useLingui();
  const real = listSaid(HOME_FIGURES.map(({ key, label }) => countSaid(counts[key], translated(label))));
  const least = new Intl.NumberFormat(formatLocale()).format(MIN_SHOWN_COUNT);
  return (
    <CardSection title={t`Home page figures`}>
      <div className="-mt-2 mb-4 space-y-2 text-sm text-slate-700">
        <p>
          {figures
            ? t`The three numbers under the home page’s welcome, written as it shows them, such as 10,000+.`
            : t`Until you save figures, the home page shows the school’s real counts, each once it reaches ${least}: students who took a lesson, verified tutors, and lessons that took place.`}
        </p>
        <p>
          <Trans>Counted now: {real}.</Trans>
        </p>
      </div>
      {/* The button pressed says what to do (Enter in a field presses the first, Save figures). */}
      <ActionForm fetcher={fetcher} className="space-y-4">
        <FormAnswerMessage />
        <div className="grid gap-4 sm:grid-cols-3">
          {HOME_FIGURES.map(({ key, label }) => (
            <TextField
              // Drawn anew when the saved figure changes: back to the counts empties the fields.
              key={`${key}:${figures?.[key] ?? ''}`}
              label={translated(label)}
              name={key}
              defaultValue={figures?.[key] ?? ''}
              maxLength={MAX_FIGURE_LENGTH}
              autoComplete="off"
            />
          ))}
        </div>
        <div className="flex flex-wrap gap-3">
          <SubmitButton name="intent" value="figures" busyLabel={t`Saving…`}>
            <Trans>Save figures</Trans>
          </SubmitButton>
          {figures ? (
            <SubmitButton name="intent" value="real-counts" variant="secondary">
              <Trans>Show the real counts instead</Trans>
            </SubmitButton>
          ) : null}
        </div>
      </ActionForm>
    </CardSection>
  );
}

function SupportForm({ support }: { support: AdminSettings['support'] }) {
  const fetcher = useFetcher<FormAnswer>();
  const { t } = useLingui();
  return (
    <CardSection title={t`Support details`}>
      <p className="-mt-2 mb-4 text-sm text-slate-700">
        <Trans>
          Shown on the contact page. Messages sent with its form are mailed to this email address.
        </Trans>
      </p>
      <ActionForm fetcher={fetcher} className="space-y-4">
        <input type="hidden" name="intent" value="support" />
        <FormAnswerMessage />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t`Support email`}
            name="email"
            type="email"
            defaultValue={support.email}
            autoComplete="off"
          />
          <TextField
            label={t`Support phone`}
            name="phone"
            type="tel"
            defaultValue={support.phone}
            maxLength={MAX_SUPPORT_PHONE_LENGTH}
            autoComplete="off"
          />
        </div>
        <TextField
          label={t`Business hours`}
          name="hours"
          defaultValue={support.hours}
          maxLength={MAX_BUSINESS_HOURS_LENGTH}
          hint={t`Days and times, separated by commas: each part is a line on the contact page, such as Mon-Fri 9-6, Sat 10-4, Sun closed.`}
          autoComplete="off"
        />
        <SubmitButton busyLabel={t`Saving…`}>
          <Trans>Save support details</Trans>
        </SubmitButton>
      </ActionForm>
    </CardSection>
  );
}

function ReplyTimeForm({ hours }: { hours: number | null }) {
  const fetcher = useFetcher<FormAnswer>();
  const { t } = useLingui();
  const most = MAX_SUPPORT_REPLY_HOURS;
  return (
    <CardSection title={t`Support reply time`}>
      <p className="-mt-2 mb-4 text-sm text-slate-700">
        <Trans>
          How soon your team answers a message. Once set, the contact page, support conversations and the
          contact form’s mails promise it; left empty, nothing is promised.
        </Trans>
      </p>
      <ActionForm fetcher={fetcher} className="space-y-4">
        <input type="hidden" name="intent" value="reply-time" />
        <FormAnswerMessage />
        <TextField
          label={t`Reply within (hours)`}
          name="supportReplyHours"
          inputMode="numeric"
          defaultValue={hours === null ? '' : String(hours)}
          hint={t`A whole number of hours, 1 to ${most} (a week), such as 24. Empty: no promise.`}
          autoComplete="off"
          className="sm:max-w-xs"
        />
        <SubmitButton busyLabel={t`Saving…`}>
          <Trans>Save reply time</Trans>
        </SubmitButton>
      </ActionForm>
    </CardSection>
  );
}

function PaymentInstructionsForm({ instructions, written }: { instructions: string; written: boolean }) {
  const fetcher = useFetcher<FormAnswer>();
  const { t } = useLingui();
  return (
    <CardSection title={t`Payment instructions`}>
      <p className="-mt-2 mb-4 text-sm text-slate-700">
        {written
          ? t`Shown to a student with each bank-transfer top-up, under its reference, with a link to message support.`
          : t`Shown to a student with each bank-transfer top-up, under its reference, with a link to message support. These are the default ones: write your bank details (or where to pay) in their place.`}
      </p>
      {/* The button pressed says what to do (Enter in the text box makes a new line). */}
      <ActionForm fetcher={fetcher} className="space-y-4">
        <FormAnswerMessage />
        <TextArea
          // Drawn anew when the text in effect changes: back to the default shows the default.
          key={instructions}
          label={t`How to pay by transfer`}
          name="paymentInstructions"
          rows={6}
          defaultValue={instructions}
          limit={MAX_PAYMENT_INSTRUCTIONS_LENGTH}
          hint={t`Bank name, account holder, IBAN or account number, and anything else the student needs. Line breaks are kept. Students are asked to put their top-up’s reference on the transfer.`}
        />
        <div className="flex flex-wrap gap-3">
          <SubmitButton name="intent" value="payment-instructions" busyLabel={t`Saving…`}>
            <Trans>Save payment instructions</Trans>
          </SubmitButton>
          {written ? (
            <SubmitButton name="intent" value="default-instructions" variant="secondary">
              <Trans>Use the default instructions</Trans>
            </SubmitButton>
          ) : null}
        </div>
      </ActionForm>
    </CardSection>
  );
}

/**
 * The language the site speaks to a visitor who has not chosen one (no saved language, no `lang`
 * cookie, no language of theirs in the browser's list): one of LANGUAGES, each named in its own
 * language, or the server's own default (DEFAULT_LANGUAGE) again.
 */
function DefaultLanguageForm({
  language,
  set,
}: {
  language: AdminSettings['defaultLanguage'];
  set: boolean;
}) {
  const fetcher = useFetcher<FormAnswer>();
  const { t } = useLingui();
  const name = LANGUAGES.find((known) => known.code === language)?.name ?? language;
  return (
    <CardSection title={t`Default language`}>
      <p className="-mt-2 mb-4 text-sm text-slate-700">
        {set ? (
          <Trans>
            The language the site speaks to visitors who have not chosen one and whose browser asks for none
            of its languages, now <bdi lang={language}>{name}</bdi>. Each person can still choose their own.
          </Trans>
        ) : (
          <Trans>
            The language the site speaks to visitors who have not chosen one and whose browser asks for none
            of its languages, now the server’s default: <bdi lang={language}>{name}</bdi>. Each person can
            still choose their own.
          </Trans>
        )}
      </p>
      <ActionForm fetcher={fetcher} className="space-y-4">
        <input type="hidden" name="intent" value="default-language" />
        <FormAnswerMessage />
        <SelectField
          // Drawn anew when the language in effect changes: back to the server's shows its choice.
          key={`${set}-${language}`}
          label={t`Default language`}
          name="defaultLanguage"
          defaultValue={set ? language : ''}
          className="sm:max-w-xs"
        >
          <option value="">{t`The server’s default (DEFAULT_LANGUAGE)`}</option>
          {LANGUAGES.map((known) => (
            <option key={known.code} value={known.code} lang={known.code}>
              {known.name}
            </option>
          ))}
        </SelectField>
        <SubmitButton busyLabel={t`Saving…`}>
          <Trans>Save default language</Trans>
        </SubmitButton>
      </ActionForm>
    </CardSection>
  );
}
