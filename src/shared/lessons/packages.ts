/**
 * Lesson packages: a tutor offers 5, 10 or 20 lessons of one length at a discount of 0 to 30
 * percent. Plain rules shared by the server, which decides and charges, and the pages, which show
 * the offers and what a package has left. Amounts are integers in the currency's minor unit.
 */
import { z } from 'zod';
import { english, type Say } from '../say';
import { issueWith, noSuchField } from '../schemas';
import { LESSON_LENGTHS } from './lesson-constants';
import { lessonPriceCents } from './lesson-price';

export const PACKAGE_SIZES = [5, 10, 20] as const;
export type PackageSize = (typeof PACKAGE_SIZES)[number];
export const MAX_PACKAGE_DISCOUNT = 30;
export const MAX_PACKAGE_OFFERS = 3;

export interface PackageOffer {
  lessons: number;
  minutes: number;
  discountPercent: number;
}

/**
 * One lesson's price in a package: the price of a single lesson of that length less the discount,
 * rounded half up to the minor unit. Integer arithmetic only.
 */
export function packageLessonCents(singlePriceCents: number, discountPercent: number): number {
  return Math.floor((singlePriceCents * (100 - discountPercent) + 50) / 100);
}

/** An offer's prices at a tutor's hourly rate (whole units), as single bookings compute them. */
export function offerPrices(offer: PackageOffer, hourlyRate: number, minorPerUnit: number) {
  const perLessonCents = packageLessonCents(
    lessonPriceCents(hourlyRate, offer.minutes, minorPerUnit),
    offer.discountPercent,
  );
  return { perLessonCents, totalCents: perLessonCents * offer.lessons };
}

/**
 * Whole lessons a package's money still pays for. A part of one (left when a late cancellation fee
 * took part of a credit) pays for no lesson; it goes back to the balance when the package ends.
 */
export const creditsIn = (heldCents: number, perLessonCents: number) =>
  perLessonCents > 0 ? Math.floor(Math.max(0, heldCents) / perLessonCents) : 0;

const sizeMessage = /*i18n*/ 'A package has 5, 10, 20 lessons';
const discountMessage = /*i18n*/ "A package's discount must be a whole number of percent from 0 to 30";

export const packageOfferSchema = z.strictObject(
  {
    lessons: z.literal(PACKAGE_SIZES, { error: sizeMessage }),
    minutes: z.literal(LESSON_LENGTHS, {
      error: /*i18n*/ "A package's lessons must last 30, 45, 60, 90, 120 minutes",
    }),
    discountPercent: z
      .number({ error: discountMessage })
      .int(discountMessage)
      .min(0, discountMessage)
      .max(MAX_PACKAGE_DISCOUNT, discountMessage),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? /*i18n*/ 'A package offer has no such field' : undefined,
  },
);

export const packageOffersSchema = z
  .array(packageOfferSchema, { error: /*i18n*/ 'Packages must be a list of offers' })
  .max(MAX_PACKAGE_OFFERS, /*i18n*/ 'Offer at most 3 packages')
  .superRefine((offers, ctx) => {
    const seen = new Set<string>();
    for (const offer of offers) {
      const key = `${offer.lessons}x${offer.minutes}`;
      if (seen.has(key))
        ctx.addIssue({
          code: 'custom',
          ...issueWith(/*i18n*/ 'The package of {lessons} lessons of {minutes} minutes is offered twice', {
            lessons: offer.lessons,
            minutes: offer.minutes,
          }),
        });
      seen.add(key);
    }
  });

/** What a student asks to buy: the tutor and which of their offers. */
export const buyPackageSchema = z.strictObject(
  {
    tutorId: z
      .string({ error: /*i18n*/ 'tutorId is required' })
      .regex(/^[\w-]{1,64}$/, /*i18n*/ 'No such tutor'),
    lessons: z
      .number({ error: /*i18n*/ 'lessons must be a number' })
      .int(/*i18n*/ 'lessons must be a whole number'),
    minutes: z
      .number({ error: /*i18n*/ 'minutes must be a number' })
      .int(/*i18n*/ 'minutes must be a whole number'),
    /** A parent's child the package is for (docs/api.md, "Families"). */
    studentId: z
      .string()
      .regex(/^[\w-]{1,64}$/, /*i18n*/ 'Child not found')
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? noSuchField(/*i18n*/ 'A package purchase has no such field: {keys}', issue.keys)
        : undefined,
  },
);

/** "10 lessons of 60 minutes". */
export const packageName = (offer: Pick<PackageOffer, 'lessons' | 'minutes'>, say: Say = english) =>
  say(/*i18n*/ '{lessons} lessons of {minutes} minutes', { lessons: offer.lessons, minutes: offer.minutes });
