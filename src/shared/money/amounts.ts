/**
 * Amounts as people type and read them on the money screens: a top-up in whole units (dollars), an
 * operator's payout with cents, a balance with its cents always written, a movement with its sign.
 * Built on ../amounts.ts (integers in the currency's minor unit); plain Intl, no calendar code, so
 * the navigation bar can show a balance without loading the lesson rules.
 */
import { type Amount, formatUnits, minorDigits, minorPerUnit } from '../amounts';
import { english, type Say } from '../say';

export type { Amount };

/**
 * A top-up is asked for in whole units, from 5 to 5,000 (the server refuses anything else); in a
 * currency without minor digits (yen, won), where a unit is worth about a cent, from 500 to 500,000.
 */
export function topUpUnits(currency: string): { min: number; max: number } {
  return minorDigits(currency) === 0 ? { min: 500, max: 500_000 } : { min: 5, max: 5000 };
}

/** The whole units that cover an amount: 12.01 needs 13. */
export const unitsCovering = (cents: number, currency: string) => Math.ceil(cents / minorPerUnit(currency));

/**
 * What to top up to cover a shortfall: the missing amount rounded up to whole units, at least the
 * smallest top-up and at most the largest (a bigger gap takes several).
 */
export function topUpUnitsFor(missing: Amount): number {
  const { min, max } = topUpUnits(missing.currency);
  return Math.min(max, Math.max(min, unitsCovering(missing.amountCents, missing.currency)));
}

/** "25 or 25.50" (USD), "25 or 25.500" (KWD): how an amount with minor digits is typed. */
export const amountExample = (currency: string, say: Say = english) =>
  minorDigits(currency) === 0
    ? '2500'
    : say(/*i18n*/ '{whole} or {decimal}', {
        whole: '25',
        decimal: `25.${'5'.padEnd(minorDigits(currency), '0')}`,
      });

/** "$" for USD, "€" for EUR: the sign a field of whole units is written with. */
export function currencySymbol(currency: string): string {
  const parts = new Intl.NumberFormat('en-US', { style: 'currency', currency }).formatToParts(0);
  return parts.find((part) => part.type === 'currency')?.value ?? currency;
}

/**
 * A top-up amount as typed: whole units within topUpUnits, with or without the currency sign or
 * thousands separators. The problem is said in the words the form shows.
 */
export function parseTopUpUnits(
  text: string,
  currency: string,
  say: Say = english,
): { units: number; problem?: undefined } | { problem: string; units?: undefined } {
  const symbol = currencySymbol(currency);
  const cleaned = text.trim().replaceAll(symbol, '').replaceAll(',', '').trim();
  const { min, max } = topUpUnits(currency);
  const range = { min: formatUnits(min, currency), max: formatUnits(max, currency) };
  if (cleaned === '') return { problem: say(/*i18n*/ 'Enter an amount between {min} and {max}.', range) };
  if (!/^\d+$/.test(cleaned))
    return {
      problem:
        minorDigits(currency) === 2
          ? say(/*i18n*/ 'Enter a whole amount (no cents), between {min} and {max}.', range)
          : say(/*i18n*/ 'Enter a whole amount (no decimals), between {min} and {max}.', range),
    };
  const units = Number(cleaned);
  if (units < min || units > max) return { problem: say(/*i18n*/ 'Top up between {min} and {max}.', range) };
  return { units };
}

/**
 * An amount as an operator types it, cents allowed ("29.75", "$1,200"): its minor units, or the
 * problem in the form's words. Only positive amounts: a correction is a movement of its own.
 */
export function parseAmountCents(
  text: string,
  currency: string,
  say: Say = english,
): { cents: number; problem?: undefined } | { problem: string; cents?: undefined } {
  const cleaned = text.trim().replaceAll(currencySymbol(currency), '').replaceAll(',', '').trim();
  if (cleaned === '') return { problem: say(/*i18n*/ 'Enter an amount.') };
  const digits = minorDigits(currency);
  const shape = digits === 0 ? /^\d+$/ : new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`);
  if (!shape.test(cleaned)) {
    return {
      problem:
        digits === 0
          ? say(/*i18n*/ 'Enter a whole amount.')
          : say(/*i18n*/ 'Enter an amount such as {example}.', { example: amountExample(currency, say) }),
    };
  }
  // Whole and fraction read apart, so no binary fraction creeps into the minor units.
  const [whole = '0', fraction = ''] = cleaned.split('.');
  const cents = Number(whole) * minorPerUnit(currency) + Number(fraction.padEnd(digits, '0') || '0');
  if (cents <= 0) return { problem: say(/*i18n*/ 'Enter an amount above zero.') };
  return { cents };
}
