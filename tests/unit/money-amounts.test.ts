import { describe, expect, it } from 'vitest';
import { decimalString, formatAmount } from '../../src/shared/amounts';
import { parseAmountCents, parseTopUpUnits, topUpUnitsFor } from '../../src/shared/money/amounts';

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
