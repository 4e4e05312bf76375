import { describe, expect, it } from 'vitest';
import {
  decimalString,
  formatAmount,
  formatUnits,
  minorDigits,
  unitsToMinor,
} from '../../src/shared/amounts';
import { parseAmountCents, parseTopUpUnits, topUpUnitsFor } from '../../src/shared/money/amounts';
import { defaultHourlyRateRange, hourlyRateProblem } from '../../src/shared/settings/site-settings';

const usd = (amountCents: number) => ({ amountCents, currency: 'USD' });

describe('amounts as people read and type them', () => {
  it('writes a balance with its cents, and a movement with its sign', () => {
    expect(formatAmount(5000, 'USD', { minor: 'always' })).toBe('$50.00');
    expect(formatAmount(-1250, 'USD', { minor: 'always' })).toBe('-$12.50');
    expect(formatAmount(123456, 'EUR', { minor: 'always' })).toBe('€1,234.56');
    expect(formatAmount({ amountCents: 5000, currency: 'USD' }, { minor: 'always', sign: 'always' })).toBe(
      '+$50.00',
    );
    expect(formatAmount({ amountCents: -3500, currency: 'USD' }, { minor: 'always', sign: 'always' })).toBe(
      '-$35.00',
    );
    expect(formatAmount({ amountCents: 0, currency: 'USD' }, { minor: 'always', sign: 'always' })).toBe(
      '$0.00',
    );
  });

  it('tops up a shortfall in whole units, rounded up, from 5 to 5,000', () => {
    expect(topUpUnitsFor(usd(1))).toBe(5);
    expect(topUpUnitsFor(usd(1200))).toBe(12);
    expect(topUpUnitsFor(usd(1201))).toBe(13);
    expect(topUpUnitsFor(usd(99_999_900))).toBe(5000);
  });

  it('reads a top-up in whole units and says what is wrong in words', () => {
    expect(parseTopUpUnits('50', 'USD')).toEqual({ units: 50 });
    expect(parseTopUpUnits(' $1,200 ', 'USD')).toEqual({ units: 1200 });
    expect(parseTopUpUnits('', 'USD').problem).toBe('Enter an amount between $5 and $5,000.');
    expect(parseTopUpUnits('12.50', 'USD').problem).toBe(
      'Enter a whole amount (no cents), between $5 and $5,000.',
    );
    expect(parseTopUpUnits('4', 'USD').problem).toBe('Top up between $5 and $5,000.');
    expect(parseTopUpUnits('5001', 'USD').problem).toBe('Top up between $5 and $5,000.');
    expect(parseTopUpUnits('-5', 'USD').problem).toBeDefined();
  });

  it('reads an operator’s amount with cents, and writes one back for editing', () => {
    expect(parseAmountCents('29.75', 'USD')).toEqual({ cents: 2975 });
    expect(parseAmountCents('$1,200', 'USD')).toEqual({ cents: 120000 });
    expect(parseAmountCents('0.1', 'USD')).toEqual({ cents: 10 });
    expect(parseAmountCents('0', 'USD').problem).toBe('Enter an amount above zero.');
    expect(parseAmountCents('1.234', 'USD').problem).toBe('Enter an amount such as 25 or 25.50.');
    expect(parseAmountCents('', 'USD').problem).toBe('Enter an amount.');
    expect(decimalString(2975, 'USD')).toBe('29.75');
    expect(decimalString(3000, 'USD')).toBe('30.00');
    // A currency without cents takes whole amounts only.
    expect(parseAmountCents('1200', 'JPY')).toEqual({ cents: 1200 });
    expect(parseAmountCents('12.5', 'JPY').problem).toBe('Enter a whole amount.');
    expect(formatAmount(1200, 'JPY', { minor: 'always' })).toBe('¥1,200');
    expect(topUpUnitsFor({ amountCents: 1201, currency: 'JPY' })).toBe(1201);
  });
});

describe('the one formatter, in a currency without cents, with two digits and with three', () => {
  /** Intl puts a no-break space between a code and its figure: "KWD 12.000". */
  const nb = '\u00a0';

  it('knows each currency’s minor digits from Intl, and turns whole units into minor ones by them', () => {
    expect([minorDigits('JPY'), minorDigits('EUR'), minorDigits('KWD')]).toEqual([0, 2, 3]);
    expect([unitsToMinor(3000, 'JPY'), unitsToMinor(12, 'EUR'), unitsToMinor(12, 'KWD')]).toEqual([
      3000, 1200, 12_000,
    ]);
  });

  it('writes a price with the digits it needs, and an account’s figure with every digit', () => {
    expect(formatAmount(3000, 'JPY')).toBe('¥3,000');
    expect(formatAmount(3000, 'JPY', { minor: 'always' })).toBe('¥3,000');
    expect(formatAmount(2250, 'JPY')).toBe('¥2,250');
    expect(formatAmount(3750, 'EUR')).toBe('€37.50');
    expect(formatAmount(4000, 'EUR')).toBe('€40');
    expect(formatAmount(4000, 'EUR', { minor: 'always' })).toBe('€40.00');
    expect(formatAmount(12_000, 'KWD')).toBe(`KWD${nb}12`);
    expect(formatAmount(12_000, 'KWD', { minor: 'always' })).toBe(`KWD${nb}12.000`);
    expect(formatAmount(10_800, 'KWD')).toBe(`KWD${nb}10.800`);
    expect(formatAmount(1, 'KWD')).toBe(`KWD${nb}0.001`);
  });

  it('writes the same amount in each reader’s language, whichever was written before', () => {
    const nb = '\u00a0';
    expect(formatAmount(3150, 'EUR', { locale: 'es' })).toBe(`31,50${nb}€`);
    expect(formatAmount(3150, 'EUR', { locale: 'en' })).toBe('€31.50');
    expect(formatAmount(4000, 'EUR', { locale: 'es' })).toBe(`40${nb}€`);
    expect(formatAmount(3150, 'EUR', { locale: 'ar' })).toBe(`\u200f31.50${nb}€`);
    expect(formatAmount(3150, 'EUR', { locale: 'es' })).toBe(`31,50${nb}€`);
  });

  it('writes a movement with its sign, takes an Amount whole, and never loses a digit to a float', () => {
    expect(formatAmount({ amountCents: -3000, currency: 'JPY' }, { sign: 'always' })).toBe('-¥3,000');
    expect(formatAmount({ amountCents: 1250, currency: 'KWD' }, { minor: 'always', sign: 'always' })).toBe(
      `+KWD${nb}1.250`,
    );
    expect(formatAmount({ amountCents: 0, currency: 'EUR' }, { minor: 'always', sign: 'always' })).toBe(
      '€0.00',
    );
    expect(formatAmount(900_719_925_474_099, 'EUR', { minor: 'always' })).toBe('€9,007,199,254,740.99');
    expect([decimalString(3000, 'JPY'), decimalString(5, 'EUR'), decimalString(-12_345, 'KWD')]).toEqual([
      '3000',
      '0.05',
      '-12.345',
    ]);
  });

  it('writes whole units, reads typed amounts, and sizes top-ups and rates by the currency’s scale', () => {
    expect([formatUnits(500, 'JPY'), formatUnits(5, 'EUR'), formatUnits(5, 'KWD')]).toEqual([
      '¥500',
      '€5',
      `KWD${nb}5`,
    ]);
    expect(parseAmountCents('12.5', 'KWD')).toEqual({ cents: 12_500 });
    expect(parseAmountCents('12.5005', 'KWD').problem).toBe('Enter an amount such as 25 or 25.500.');
    expect(parseTopUpUnits('400', 'JPY').problem).toBe('Top up between ¥500 and ¥500,000.');
    expect(parseTopUpUnits('10000', 'JPY')).toEqual({ units: 10_000 });
    expect(topUpUnitsFor({ amountCents: 2250, currency: 'JPY' })).toBe(2250);
    expect(topUpUnitsFor({ amountCents: 9001, currency: 'KWD' })).toBe(10);
    expect(defaultHourlyRateRange('JPY')).toEqual({ min: 500, max: 50_000 });
    expect(defaultHourlyRateRange('KRW')).toEqual({ min: 500, max: 50_000 });
    expect(defaultHourlyRateRange('KWD')).toEqual({ min: 5, max: 500 });
    expect(hourlyRateProblem(3000, defaultHourlyRateRange('JPY'), 'JPY')).toBeNull();
    expect(hourlyRateProblem(30, defaultHourlyRateRange('JPY'), 'JPY')).toBe(
      'Hourly rate must be between ¥500 and ¥50,000',
    );
    expect(hourlyRateProblem(501, defaultHourlyRateRange('EUR'), 'EUR')).toBe(
      'Hourly rate must be between €5 and €500',
    );
  });
});
