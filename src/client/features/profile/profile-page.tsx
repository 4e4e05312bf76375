/**
 * /profile: the signed-in user's profile. Everyone edits their display name and time zone; a
 * student adds learning goals; a tutor builds the public profile students search (photo, headline,
 * about, subjects, rate, languages, experience) and sees what is still missing before it is public.
 * On a phone the long lists (subjects, languages) fold, each saying what is chosen, and Save stays
 * on the screen while there are changes to save.
 */

import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { InferResponseType } from 'hono/client';
import { useMemo, useRef } from 'react';
import { type ActionFunctionArgs, useFetcher, useLoaderData } from 'react-router';
import { formatUnits } from '../../../shared/amounts';
import { MAX_NAME_LENGTH, ROLE_LABELS } from '../../../shared/constants';
import * as messages from '../../../shared/messages';
import type { HourlyRateRange } from '../../../shared/settings/site-settings';
import {
  MAX_ABOUT_LENGTH,
  MAX_HEADLINE_LENGTH,
  MAX_LEARNING_GOALS_LENGTH,
  MAX_PHOTO_BYTES,
  MAX_YEARS_EXPERIENCE,
  SPOKEN_LANGUAGES,
  type SubjectCatalog,
  type TypicalHourlyRate,
} from '../../../shared/tutor-catalog';
import { CardSection } from '../../components/card';
import { ActionForm, FormAnswerMessage, SaveBar, SubmitButton, useUnsavedForm } from '../../components/form';
import { SelectField, TextArea, TextField } from '../../components/text-field';
import { api, request } from '../../lib/api';
import { check, type FormAnswer, formValues, loadFormChecks, refused } from '../../lib/forms';
import { i18n, translated } from '../../lib/i18n';
import { getPublicConfig } from '../../lib/public-config';
import { browserTimeZone, timeZoneOptions } from '../../lib/time-zones';
import { authStore, useAuth } from '../auth';
import { LanguageSelect } from '../navigation';
import { TwoFactorSettings } from '../two-factor';
import { AccountDataSection } from './account-data-section';
import { Choice, FoldingChoices } from './profile-choices';
import { PhotoEditor } from './profile-photo-editor';
import { PublicationChecklist } from './publication-checklist';
import { VerificationRequest } from './verification-request';

type ProfileDetails = InferResponseType<typeof api.profile.details.$get>;

/**
 * The profile, the subject catalogue in effect (which an admin edits) to choose from, and what most
 * listed tutors charge (null until enough are listed).
 */
export async function loader() {
  const [details, config, money] = await Promise.all([
    request(api.profile.details.$get()),
    getPublicConfig(),
    request(api.account['money-left'].$get()),
  ]);
  const typicalRate = config.typicalHourlyRate;
  const rates = { range: config.hourlyRateRange, currency: config.payments.currency };
  return { details, catalog: config.subjects, money, typicalRate, rates };
}

/** A photo chosen, or removed: the answer says which. */
async function changePhoto(form: FormData): Promise<FormAnswer> {
  const photo = form.get('photo');
  try {
    if (photo instanceof File) {
      if (photo.size > MAX_PHOTO_BYTES) {
        return {
          problem: { message: i18n._(msg`The photo must be at most 5 MB`), fields: { photo: 'too large' } },
        };
      }
      await request(
        api.profile.photo.$put(undefined, {
          init: { body: photo },
          headers: { 'Content-Type': photo.type || 'application/octet-stream' },
        }),
      );
      return { done: i18n._(msg`Your photo has been updated.`) };
    }
    await request(api.profile.photo.$delete());
    return { done: i18n._(msg`Your photo has been removed.`) };
  } catch (error) {
    return refused(error);
  }
}

export async function action({ request: submitted }: ActionFunctionArgs): Promise<FormAnswer> {
  if (submitted.headers.get('content-type')?.startsWith('multipart/form-data')) {
    return changePhoto(await submitted.formData());
  }
  const [checks, config] = await Promise.all([loadFormChecks(), getPublicConfig()]);
  const rates = { range: config.hourlyRateRange, currency: config.payments.currency };
  const values = await formValues(submitted, ['subjects', 'languages']);
  const tutor = authStore.getState().user?.role === 'tutor';
  const form = tutor
    ? check(checks.tutorProfileForm(rates), values)
    : check(checks.studentProfileForm, values);
  if (form.problem) return form;
  const { displayName, ...details } = form.data;
  try {
    if (displayName !== authStore.getState().user?.displayName)
      await authStore.updateDisplayName(displayName);
    const saved = await request(api.profile.details.$patch({ json: details }));
    // The rest of the app shows times in the zone the session says is saved.
    authStore.noteTimeZone(saved.timeZone);
    return { done: translated(messages.profileSaved) };
  } catch (error) {
    return refused(error);
  }
}

export function Component() {
  const { t } = useLingui();
  const { details, catalog, money, typicalRate, rates } = useLoaderData<typeof loader>();
  const auth = useAuth();
  const user = auth.status === 'signed-in' ? auth.user : null;
  const tutor = details.role === 'tutor' ? details : null;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-12">
      <title>{t`Your profile · Tutorlane`}</title>
      <header>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">
          <Trans>Your profile</Trans>
        </h1>
        {user ? (
          <p className="mt-2 text-slate-700">
            <bdi>{user.email}</bdi> · {translated(ROLE_LABELS[user.role])}
          </p>
        ) : null}
      </header>
      <div className="mt-8 space-y-8">
        {tutor ? <PublicationChecklist details={tutor} /> : null}
        {tutor && user?.emailVerified ? <VerificationRequest published={tutor.published} /> : null}
        {tutor ? <PhotoEditor details={tutor} /> : null}
        <ProfileForm details={details} catalog={catalog} typicalRate={typicalRate} rates={rates} />
        <CardSection title={t`Language`}>
          <p className="mb-3 text-sm text-slate-700">
            <Trans>Pages, mails and messages from Tutorlane come in this language.</Trans>
          </p>
          <LanguageSelect />
        </CardSection>
        <CardSection title={t`Two-factor authentication`}>
          <TwoFactorSettings />
        </CardSection>
        <AccountDataSection role={details.role} money={money} />
      </div>
    </div>
  );
}

function ProfileForm({
  details,
  catalog,
  typicalRate,
  rates,
}: {
  details: ProfileDetails;
  catalog: SubjectCatalog;
  typicalRate: TypicalHourlyRate | null;
  /** The hourly rates a tutor may ask (a site setting), in whole units of the school's currency. */
  rates: { range: HourlyRateRange; currency: string };
}) {
  const { t } = useLingui();
  const auth = useAuth();
  const fetcher = useFetcher<FormAnswer>();
  const form = useRef<HTMLFormElement>(null);
  const unsaved = useUnsavedForm(form, fetcher);
  const user = auth.status === 'signed-in' ? auth.user : null;
  const tutor = details.role === 'tutor' ? details : null;
  const zones = useMemo(() => timeZoneOptions(), []);
  const zone = details.timeZone ?? browserTimeZone();
  // Rates are in the school's currency, the one students pay in.
  const { currency } = rates;
  const low = formatUnits(rates.range.min, currency);
  const high = formatUnits(rates.range.max, currency);
  const typicalLow = typicalRate ? formatUnits(typicalRate.low, currency) : '';
  const typicalHigh = typicalRate ? formatUnits(typicalRate.high, currency) : '';
  const typical = !typicalRate
    ? ''
    : typicalRate.low === typicalRate.high
      ? ` ${t`Most tutors charge ${typicalLow} per hour.`}`
      : ` ${t`Most tutors charge ${typicalLow}-${typicalHigh} per hour.`}`;
  const maxHeadline = MAX_HEADLINE_LENGTH;
  const maxAbout = MAX_ABOUT_LENGTH;
  const maxYears = MAX_YEARS_EXPERIENCE;

  return (
    <ActionForm
      fetcher={fetcher}
      formRef={form}
      id={PROFILE_FORM}
      className="!mb-0 space-y-6 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
      // After the form, so that while it holds to the screen it does so over the sections below too.
      after={
        <SaveBar
          unsaved={unsaved}
          className="space-y-3"
          restingClassName="pt-4"
          heldClassName="-mx-4 px-4 py-3 sm:mx-0 sm:rounded-2xl sm:border-x sm:px-6"
        >
          <FormAnswerMessage />
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <SubmitButton size="lg" form={PROFILE_FORM}>
              <Trans>Save Profile</Trans>
            </SubmitButton>
            {unsaved ? (
              <p className="text-sm text-slate-700">
                <Trans>You have changes that are not saved yet.</Trans>
              </p>
            ) : null}
          </div>
        </SaveBar>
      }
    >
      <h2 className="text-lg font-semibold text-slate-900">
        {tutor ? <Trans>Your public profile</Trans> : <Trans>About you</Trans>}
      </h2>
      <TextField
        label={t`Display Name`}
        name="displayName"
        autoComplete="name"
        limit={MAX_NAME_LENGTH}
        defaultValue={user?.displayName ?? ''}
      />
      {tutor ? (
        <>
          <TextField
            label={t`Headline`}
            name="headline"
            limit={MAX_HEADLINE_LENGTH}
            hint={t`One line students see first (at most ${maxHeadline} characters).`}
            defaultValue={tutor.headline}
          />
          <TextArea
            label={t`About`}
            name="about"
            rows={6}
            limit={MAX_ABOUT_LENGTH}
            hint={t`How you teach and who you teach (at most ${maxAbout} characters).`}
            defaultValue={tutor.about}
          />
          <FoldingChoices legend={t`Subjects`} name="subjects" chosen={tutor.subjects}>
            <div className="mt-2 grid gap-4 sm:grid-cols-2">
              {catalog.map(({ category, offered, retired }) => (
                <fieldset key={category} className="rounded-lg border border-slate-200 p-3">
                  <legend className="px-1 text-sm font-semibold text-slate-900">
                    {translated(category)}
                  </legend>
                  <div className="grid grid-cols-2 gap-x-3 gap-y-1">
                    {offered.map((subject) => (
                      <Choice key={subject} name="subjects" value={subject} chosen={tutor.subjects} />
                    ))}
                    {/* A retired subject stays while the tutor keeps it; once unticked, it is gone. */}
                    {retired
                      .filter((subject) => tutor.subjects.includes(subject))
                      .map((subject) => (
                        <Choice
                          key={subject}
                          name="subjects"
                          value={subject}
                          chosen={tutor.subjects}
                          note={t`no longer offered`}
                        />
                      ))}
                  </div>
                </fieldset>
              ))}
            </div>
          </FoldingChoices>
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField
              label={t`Hourly rate (${currency})`}
              name="hourlyRate"
              inputMode="numeric"
              hint={`${t`Whole amounts, ${low} to ${high}.`}${typical}`}
              defaultValue={tutor.hourlyRate === null ? '' : String(tutor.hourlyRate)}
            />
            <TextField
              label={t`Years of experience`}
              name="yearsExperience"
              inputMode="numeric"
              hint={t`0-${maxYears}.`}
              defaultValue={tutor.yearsExperience === null ? '' : String(tutor.yearsExperience)}
            />
          </div>
          <FoldingChoices legend={t`Languages you teach in`} name="languages" chosen={tutor.languages}>
            <div className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 sm:grid-cols-4">
              {SPOKEN_LANGUAGES.map((language) => (
                <Choice key={language} name="languages" value={language} chosen={tutor.languages} />
              ))}
            </div>
          </FoldingChoices>
        </>
      ) : details.role === 'student' ? (
        <TextArea
          label={t`Learning goals`}
          name="learningGoals"
          rows={4}
          limit={MAX_LEARNING_GOALS_LENGTH}
          placeholder={t`What do you want to learn, and by when?`}
          defaultValue={details.learningGoals}
        />
      ) : null}
      <SelectField label={t`Time zone`} name="timeZone" defaultValue={zone}>
        {(zones.some((option) => option.value === zone)
          ? zones
          : [{ value: zone, label: zone }, ...zones]
        ).map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </SelectField>
      <div className="text-sm text-slate-800">
        <label className="flex items-center gap-3 font-medium">
          <input
            type="checkbox"
            name="messageMails"
            defaultChecked={details.messageMails}
            aria-describedby="message-mails-hint"
            className="size-4 rounded border-slate-300"
          />
          <Trans>Email me about unread messages</Trans>
        </label>
        <p id="message-mails-hint" className="mt-1 ps-7 text-slate-600">
          <Trans>One mail per conversation when a message has waited 10 minutes unread.</Trans>
        </p>
      </div>
      <fieldset aria-describedby="reminders-hint" className="text-sm text-slate-800">
        <legend className="font-medium text-slate-900">
          <Trans>Lesson reminders</Trans>
        </legend>
        <p id="reminders-hint" className="mt-1 text-slate-600">
          <Trans>Emails before each confirmed lesson, with the link to its room.</Trans>
        </p>
        <div className="mt-2 flex flex-col gap-1 sm:flex-row sm:gap-6">
          <label className="flex min-h-11 items-center gap-3 sm:min-h-0">
            <input
              type="checkbox"
              name="reminderDayBefore"
              defaultChecked={details.reminders.dayBefore}
              className="size-4 rounded border-slate-300"
            />
            <Trans>A day before</Trans>
          </label>
          <label className="flex min-h-11 items-center gap-3 sm:min-h-0">
            <input
              type="checkbox"
              name="reminderHourBefore"
              defaultChecked={details.reminders.hourBefore}
              className="size-4 rounded border-slate-300"
            />
            <Trans>An hour before</Trans>
          </label>
        </div>
      </fieldset>
    </ActionForm>
  );
}

const PROFILE_FORM = 'profile-form';
