/**
 * The checks of a change to the site settings (PATCH /api/admin/settings), one schema per field,
 * shared by the console's forms and the server, which repeats them. Whether a subject to add is
 * new, or one to retire exists, is the server's check against the catalogue in effect.
 */
import { z } from 'zod';
import { SUBJECT_CATEGORIES } from '../constants';
import {
  freeText,
  languageSchema,
  noSuchField,
  oneLineText,
  showsAsTyped,
  type TextProblems,
} from '../schemas';
import { MAX_SUBJECT_NAME_LENGTH } from '../tutor-catalog';
import {
  HOME_FIGURES,
  type HomeFigureKey,
  MAX_BUSINESS_HOURS_LENGTH,
  MAX_FIGURE_LENGTH,
  MAX_HOURLY_RATE_UNITS,
  MAX_PAYMENT_INSTRUCTIONS_LENGTH,
  MAX_SUBJECT_CHANGES,
  MAX_SUPPORT_EMAIL_LENGTH,
  MAX_SUPPORT_PHONE_LENGTH,
  MAX_SUPPORT_REPLY_HOURS,
} from './site-settings';

/** Each home figure's problems, in words that name it (HOME_FIGURES' labels). */
const FIGURE_PROBLEMS: Record<HomeFigureKey, TextProblems> = {
  studentsHelped: {
    notText: /*i18n*/ 'Students helped must be text',
    tooLong: /*i18n*/ 'Students helped must be at most 20 characters',
    badCharacters: /*i18n*/ 'Students helped must be on one line',
    required: /*i18n*/ 'Students helped must not be empty: write a figure such as 10,000+',
  },
  expertTutors: {
    notText: /*i18n*/ 'Expert tutors must be text',
    tooLong: /*i18n*/ 'Expert tutors must be at most 20 characters',
    badCharacters: /*i18n*/ 'Expert tutors must be on one line',
    required: /*i18n*/ 'Expert tutors must not be empty: write a figure such as 10,000+',
  },
  lessonsCompleted: {
    notText: /*i18n*/ 'Lessons completed must be text',
    tooLong: /*i18n*/ 'Lessons completed must be at most 20 characters',
    badCharacters: /*i18n*/ 'Lessons completed must be on one line',
    required: /*i18n*/ 'Lessons completed must not be empty: write a figure such as 10,000+',
  },
};

const figureSchema = (key: HomeFigureKey) => oneLineText(MAX_FIGURE_LENGTH, FIGURE_PROBLEMS[key]);

export const homeFiguresSchema = z.strictObject(
  Object.fromEntries(HOME_FIGURES.map(({ key }) => [key, figureSchema(key)])) as Record<
    HomeFigureKey,
    ReturnType<typeof figureSchema>
  >,
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? noSuchField(/*i18n*/ 'The home figures have no such field: {keys}', issue.keys)
        : /*i18n*/ 'The home figures must be an object with studentsHelped, expertTutors and lessonsCompleted',
  },
);

/** An address such as support@example.com (a name without a dot, like support@localhost, is fine). */
const MAILBOX = /^[^\s@<>\p{Cc}]+@[^\s@<>\p{Cc}]+$/u;

export const supportEmailSchema = z
  .string({ error: /*i18n*/ 'Please give the support email address' })
  .trim()
  .min(1, /*i18n*/ 'Please give the support email address')
  .max(MAX_SUPPORT_EMAIL_LENGTH, /*i18n*/ 'The support email must be at most 254 characters')
  .regex(MAILBOX, /*i18n*/ 'The support email must be an address such as support@example.com');

export const supportPhoneSchema = z
  .string({ error: /*i18n*/ 'Please give the support phone number' })
  .trim()
  .min(1, /*i18n*/ 'Please give the support phone number')
  .max(MAX_SUPPORT_PHONE_LENGTH, /*i18n*/ 'The support phone must be at most 40 characters')
  .regex(/^[\d\s+().\-/]+$/, /*i18n*/ 'The support phone may hold only digits, spaces and + ( ) - . /')
  .refine(
    (phone) => (phone.match(/\d/g) ?? []).length >= 3,
    /*i18n*/ 'The support phone needs at least 3 digits',
  );

export const businessHoursSchema = oneLineText(MAX_BUSINESS_HOURS_LENGTH, {
  notText: /*i18n*/ 'Business hours must be text',
  tooLong: /*i18n*/ 'Business hours must be at most 120 characters',
  badCharacters: /*i18n*/ 'Business hours must be on one line',
  required: /*i18n*/ 'Please give your business hours, such as Mon-Fri 9-6, Sat 10-4, Sun closed',
}).refine(
  (hours) => hours.split(',').every((part) => part.trim() !== ''),
  /*i18n*/ 'Business hours have an empty part: write days and times between the commas, such as Mon-Fri 9-6, Sat 10-4',
);

export const supportSchema = z.strictObject(
  { email: supportEmailSchema, phone: supportPhoneSchema, hours: businessHoursSchema },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? noSuchField(/*i18n*/ 'The support details have no such field: {keys}', issue.keys)
        : /*i18n*/ 'The support details must be an object with email, phone and hours',
  },
);

export const REPLY_HOURS_PROBLEM =
  /*i18n*/ 'The reply time must be a whole number of hours from 1 to 168 (a week)';

/** How soon support answers, in whole hours; null takes the promise away. */
export const supportReplyHoursSchema = z
  .number({ error: REPLY_HOURS_PROBLEM })
  .int(REPLY_HOURS_PROBLEM)
  .min(1, REPLY_HOURS_PROBLEM)
  .max(MAX_SUPPORT_REPLY_HOURS, REPLY_HOURS_PROBLEM)
  .nullable();

/**
 * What a bank-transfer top-up says to do, over as many lines as the school likes (kept as typed,
 * shown as plain text); null goes back to PAYMENT_INSTRUCTIONS, or the product's text.
 */
export const paymentInstructionsSchema = freeText(MAX_PAYMENT_INSTRUCTIONS_LENGTH, {
  notText: /*i18n*/ 'Payment instructions must be text',
  tooLong: /*i18n*/ 'Payment instructions must be at most 2000 characters',
  badCharacters: /*i18n*/ 'Payment instructions must not contain control characters',
  required: /*i18n*/ 'Please write the payment instructions, or go back to the default ones',
}).nullable();

export const HOURLY_RATE_RANGE_PROBLEM =
  /*i18n*/ 'The hourly rate range must be two whole numbers above zero, min below max';

/**
 * The hourly rates tutors may ask, in whole units of the school's currency; null goes back to the
 * default range for the currency.
 */
export const hourlyRateRangeSchema = z
  .strictObject(
    {
      min: z
        .number({ error: HOURLY_RATE_RANGE_PROBLEM })
        .int(HOURLY_RATE_RANGE_PROBLEM)
        .positive(HOURLY_RATE_RANGE_PROBLEM),
      max: z
        .number({ error: HOURLY_RATE_RANGE_PROBLEM })
        .int(HOURLY_RATE_RANGE_PROBLEM)
        .positive(HOURLY_RATE_RANGE_PROBLEM)
        .max(MAX_HOURLY_RATE_UNITS, /*i18n*/ 'The highest hourly rate can be at most 10,000,000'),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? noSuchField(/*i18n*/ 'The hourly rate range has no such field: {keys}', issue.keys)
          : /*i18n*/ 'The hourly rate range must be an object with min and max',
    },
  )
  .refine((range) => range.min < range.max, HOURLY_RATE_RANGE_PROBLEM)
  .nullable();

/**
 * A subject's name as the catalogue keeps it: trimmed, its spaces single, composed (so "é" typed
 * two ways is one name), on one line, 1 to 40 characters that show as typed.
 */
export const subjectNameSchema = z
  .string({ error: /*i18n*/ 'Please name the subject' })
  .transform((name) => name.normalize('NFC').trim().replace(/\s+/g, ' '))
  .pipe(
    z
      .string()
      .min(1, /*i18n*/ 'Please name the subject')
      .refine(
        (name) => [...name].length <= MAX_SUBJECT_NAME_LENGTH,
        /*i18n*/ "A subject's name must be at most 40 characters",
      )
      .refine((name) => !/\p{Cc}/u.test(name), /*i18n*/ "A subject's name must be on one line")
      .refine(showsAsTyped, /*i18n*/ "A subject's name must not contain invisible formatting characters"),
  );

export const subjectCategorySchema = z.enum(SUBJECT_CATEGORIES, {
  error: /*i18n*/ 'Unknown category: choose Math & Science, Languages, Programming or Arts & Design',
});

export const newSubjectSchema = z.strictObject(
  { category: subjectCategorySchema, name: subjectNameSchema },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? noSuchField(/*i18n*/ 'A subject to add has no such field: {keys}', issue.keys)
        : /*i18n*/ 'A subject to add must be an object with category and name',
  },
);

export const subjectChangesSchema = z.strictObject(
  {
    add: z
      .array(newSubjectSchema, { error: /*i18n*/ 'subjects.add must be a list of { category, name }' })
      .max(MAX_SUBJECT_CHANGES, /*i18n*/ 'Add at most 50 subjects at once')
      .optional(),
    retire: z
      .array(subjectNameSchema, { error: /*i18n*/ 'subjects.retire must be a list of subject names' })
      .max(MAX_SUBJECT_CHANGES, /*i18n*/ 'Retire at most 50 subjects at once')
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? noSuchField(/*i18n*/ 'The subject changes have no such field: {keys}', issue.keys)
        : /*i18n*/ 'The subject changes must be an object with add and retire',
  },
);

/**
 * PATCH /api/admin/settings: any of the parts; each part given whole. Null figures go back to the
 * school's real counts; a null reply time promises none; null payment instructions go back to the
 * default ones.
 */
export const siteSettingsChangeSchema = z
  .strictObject(
    {
      homeFigures: homeFiguresSchema.nullable().optional(),
      support: supportSchema.optional(),
      supportReplyHours: supportReplyHoursSchema.optional(),
      paymentInstructions: paymentInstructionsSchema.optional(),
      subjects: subjectChangesSchema.optional(),
      hourlyRateRange: hourlyRateRangeSchema.optional(),
      defaultLanguage: languageSchema.nullable().optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? noSuchField(/*i18n*/ 'The site settings have no such field: {keys}', issue.keys)
          : /*i18n*/ 'The site settings change must be a JSON object',
    },
  )
  .refine(
    (change) =>
      change.homeFigures !== undefined ||
      change.support !== undefined ||
      change.supportReplyHours !== undefined ||
      change.paymentInstructions !== undefined ||
      change.hourlyRateRange !== undefined ||
      change.defaultLanguage !== undefined ||
      (change.subjects?.add?.length ?? 0) + (change.subjects?.retire?.length ?? 0) > 0,
    {
      message:
        /*i18n*/ 'Nothing to change: send homeFigures, support, supportReplyHours, paymentInstructions, hourlyRateRange, defaultLanguage or subjects',
    },
  );
export type SiteSettingsChange = z.output<typeof siteSettingsChangeSchema>;
