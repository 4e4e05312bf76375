/**
 * How lessons are offered: their lengths, how often they start, notice, horizon, buffer, who
 * confirms, the trial lesson and the lesson packages. Folded on a phone, it says the lengths and
 * who confirms.
 */
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { formatLocale } from '../../../shared/format-locale';
import {
  CANCELLATION_WINDOW_HOURS,
  LATE_CANCEL_FEE_PERCENTS,
  policySentence,
} from '../../../shared/lessons/cancellation-policy';
import {
  LESSON_LENGTHS,
  MAX_BOOKING_HORIZON_DAYS,
  MAX_BUFFER_MINUTES,
  MAX_MINIMUM_NOTICE_HOURS,
  SLOT_STEPS,
} from '../../../shared/lessons/lesson-constants';
import { MAX_PACKAGE_DISCOUNT, MAX_PACKAGE_OFFERS, PACKAGE_SIZES } from '../../../shared/lessons/packages';
import { Button } from '../../components/button';
import { ChoiceGroup } from '../../components/choice-group';
import { FoldingSection } from '../../components/fold';
import { SelectField, TextField } from '../../components/text-field';
import { translated } from '../../lib/i18n';
import { type Draft, type DraftChange, type NumberSetting, newId } from './availability-draft';

function BookingMode({
  instant,
  value,
  title,
  children,
  change,
  checked,
}: {
  instant: boolean;
  value: string;
  title: string;
  children: ReactNode;
  change: (change: DraftChange) => void;
  checked: boolean;
}) {
  const id = `booking-mode-${value}`;
  return (
    <div className="flex gap-3 rounded-lg border border-slate-200 p-3 has-checked:border-brand-600 has-checked:bg-brand-50">
      <input
        id={id}
        type="radio"
        name="instantBooking"
        value={value}
        checked={checked}
        onChange={() => change({ type: 'instantBooking', instant })}
        aria-describedby={`${id}-description`}
        className="mt-1 size-4 shrink-0 accent-brand-700"
      />
      <div>
        <label htmlFor={id} className="font-medium text-slate-900">
          {title}
        </label>
        <p id={`${id}-description`} className="text-sm text-slate-700">
          {children}
        </p>
      </div>
    </div>
  );
}

export function BookingSettings({ draft, change }: { draft: Draft; change: (change: DraftChange) => void }) {
  const { t } = useLingui();
  const minutesLabel = (minutes: number) => t`${plural(minutes, { one: '# minute', other: '# minutes' })}`;
  const number = (setting: NumberSetting) => ({
    name: setting,
    inputMode: 'numeric' as const,
    value: draft[setting],
    onChange: (event: { target: { value: string } }) =>
      change({ type: 'number', setting, text: event.target.value }),
  });
  // Folded on a phone, the section says what lessons are offered and who confirms them.
  const lengths = [...draft.lessonMinutes].sort((a, b) => a - b);
  const lengthList = new Intl.ListFormat(formatLocale(), { type: 'unit', style: 'short' }).format(
    lengths.map((minutes) => new Intl.NumberFormat(formatLocale()).format(minutes)),
  );
  const summary = [
    lengths.length ? t`${lengthList}-minute lessons` : t`No lesson length chosen`,
    draft.instantBooking ? t`booked at once` : t`requests you accept`,
    ...(draft.trialOffered ? [t`a trial lesson`] : []),
  ].join(' · ');
  const maxNotice = MAX_MINIMUM_NOTICE_HOURS;
  const maxHorizon = MAX_BOOKING_HORIZON_DAYS;
  const maxBuffer = MAX_BUFFER_MINUTES;
  const currency = draft.currency;
  const policy = policySentence(draft, translated);
  return (
    <FoldingSection
      headingId="settings-heading"
      title={t`Booking settings`}
      summary={summary}
      bodyClassName="mt-6 space-y-6"
    >
      <ChoiceGroup legend={t`Lesson lengths offered`} name="lessonMinutes" id="lessonMinutes">
        <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
          {LESSON_LENGTHS.map((minutes) => (
            <label key={minutes} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                name="lessonMinutes"
                value={minutes}
                checked={draft.lessonMinutes.includes(minutes)}
                onChange={(event) => change({ type: 'lessonLength', minutes, offered: event.target.checked })}
                className="size-4 accent-brand-700"
              />
              {minutesLabel(minutes)}
            </label>
          ))}
        </div>
      </ChoiceGroup>
      <div className="grid gap-5 sm:grid-cols-2">
        <SelectField
          label={t`Lessons start every`}
          name="slotStepMinutes"
          value={String(draft.slotStepMinutes)}
          onChange={(event) => {
            const step = SLOT_STEPS.find((minutes) => String(minutes) === event.target.value);
            if (step) change({ type: 'slotStep', minutes: step });
          }}
          hint={t`Counted from the start of each window.`}
        >
          {SLOT_STEPS.map((minutes) => (
            <option key={minutes} value={minutes}>
              {minutesLabel(minutes)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t`Minimum notice (hours)`}
          hint={t`How long before a lesson students must book it: 0 to ${maxNotice} hours.`}
          {...number('minimumNoticeHours')}
        />
        <TextField
          label={t`Booking horizon (days)`}
          hint={t`How far ahead students can book: 1 to ${maxHorizon} days.`}
          {...number('bookingHorizonDays')}
        />
        <TextField
          label={t`Buffer between lessons (minutes)`}
          hint={t`Kept free before and after each lesson: 0 to ${maxBuffer} minutes.`}
          {...number('bufferMinutes')}
        />
      </div>
      <ChoiceGroup legend={t`How students book`} name="instantBooking" id="instantBooking">
        <div className="mt-2 space-y-2">
          <BookingMode
            instant
            value="true"
            title={t`Instant booking`}
            checked={draft.instantBooking}
            change={change}
          >
            <Trans>A free time is booked at once, and you both get a confirmation.</Trans>
          </BookingMode>
          <BookingMode
            instant={false}
            value="false"
            title={t`Requests you accept`}
            checked={!draft.instantBooking}
            change={change}
          >
            <Trans>
              Each booking waits for you to accept or decline it. A request expires after 48 hours, or when
              the lesson would start if that comes first.
            </Trans>
          </BookingMode>
        </div>
      </ChoiceGroup>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label={t`Cancellation window`}
          name="cancellationWindowHours"
          value={String(draft.cancellationWindowHours)}
          onChange={(event) => change({ type: 'cancellationWindowHours', hours: Number(event.target.value) })}
          hint={t`Until then students cancel or move a lesson for free.`}
        >
          {CANCELLATION_WINDOW_HOURS.map((hours) => (
            <option key={hours} value={hours}>
              {hours === 0
                ? t`Until the lesson starts`
                : t`${plural(hours, { one: '# hour before', other: '# hours before' })}`}
            </option>
          ))}
        </SelectField>
        <SelectField
          label={t`Late cancellation fee`}
          name="lateCancelFeePercent"
          value={String(draft.lateCancelFeePercent)}
          onChange={(event) => change({ type: 'lateCancelFeePercent', percent: Number(event.target.value) })}
          hint={t`What a student pays when they cancel inside the window.`}
        >
          {LATE_CANCEL_FEE_PERCENTS.map((percent) => (
            <option key={percent} value={percent}>
              {percent === 0 ? t`No fee` : t`${percent}% of the price`}
            </option>
          ))}
        </SelectField>
        <p className="text-sm text-slate-700 sm:col-span-2" aria-live="polite">
          <Trans>
            Students see: {policy} It applies to lessons booked after you save; lessons already booked keep
            the policy they were booked under.
          </Trans>
        </p>
      </div>
      <ChoiceGroup legend={t`Trial lesson`} name="trialOffered" id="trialOffered">
        <label className="mt-2 flex items-start gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            name="trialOffered"
            checked={draft.trialOffered}
            onChange={(event) => change({ type: 'trialOffered', offered: event.target.checked })}
            className="mt-0.5 size-4 shrink-0 accent-brand-700"
          />
          <span>
            <Trans>
              Offer a 30-minute trial lesson. Each student can book one with you, before any other lesson.
            </Trans>
          </span>
        </label>
        {draft.trialOffered ? (
          <TextField
            label={t`Trial price (${currency})`}
            className="mt-3 max-w-xs"
            name="trial"
            inputMode="decimal"
            value={draft.trialPrice}
            onChange={(event) => change({ type: 'trialPrice', text: event.target.value })}
            hint={t`0 makes it free; at most half your hourly rate.`}
          />
        ) : null}
      </ChoiceGroup>
      <PackageOffers draft={draft} change={change} />
    </FoldingSection>
  );
}

/** Up to three packages: how many lessons, how long each, and the discount on them. */
function PackageOffers({ draft, change }: { draft: Draft; change: (change: DraftChange) => void }) {
  const { t } = useLingui();
  const sizes = new Intl.ListFormat(formatLocale(), { type: 'unit', style: 'short' }).format(
    PACKAGE_SIZES.map((size) => new Intl.NumberFormat(formatLocale()).format(size)),
  );
  const maxDiscount = MAX_PACKAGE_DISCOUNT;
  const maxOffers = MAX_PACKAGE_OFFERS;
  return (
    <fieldset id="packages" className="mt-6">
      <legend className="text-sm font-semibold text-slate-900">
        <Trans>Lesson packages</Trans>
      </legend>
      <p className="mt-1 text-sm text-slate-700">
        <Trans>
          Students pay for {sizes} lessons at once, at up to {maxDiscount}% off your price. Each lesson they
          book with you uses one. Up to {maxOffers} offers.
        </Trans>
      </p>
      <ul className="mt-3 space-y-3">
        {draft.packages.map((offer, index) => {
          const number = index + 1;
          return (
            <li
              key={offer.id}
              className="grid gap-3 rounded-lg border border-slate-200 p-3 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end"
            >
              <SelectField
                label={t`Package ${number}: lessons`}
                value={String(offer.lessons)}
                onChange={(event) =>
                  change({ type: 'changePackage', id: offer.id, lessons: Number(event.target.value) })
                }
              >
                {PACKAGE_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {t`${plural(size, { one: '# lesson', other: '# lessons' })}`}
                  </option>
                ))}
              </SelectField>
              <SelectField
                label={t`Package ${number}: length`}
                value={String(offer.minutes)}
                onChange={(event) =>
                  change({ type: 'changePackage', id: offer.id, minutes: Number(event.target.value) })
                }
              >
                {LESSON_LENGTHS.map((length) => (
                  <option key={length} value={length}>
                    {t`${plural(length, { one: '# minute', other: '# minutes' })}`}
                  </option>
                ))}
              </SelectField>
              <TextField
                label={t`Package ${number}: discount (%)`}
                name={`packages.${index}.discountPercent`}
                inputMode="numeric"
                value={offer.discount}
                onChange={(event) =>
                  change({ type: 'changePackage', id: offer.id, discount: event.target.value })
                }
              />
              <Button variant="secondary" onClick={() => change({ type: 'removePackage', id: offer.id })}>
                <Trans>
                  Remove<span className="sr-only"> package {number}</span>
                </Trans>
              </Button>
            </li>
          );
        })}
      </ul>
      {draft.packages.length < MAX_PACKAGE_OFFERS ? (
        <Button
          variant="secondary"
          className="mt-3"
          onClick={() => change({ type: 'addPackage', id: newId(), minutes: draft.lessonMinutes[0] ?? 60 })}
        >
          <Trans>Add a package</Trans>
        </Button>
      ) : null}
    </fieldset>
  );
}
