/**
 * Trial lessons: a tutor may offer a student one first lesson of TRIAL_MINUTES, free or at a price
 * up to what half an hour costs at their hourly rate. Plain rules shared by the server, which
 * decides, and the pages, which show the offer.
 */
import { formatAmount, minorDigits, minorPerUnit } from '../amounts';
import { english, type Say } from '../say';
import { TRIAL_MINUTES } from './lesson-constants';
import { lessonPriceCents } from './lesson-price';
import { PLANNED_STATUSES, TOOK_PLACE_STATUSES } from './lesson-states';

export interface TrialSetting {
  offered: boolean;
  /** What the trial costs, in the currency's minor unit; 0 is free. */
  priceCents: number;
}

/** The most a trial may cost at an hourly rate in whole units of `currency`: the half-hour price. */
export const maxTrialPriceCents = (hourlyRate: number | null, currency: string) =>
  lessonPriceCents(hourlyRate ?? 0, TRIAL_MINUTES, minorPerUnit(currency));

/**
 * What a trial costs now: the price the tutor set, but never more than the half-hour price at
 * their current rate (a tutor who lowers their rate after setting the trial's price does not make
 * the trial cost more than a regular half hour).
 */
export const trialPriceCents = (setting: TrialSetting, hourlyRate: number | null, currency: string) =>
  Math.min(setting.priceCents, maxTrialPriceCents(hourlyRate, currency));

/**
 * Why a trial price is refused, or null when it is fine: in the reader's words (`say`, ../say.ts),
 * the amount written for `locale`.
 */
export function trialPriceProblem(
  priceCents: number,
  hourlyRate: number | null,
  currency: string,
  say: Say = english,
  locale?: string,
): string | null {
  const max = maxTrialPriceCents(hourlyRate, currency);
  if (!Number.isInteger(priceCents) || priceCents < 0) {
    // What a price in the API is counted in: yen, cents, or the minor unit of a dinar.
    const digits = minorDigits(currency);
    if (digits === 0)
      return say(/*i18n*/ 'The trial price must be a whole number of {currency}, 0 (free) or more', {
        currency,
      });
    if (digits === 2)
      return say(/*i18n*/ 'The trial price must be a whole number of cents, 0 (free) or more');
    return say(
      /*i18n*/ 'The trial price must be a whole number of the minor unit of {currency}, 0 (free) or more',
      {
        currency,
      },
    );
  }
  if (priceCents > max)
    return max === 0
      ? say(/*i18n*/ 'Set your hourly rate before charging for a trial: until then it can only be free')
      : say(/*i18n*/ 'The trial price can be at most half your hourly rate: {max}', {
          max: formatAmount(max, currency, { locale }),
        });
  return null;
}

/**
 * The lesson statuses that use up a student's trial with a tutor, and that stand in the way of a
 * trial once they had any lesson with them: one that is planned or took place. A lesson that never
 * happened (cancelled, declined, expired) does not count.
 */
export const TRIAL_BLOCKING_STATUSES = [...PLANNED_STATUSES, ...TOOK_PLACE_STATUSES, 'no_show'] as const;

/** How a trial's price reads: "Free", or "$15". */
export const trialPriceLabel = (priceCents: number, currency: string) =>
  priceCents === 0 ? 'Free' : formatAmount(priceCents, currency);
