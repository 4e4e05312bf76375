/** The trial lesson's rules: the price a tutor may set, what a trial costs, and how one is asked for. */
import { describe, expect, it } from 'vitest';
import { bookingSchema } from '../../src/shared/lessons/lesson-schemas';
import { maxTrialPriceCents, trialPriceCents, trialPriceProblem } from '../../src/shared/lessons/trials';

describe('the trial price', () => {
  it('may be free, or up to the half-hour price of the rate', () => {
    expect(maxTrialPriceCents(40, 'USD')).toBe(2000);
    expect(maxTrialPriceCents(25, 'USD')).toBe(1250);
    expect(trialPriceProblem(0, 40, 'USD')).toBeNull();
    expect(trialPriceProblem(2000, 40, 'USD')).toBeNull();
    expect(trialPriceProblem(2001, 40, 'USD')).toBe(
      'The trial price can be at most half your hourly rate: $20',
    );
    expect(trialPriceProblem(1251, 25, 'USD')).toBe(
      'The trial price can be at most half your hourly rate: $12.50',
    );
    expect(trialPriceProblem(-1, 40, 'USD')).toMatch(/0 \(free\) or more/);
    expect(trialPriceProblem(10.5, 40, 'USD')).toMatch(/whole number of cents/);
    // Counted in the currency's own minor unit: yen have none, a dinar has a thousand fils.
    expect(trialPriceProblem(10.5, 4000, 'JPY')).toMatch(/whole number of JPY,/);
    expect(trialPriceProblem(10.5, 12, 'KWD')).toMatch(/whole number of the minor unit of KWD,/);
  });

  it('can only be free while no rate is set', () => {
    expect(trialPriceProblem(0, null, 'USD')).toBeNull();
    expect(trialPriceProblem(1, null, 'USD')).toMatch(/Set your hourly rate/);
  });

  it('never costs more than half an hour at the current rate', () => {
    expect(trialPriceCents({ offered: true, priceCents: 1500 }, 40, 'USD')).toBe(1500);
    // The rate was lowered to $20 after the price was set.
    expect(trialPriceCents({ offered: true, priceCents: 1500 }, 20, 'USD')).toBe(1000);
  });
});

describe('asking for a trial', () => {
  const base = { tutorId: 'tutor-1', start: '2030-03-01T10:00:00Z', subject: 'Algebra' };

  it('is 30 minutes, given or left out', () => {
    expect(bookingSchema.parse({ ...base, trial: true })).toMatchObject({ trial: true, minutes: 30 });
    expect(bookingSchema.parse({ ...base, trial: true, minutes: 30 })).toMatchObject({ minutes: 30 });
    const wrong = bookingSchema.safeParse({ ...base, trial: true, minutes: 60 });
    expect(wrong.error?.issues[0]?.message).toBe('A trial lesson lasts 30 minutes');
  });

  it('leaves a regular lesson as it was: minutes required, not a trial', () => {
    expect(bookingSchema.parse({ ...base, minutes: 60 })).toMatchObject({ trial: false, minutes: 60 });
    expect(bookingSchema.safeParse(base).success).toBe(false);
    expect(bookingSchema.safeParse({ ...base, minutes: 60, trial: false }).success).toBe(false);
  });
});
