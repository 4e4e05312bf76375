/**
 * The site settings' range of hourly rates tutors may ask, in whole units of the school's currency:
 * the currency's default (5 to 500, or 500 to 50,000 in one without minor digits such as yen) until
 * an admin sets another. Rates already saved outside a new range stay; the next change of a
 * profile's rate must be within it.
 */
import { useFetcher } from 'react-router';
import { hourlyRateRangeLabel } from '../../../shared/settings/site-settings';
import { CardSection } from '../../components/card';
import { ActionForm, FormAnswerMessage, SubmitButton } from '../../components/form';
import { TextField } from '../../components/text-field';
import type { FormAnswer } from '../../lib/forms';
import { translated } from '../../lib/i18n';
import type { AdminSettings } from './admin-data';

/** The two ends as typed: whole numbers above zero, or the problem in the form's words. */
export function rangeFrom(values: Record<string, unknown>): FormAnswer | { min: number; max: number } {
  const [min, max] = [values.min, values.max].map((value) => String(value ?? '').trim());
  const whole = (text: string | undefined) => text !== undefined && /^[1-9]\d{0,7}$/.test(text);
  const problem = (field: 'min' | 'max', message: string): FormAnswer => ({
    problem: { message, fields: { [field]: message } },
  });
  if (!whole(min)) return problem('min', 'Enter the lowest rate as a whole number above zero.');
  if (!whole(max)) return problem('max', 'Enter the highest rate as a whole number above zero.');
  if (Number(min) >= Number(max)) return problem('max', 'The highest rate must be above the lowest.');
  return { min: Number(min), max: Number(max) };
}

export function HourlyRateRangeForm({
  range,
  set,
  currency,
}: {
  range: AdminSettings['hourlyRateRange'];
  set: boolean;
  currency: string;
}) {
  const fetcher = useFetcher<FormAnswer>();
  return (
    <CardSection title="Hourly rates">
      <p className="-mt-2 mb-4 text-sm text-slate-700">
        The hourly rates tutors may ask, in whole {currency}, now{' '}
        {hourlyRateRangeLabel(range, currency, translated)}
        {set ? '' : ' (the default for your currency)'}. A tutor whose rate is outside a new range keeps it
        until they change it.
      </p>
      <ActionForm fetcher={fetcher} className="space-y-4">
        <FormAnswerMessage />
        {/* Drawn anew when the range in effect changes: back to the default shows the default. */}
        <div key={`${range.min}-${range.max}`} className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={`Lowest rate (${currency})`}
            name="min"
            inputMode="numeric"
            autoComplete="off"
            defaultValue={String(range.min)}
          />
          <TextField
            label={`Highest rate (${currency})`}
            name="max"
            inputMode="numeric"
            autoComplete="off"
            defaultValue={String(range.max)}
          />
        </div>
        <div className="flex flex-wrap gap-3">
          <SubmitButton name="intent" value="hourly-rates" busyLabel="Saving…">
            Save hourly rates
          </SubmitButton>
          {set ? (
            <SubmitButton name="intent" value="default-rates" variant="secondary">
              Use the default range
            </SubmitButton>
          ) : null}
        </div>
      </ActionForm>
    </CardSection>
  );
}
