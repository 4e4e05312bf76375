/** Lesson packages' plain rules: a lesson's price in a package, rounded half up, and credits from money. */
import { expect, it } from 'vitest';
import { creditsIn, offerPrices, packageLessonCents } from '../../src/shared/lessons/packages';

it('takes the discount off a lesson and rounds half up to the minor unit', () => {
  expect(packageLessonCents(3500, 10)).toBe(3150);
  // $27.75 less 15% is $23.5875: $23.59.
  expect(packageLessonCents(2775, 15)).toBe(2359);
  // $23.50 less 15% is exactly $19.975: half a cent goes up.
  expect(packageLessonCents(2350, 15)).toBe(1998);
  expect(packageLessonCents(3333, 0)).toBe(3333);
  expect(packageLessonCents(1, 30)).toBe(1);
});

it("prices an offer from the tutor's rate as single bookings do, in the currency's minor unit", () => {
  expect(offerPrices({ lessons: 10, minutes: 45, discountPercent: 15 }, 37, 100)).toEqual({
    perLessonCents: 2359,
    totalCents: 23_590,
  });
  // Yen have no minor unit: 3,000 an hour, 30 minutes, 5% off is 1,425.
  expect(offerPrices({ lessons: 5, minutes: 30, discountPercent: 5 }, 3000, 1)).toEqual({
    perLessonCents: 1425,
    totalCents: 7125,
  });
});

it('counts whole lessons only: a part of one pays for none', () => {
  expect(creditsIn(15_750, 3150)).toBe(5);
  expect(creditsIn(3150 + 1575, 3150)).toBe(1);
  expect(creditsIn(3149, 3150)).toBe(0);
  expect(creditsIn(0, 3150)).toBe(0);
  expect(creditsIn(-5, 3150)).toBe(0);
});
