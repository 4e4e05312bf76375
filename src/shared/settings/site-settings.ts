/**
 * What a school tells its visitors and an admin edits in the console's Site settings: the home
 * page's three figures (named in ../constants.ts, which the home page already loads), how to
 * reach support and how soon it answers, the hourly rates tutors may ask, with the product's defaults. No zod here: the contact
 * page reads this.
 */
import { formatUnits, minorDigits, minorPerUnit } from '../amounts';
import type { HomeFigureKey } from '../constants';
import { formatLocale } from '../format-locale';
import { LESSON_LENGTHS } from '../lessons/lesson-constants';
import { english, type Say } from '../say';

export { HOME_FIGURES, type HomeFigureKey, type HomeFigures } from '../constants';

/**
 * The home page's figures as it shows them: an admin's, or until an admin sets them, the school's
 * real counts. Null: not shown (a count below MIN_SHOWN_COUNT).
 */
export type ShownFigures = Record<HomeFigureKey, string | null>;

/** A real count is shown from this on: "3 students helped" says more about a school than it means to. */
export const MIN_SHOWN_COUNT = 10;

/** A real count as the home page shows it ("1,234" in English), or null below MIN_SHOWN_COUNT. */
export const countFigure = (count: number, locale = formatLocale()): string | null =>
  count >= MIN_SHOWN_COUNT ? new Intl.NumberFormat(locale).format(count) : null;

/** How to reach support. The email and phone default to SUPPORT_EMAIL and SUPPORT_PHONE. */
export interface SupportDetails {
  email: string;
  phone: string;
  /** Days and times, separated by commas: "Mon-Fri 9-6, Sat 10-4, Sun closed". */
  hours: string;
}

export const DEFAULT_BUSINESS_HOURS = 'Mon-Fri 9-6, Sat 10-4, Sun closed';

/** How soon support answers, in hours: a promise an admin makes, never a default one. */
export const MAX_SUPPORT_REPLY_HOURS = 168;

/** "24 hours", "1 hour": the reply time as the contact page and the mails say it. */
export const replyTimeLabel = (hours: number, say: Say = english) =>
  say(/*i18n*/ '{hours, plural, one {# hour} other {# hours}}', { hours });

/**
 * What a bank-transfer top-up tells the student to do (bank details, a cash desk), written by an
 * admin; until then PAYMENT_INSTRUCTIONS or the product's text.
 */
export const MAX_PAYMENT_INSTRUCTIONS_LENGTH = 2000;

export const MAX_FIGURE_LENGTH = 20;
export const MAX_SUPPORT_EMAIL_LENGTH = 254;
export const MAX_SUPPORT_PHONE_LENGTH = 40;
export const MAX_BUSINESS_HOURS_LENGTH = 120;
/** At most this many subjects added or retired in one change. */
export const MAX_SUBJECT_CHANGES = 50;

/** Business hours as the contact page lists them: one line per comma-separated part. */
export function businessHoursLines(hours: string): string[] {
  return hours
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The digits a phone link dials ("+1 (555) 010-0142" → "+15550100142"). */
export const phoneLink = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

/** No hourly rate above this, in any currency: the database keeps rates as 32-bit integers. */
export const MAX_HOURLY_RATE_UNITS = 10_000_000;

/** The largest value a 32-bit integer column (a lesson's price, a package's lesson price) holds. */
const INT4_MAX = 2 ** 31 - 1;

/**
 * The highest hourly rate a school's range may allow: the longest lesson's price at that rate, in
 * the currency's minor unit, must still fit the lessons' 32-bit price column (a dinar has a
 * thousand fils, so its ceiling is a tenth of a dollar's).
 */
export const maxHourlyRateUnits = (currency: string) =>
  Math.min(
    MAX_HOURLY_RATE_UNITS,
    Math.floor(INT4_MAX / (minorPerUnit(currency) * (Math.max(...LESSON_LENGTHS) / 60))),
  );

/** The hourly rates a tutor may ask, in whole units of the school's currency, both included. */
export interface HourlyRateRange {
  min: number;
  max: number;
}

/**
 * The range until an admin sets one: 5 to 500 in a currency with minor digits (dollars, euros,
 * dinars), 500 to 50,000 in one without (yen, won), where a unit is worth about a cent.
 */
export const defaultHourlyRateRange = (currency: string): HourlyRateRange =>
  minorDigits(currency) === 0 ? { min: 500, max: 50_000 } : { min: 5, max: 500 };

/** "$5 to $500", "¥500 to ¥50,000": a range as messages and the console say it (`say`: ../say.ts). */
export const hourlyRateRangeLabel = (
  range: HourlyRateRange,
  currency: string,
  say: Say = english,
  locale?: string,
) =>
  say(/*i18n*/ '{min} to {max}', {
    min: formatUnits(range.min, currency, locale),
    max: formatUnits(range.max, currency, locale),
  });

/** Why an hourly rate is refused: `{min}` and `{max}` the range's ends, in the school's currency. */
export const HOURLY_RATE_BETWEEN = /*i18n*/ 'Hourly rate must be between {min} and {max}';

/** "Hourly rate must be between ¥500 and ¥50,000": the range in the school's currency. */
export const hourlyRateRangeMessage = (
  range: HourlyRateRange,
  currency: string,
  say: Say = english,
  locale?: string,
) =>
  say(HOURLY_RATE_BETWEEN, {
    min: formatUnits(range.min, currency, locale),
    max: formatUnits(range.max, currency, locale),
  });

/** Why an hourly rate is refused, or null when it is within the range. */
export const hourlyRateProblem = (
  rate: number,
  range: HourlyRateRange,
  currency: string,
  say: Say = english,
  locale?: string,
): string | null =>
  rate >= range.min && rate <= range.max ? null : hourlyRateRangeMessage(range, currency, say, locale);
