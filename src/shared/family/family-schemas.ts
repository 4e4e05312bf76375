/** The shapes families' requests take on the way in, shared by /family's forms and the server. */
import { z } from 'zod';
import { emailSchema, oneLineText } from '../schemas';
import { MAX_MONTHLY_LIMIT, OLDEST_CHILD_YEARS } from './family-constants';

export * from './family-constants';

const FIRST_NAME_LENGTH = 40;

/** A year of birth: not in the future, and not more than 25 years ago (checked against `now`). */
export const birthYearSchema = (now: Date = new Date()) =>
  z
    .number({ error: /*i18n*/ 'birthYear must be a year, such as 2015' })
    .int(/*i18n*/ 'birthYear must be a year, such as 2015')
    .refine((year) => year <= now.getUTCFullYear(), /*i18n*/ 'The year of birth cannot be in the future')
    .refine(
      (year) => year >= now.getUTCFullYear() - OLDEST_CHILD_YEARS,
      /*i18n*/ 'The year of birth can be at most 25 years ago',
    );

export const childSchema = (now?: Date) =>
  z.strictObject({
    firstName: oneLineText(FIRST_NAME_LENGTH, {
      notText: /*i18n*/ "Please enter the child's first name",
      tooLong: /*i18n*/ 'The first name must be at most 40 characters',
      badCharacters: /*i18n*/ 'The first name must stay on one line',
    }).refine((name) => name.length > 0, /*i18n*/ "Please enter the child's first name"),
    birthYear: birthYearSchema(now),
  });

export const invitationSchema = z.strictObject({ email: emailSchema });

export const monthlyLimitSchema = z.strictObject({
  monthlyLimitCents: z
    .number({ error: /*i18n*/ 'monthlyLimitCents must be a whole number of the smallest unit, or null' })
    .int(/*i18n*/ 'monthlyLimitCents must be a whole number of the smallest unit, or null')
    .min(0, /*i18n*/ 'monthlyLimitCents must be a whole number of the smallest unit, or null')
    .max(MAX_MONTHLY_LIMIT, /*i18n*/ 'monthlyLimitCents must be a whole number of the smallest unit, or null')
    .nullable(),
});

export const acceptSchema = z.strictObject({ password: z.string().optional() });
