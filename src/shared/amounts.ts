/**
 * Amounts of money: integers in the currency's minor unit (cents for USD, yen for JPY), never
 * floating point. Only their display goes through Intl.NumberFormat, given an exact decimal
 * string so that no binary fraction creeps in.
 */
import { formatLocale } from './format-locale';

/** An amount as the API gives it. */
export interface Amount {
  amountCents: number;
  currency: string;
}

const digitsCache = new Map<string, number>();

/** How many minor-unit digits a currency has: 2 for USD and EUR, 0 for JPY, 3 for KWD. */
export function minorDigits(currency: string): number {
  let digits = digitsCache.get(currency);
  if (digits === undefined) {
    digits =
      new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2;
    digitsCache.set(currency, digits);
  }
  return digits;
}

/** How many minor units make one whole unit: 100 for USD. */
export const minorPerUnit = (currency: string) => 10 ** minorDigits(currency);

/** True for a currency code Intl knows (ISO 4217). */
export function isKnownCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  try {
    return Intl.supportedValuesOf('currency').includes(code);
  } catch {
    return false;
  }
}

/** The exact decimal string of an amount: 1234 USD is "12.34", -5 is "-0.05". */
export function decimalString(amountCents: number, currency: string): string {
  const digits = minorDigits(currency);
  const sign = amountCents < 0 ? '-' : '';
  const text = String(Math.abs(amountCents)).padStart(digits + 1, '0');
  return digits === 0 ? `${sign}${text}` : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** How to write an amount: see formatAmount. */
export interface AmountStyle {
  /** 'always': every minor digit ("$40.00", "KWD 12.000"); 'when-needed' (the default): "$40". */
  minor?: 'when-needed' | 'always';
  /** 'always': a movement's direction ("+$50.00", "-$35.00"), zero unsigned. */
  sign?: 'negative' | 'always';
  /** The locale to write it in ("31,50 €" in es); by default the page's (../format-locale.ts). */
  locale?: string;
}

/**
 * The one way money is written, on the server (mails, receipts, CSV files' texts) and in the
 * browser: an amount in the currency's minor unit, read through Intl with exactly the currency's
 * digits. "$37.50", or "$40" when whole; "-$5" for a negative amount; "¥3,000"; "KWD 12.500".
 * With `minor: 'always'`, every minor digit the currency has ("$40.00", "¥500", "KWD 1.250"): for
 * figures read as an account, such as a balance or a receipt. Takes an Amount, or its two parts.
 */
export function formatAmount(amount: Amount, style?: AmountStyle): string;
export function formatAmount(amountCents: number, currency: string, style?: AmountStyle): string;
export function formatAmount(
  first: Amount | number,
  second?: string | AmountStyle,
  third: AmountStyle = {},
): string {
  const [amountCents, currency, style] =
    typeof first === 'number'
      ? [first, String(second), third]
      : [first.amountCents, first.currency, (second as AmountStyle | undefined) ?? {}];
  const whole = style.minor !== 'always' && amountCents % minorPerUnit(currency) === 0;
  // A string keeps every digit exact (Intl reads it as a decimal, not a binary float).
  return formatterFor(style.locale ?? formatLocale(), currency, whole, style.sign === 'always').format(
    decimalString(amountCents, currency) as unknown as number,
  );
}

/**
 * Making an Intl.NumberFormat costs far more than formatting with one (a tenth of a millisecond
 * against a few microseconds, in a mail that writes a price twice), so each way of writing is made
 * once. The keys are few: the four languages and their regions, a school's currencies, two
 * choices; the cache starts over past a few hundred, so no input can grow it without end.
 */
const formatters = new Map<string, Intl.NumberFormat>();
const MAX_FORMATTERS = 256;

function formatterFor(locale: string, currency: string, whole: boolean, signed: boolean): Intl.NumberFormat {
  const key = `${locale}|${currency}|${whole ? 'whole' : 'minor'}|${signed ? 'signed' : 'plain'}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      ...(whole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
      ...(signed ? { signDisplay: 'exceptZero' as const } : {}),
    });
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatters.set(key, formatter);
  }
  return formatter;
}

/** Whole units (dollars, yen) in the currency's minor unit: 5 USD is 500, 5 JPY is 5. */
export const unitsToMinor = (units: number, currency: string) => units * minorPerUnit(currency);

/** "$5,000", "¥50,000": whole units of a currency, as a range or a rate is said. */
export const formatUnits = (units: number, currency: string, locale?: string) =>
  formatAmount(unitsToMinor(units, currency), currency, { locale });
