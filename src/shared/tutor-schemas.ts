/**
 * The tutor marketplace's request shapes, shared by the profile form, the search page and the
 * server: one schema per field, and the search parameters exactly as they appear in the URL.
 */
import { z } from 'zod';
import { SUBJECT_CATEGORIES } from './constants';
import type { CancellationPolicy } from './lessons/cancellation-policy';
import { freeText, noSuchField, oneLineText } from './schemas';
import { MAX_HOURLY_RATE_UNITS } from './settings/site-settings';
import {
  MAX_ABOUT_LENGTH,
  MAX_HEADLINE_LENGTH,
  MAX_LEARNING_GOALS_LENGTH,
  MAX_PAGE_SIZE,
  MAX_PROFILE_SUBJECTS,
  MAX_SUBJECT_NAME_LENGTH,
  MAX_YEARS_EXPERIENCE,
  SPOKEN_LANGUAGES,
  TUTOR_SORTS,
} from './tutor-catalog';

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return value.length <= 64;
  } catch {
    return false;
  }
}

/** A user id as it appears in a tutor's URL: anything else is no tutor of ours. */
export const tutorIdSchema = z.string().regex(/^[\w-]{1,64}$/);

export const timeZoneSchema = z
  .string({ error: /*i18n*/ 'Please choose a valid time zone' })
  .refine(isTimeZone, /*i18n*/ 'Please choose a valid time zone');
/** The zone a signed-in person's browser reports, saved only while their profile has none. */
export const reportedTimeZoneSchema = z.strictObject({ timeZone: timeZoneSchema });
export const headlineSchema = oneLineText(MAX_HEADLINE_LENGTH, {
  notText: /*i18n*/ 'Headline must be text',
  tooLong: /*i18n*/ 'Headline must be at most 80 characters',
  badCharacters: /*i18n*/ 'Headline must be on one line',
});
export const aboutSchema = freeText(MAX_ABOUT_LENGTH, {
  notText: /*i18n*/ 'About must be text',
  tooLong: /*i18n*/ 'About must be at most 2000 characters',
  badCharacters: /*i18n*/ 'About must not contain control characters',
});
/**
 * A subject as a request names it: only its shape is checked here, with `message` for anything
 * else. Whether the catalogue has it (and offers it) is the server's check, against the catalogue
 * in effect, which an admin edits.
 */
export const chosenSubjectSchema = (message: string) =>
  z.string({ error: message }).trim().min(1, message).max(MAX_SUBJECT_NAME_LENGTH, message);
export const subjectsSchema = z
  .array(chosenSubjectSchema('Please choose subjects from the list'), {
    error: /*i18n*/ 'Please choose subjects from the list',
  })
  .max(MAX_PROFILE_SUBJECTS, /*i18n*/ 'Please choose at most 30 subjects')
  .transform((subjects) => [...new Set(subjects)]);
export const languagesSchema = z
  .array(z.enum(SPOKEN_LANGUAGES, { error: /*i18n*/ 'Please choose languages from the list' }))
  .max(SPOKEN_LANGUAGES.length)
  .transform((languages) => [...new Set(languages)]);
/**
 * An hourly rate in whole units of the school's currency. Its range is a site setting, which the
 * server checks after this (and names in the school's currency).
 */
export const HOURLY_RATE_NOT_WHOLE = /*i18n*/ 'Hourly rate must be a whole number';

export const hourlyRateSchema = z
  .number({ error: HOURLY_RATE_NOT_WHOLE })
  .int(HOURLY_RATE_NOT_WHOLE)
  .positive(HOURLY_RATE_NOT_WHOLE)
  .max(MAX_HOURLY_RATE_UNITS, HOURLY_RATE_NOT_WHOLE);
export const yearsExperienceSchema = z
  .number({ error: /*i18n*/ 'Years of experience must be a whole number' })
  .int(/*i18n*/ 'Years of experience must be a whole number')
  .min(0, /*i18n*/ 'Years of experience cannot be negative')
  .max(MAX_YEARS_EXPERIENCE, /*i18n*/ 'Years of experience must be at most 60');
export const learningGoalsSchema = freeText(MAX_LEARNING_GOALS_LENGTH, {
  notText: /*i18n*/ 'Learning goals must be text',
  tooLong: /*i18n*/ 'Learning goals must be at most 1000 characters',
  badCharacters: /*i18n*/ 'Learning goals must not contain control characters',
});

/** Whether a message left unread for ten minutes is mailed. */
export const messageMailsSchema = z.boolean({ error: /*i18n*/ 'messageMails must be true or false' });

/**
 * Which lesson reminders a person is mailed: a day and an hour before each confirmed lesson. A
 * change may name one of them; the other stays as it was.
 */
export const remindersSchema = z.strictObject(
  {
    dayBefore: z.boolean({ error: /*i18n*/ 'reminders.dayBefore must be true or false' }).optional(),
    hourBefore: z.boolean({ error: /*i18n*/ 'reminders.hourBefore must be true or false' }).optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? noSuchField(/*i18n*/ 'Reminders have no such field: {keys}', issue.keys)
        : /*i18n*/ 'reminders must be an object with dayBefore and hourBefore',
  },
);

const ROLE_PROFILE_PROBLEMS = {
  tutor: {
    noSuchField: /*i18n*/ 'A tutor profile has no such field: {keys}',
    notObject: /*i18n*/ 'The tutor profile must be a JSON object',
  },
  student: {
    noSuchField: /*i18n*/ 'A student profile has no such field: {keys}',
    notObject: /*i18n*/ 'The student profile must be a JSON object',
  },
};

const refuseOthers =
  (role: keyof typeof ROLE_PROFILE_PROBLEMS) => (issue: { code: string; keys?: string[] }) =>
    issue.code === 'unrecognized_keys'
      ? noSuchField(ROLE_PROFILE_PROBLEMS[role].noSuchField, issue.keys)
      : ROLE_PROFILE_PROBLEMS[role].notObject;

export const tutorDetailsSchema = z.strictObject(
  {
    timeZone: timeZoneSchema.optional(),
    headline: headlineSchema.optional(),
    about: aboutSchema.optional(),
    subjects: subjectsSchema.optional(),
    hourlyRate: hourlyRateSchema.nullable().optional(),
    languages: languagesSchema.optional(),
    yearsExperience: yearsExperienceSchema.nullable().optional(),
    messageMails: messageMailsSchema.optional(),
    reminders: remindersSchema.optional(),
  },
  { error: refuseOthers('tutor') },
);
export type TutorDetailsChanges = z.output<typeof tutorDetailsSchema>;

export const studentDetailsSchema = z.strictObject(
  {
    timeZone: timeZoneSchema.optional(),
    learningGoals: learningGoalsSchema.optional(),
    messageMails: messageMailsSchema.optional(),
    reminders: remindersSchema.optional(),
  },
  { error: refuseOthers('student') },
);
export type StudentDetailsChanges = z.output<typeof studentDetailsSchema>;

/** A price filter, in whole units of the school's currency (dollars, yen). */
const wholeUnits = (notWhole: string) =>
  z
    .string()
    .regex(/^\d{1,8}$/, notWhole)
    .transform(Number)
    .pipe(z.number().min(0).max(MAX_HOURLY_RATE_UNITS, notWhole));

/** The search parameters, as strings from the URL; unknown parameters are refused. */
export const tutorSearchSchema = z
  .strictObject(
    {
      q: oneLineText(100, {
        notText: /*i18n*/ 'The search text must be text',
        tooLong: /*i18n*/ 'The search text must be at most 100 characters',
        badCharacters: /*i18n*/ 'The search text must be on one line',
      }).optional(),
      category: z.enum(SUBJECT_CATEGORIES, { error: /*i18n*/ 'Unknown category' }).optional(),
      subject: chosenSubjectSchema('Unknown subject').optional(),
      language: z.enum(SPOKEN_LANGUAGES, { error: /*i18n*/ 'Unknown language' }).optional(),
      minPrice: wholeUnits(/*i18n*/ 'The lowest price must be a whole number').optional(),
      maxPrice: wholeUnits(/*i18n*/ 'The highest price must be a whole number').optional(),
      minRating: z
        .string()
        .regex(
          /^[1-5](\.\d)?$/,
          /*i18n*/ 'The minimum rating must be a number of stars from 1 to 5, such as 4.5',
        )
        .transform(Number)
        .pipe(z.number().max(5, /*i18n*/ 'The minimum rating must be at most 5 stars'))
        .optional(),
      // Only tutors who offer a trial lesson; any other value is refused rather than ignored.
      trial: z
        .literal('true', { error: /*i18n*/ 'trial can only be true' })
        .transform(() => true)
        .optional(),
      sort: z
        .enum(TUTOR_SORTS, {
          error: /*i18n*/ 'Sort must be one of: relevance, rating, price_asc, price_desc, newest',
        })
        .optional(),
      page: z
        .string()
        .regex(/^\d{1,5}$/, /*i18n*/ 'Page must be a whole number')
        .transform(Number)
        .pipe(z.number().min(1, /*i18n*/ 'Page must be 1 or more'))
        .optional(),
      pageSize: z
        .string()
        .regex(/^\d{1,3}$/, /*i18n*/ 'Page size must be a whole number')
        .transform(Number)
        .pipe(
          z
            .number()
            .min(1, /*i18n*/ 'Page size must be 1 or more')
            .max(MAX_PAGE_SIZE, /*i18n*/ 'Page size must be at most 48'),
        )
        .optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? noSuchField(/*i18n*/ 'Unknown search parameter: {keys}', issue.keys)
          : undefined,
    },
  )
  .refine((p) => p.minPrice === undefined || p.maxPrice === undefined || p.minPrice <= p.maxPrice, {
    message: /*i18n*/ 'The lowest price must not be above the highest price',
  });
export type TutorSearchParams = z.output<typeof tutorSearchSchema>;

export interface TutorCard {
  id: string;
  displayName: string;
  headline: string;
  subjects: string[];
  languages: string[];
  hourlyRate: number;
  yearsExperience: number | null;
  hasPhoto: boolean;
  photoVersion: string | null;
  /** The average rating shown (one decimal), null before the first review; and how many reviews. */
  rating: { average: number | null; count: number };
  /** An administrator approved the profile: the "Verified tutor" badge. */
  verified: boolean;
  /** The trial lesson the tutor offers (30 minutes, at this price; 0 is free), or null. */
  trial: { priceCents: number } | null;
}

export interface TutorSearchResult {
  total: number;
  page: number;
  pageSize: number;
  tutors: TutorCard[];
}

export interface TutorPublicProfile extends TutorCard {
  about: string;
  timeZone: string | null;
  memberSince: string;
  /** How the tutor takes bookings: the lesson lengths offered, and whether they confirm at once. */
  booking: {
    lessonMinutes: number[];
    instantBooking: boolean;
    hasHours: boolean;
    /**
     * Whether the one asking may book the tutor's trial: it is offered, and they are not a student
     * who had a trial or any other lesson with this tutor already (signed out, they may).
     */
    trialAvailable: boolean;
    /** The cancellation policy a lesson booked now would keep. */
    cancellationPolicy: CancellationPolicy;
    /**
     * The lesson packages the tutor offers, with their prices; empty while the school takes no
     * payments through Tutorlane.
     */
    packages: {
      lessons: number;
      minutes: number;
      discountPercent: number;
      perLessonCents: number;
      totalCents: number;
    }[];
  };
}
