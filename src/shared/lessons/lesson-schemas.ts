/**
 * The shapes lessons and availability take on the way in, shared by the forms and the server:
 * each refusal names the field and says what is wrong in words a tutor understands.
 */
import { z } from 'zod';
import { EARLIEST_YEAR, LATEST_YEAR } from '../constants';
import { freeText, issueWith, noSuchField } from '../schemas';
import { chosenSubjectSchema, timeZoneSchema } from '../tutor-schemas';
import { clockMinutes } from './availability';
import { CANCELLATION_WINDOW_HOURS, LATE_CANCEL_FEE_PERCENTS } from './cancellation-policy';
import {
  DEFAULT_BOOKING_SETTINGS,
  LESSON_LENGTHS,
  MAX_BOOKING_HORIZON_DAYS,
  MAX_BUFFER_MINUTES,
  MAX_MINIMUM_NOTICE_HOURS,
  MAX_WINDOWS_A_DAY,
  SLOT_STEPS,
  TRIAL_MINUTES,
  WEEKDAY_NAMES,
} from './lesson-constants';
import { packageOffersSchema } from './packages';
import { MAX_REPEAT_WEEKS, MIN_REPEAT_WEEKS, repeatWeeksMessage } from './series';

export { DEFAULT_BOOKING_SETTINGS, LESSON_LENGTHS, SLOT_STEPS, WEEKDAY_NAMES };

export const LESSON_STATUSES = [
  'pending',
  'confirmed',
  'declined',
  'expired',
  'cancelled',
  'completed',
  /** A confirmed lesson the student never joined, as its tutor marked it after its end. */
  'no_show',
] as const;
export type LessonStatus = (typeof LESSON_STATUSES)[number];
export const MAX_LESSON_NOTE_LENGTH = 1000;
export const MAX_CANCEL_REASON_LENGTH = 500;
/** Slots may be asked for at most this many days at a time. */
export const MAX_SLOT_RANGE_DAYS = 31;

const CLOCK_TIME = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
const clockTime = (says: { notText: string; notTime: string }) =>
  z.string({ error: says.notText }).regex(CLOCK_TIME, says.notTime);

/**
 * Zod still runs a window's refinements when a time fails its format (that issue does not abort),
 * so they look only at windows whose times are clock times: the others are refused already.
 */
const wellFormed = (window: { start: string; end: string }) =>
  CLOCK_TIME.test(window.start) && CLOCK_TIME.test(window.end);

const windowFields = {
  start: clockTime({
    notText: /*i18n*/ 'A start must be a time such as 09:00',
    notTime: /*i18n*/ 'A start must be a time such as 09:00 (24:00 is midnight)',
  }),
  end: clockTime({
    notText: /*i18n*/ 'An end must be a time such as 09:00',
    notTime: /*i18n*/ 'An end must be a time such as 09:00 (24:00 is midnight)',
  }),
};
const endsAfterStart = {
  check: (window: { start: string; end: string }) =>
    !wellFormed(window) || clockMinutes(window.end) > clockMinutes(window.start),
  message: /*i18n*/ 'The end of a window must be after its start',
};
const timeWindow = z.object(windowFields).refine(endsAfterStart.check, endsAfterStart.message);

/** Windows of one day that overlap (touching is fine): the first pair found, or null. */
function firstOverlap(windows: { start: string; end: string }[]): string | null {
  const sorted = windows.filter(wellFormed).sort((a, b) => clockMinutes(a.start) - clockMinutes(b.start));
  for (let i = 1; i < sorted.length; i++) {
    const previous = sorted[i - 1];
    const current = sorted[i];
    if (previous && current && clockMinutes(current.start) < clockMinutes(previous.end)) {
      return `${previous.start}-${previous.end} and ${current.start}-${current.end}`;
    }
  }
  return null;
}

const weekdayMessage = 'A weekday must be a number from 0 (Sunday) to 6 (Saturday)';
const weeklyWindow = z
  .object({
    weekday: z
      .number({ error: weekdayMessage })
      .int(weekdayMessage)
      .min(0, weekdayMessage)
      .max(6, weekdayMessage),
    ...windowFields,
  })
  .refine(endsAfterStart.check, endsAfterStart.message);

const inYears = (at: number) => {
  const year = new Date(at).getUTCFullYear();
  return year >= EARLIEST_YEAR && year <= LATEST_YEAR;
};

const localDate = z
  .string({ error: /*i18n*/ 'A date must be written as YYYY-MM-DD' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, /*i18n*/ 'A date must be written as YYYY-MM-DD')
  .refine(
    (date) =>
      !Number.isNaN(Date.parse(`${date}T00:00:00Z`)) &&
      new Date(`${date}T00:00:00Z`).toISOString().startsWith(date),
    /*i18n*/ 'A date must be a real day of the calendar',
  )
  .refine(
    (date) => inYears(Date.parse(`${date}T00:00:00Z`)),
    /*i18n*/ 'A date must be between the years 2000 and 2100',
  );

const dateOverride = z.object({
  date: localDate,
  windows: z.array(timeWindow).max(MAX_WINDOWS_A_DAY, /*i18n*/ 'At most 12 windows a day'),
});

const noticeMessage = /*i18n*/ 'Minimum notice must be a whole number of hours from 0 to 168';
const horizonMessage = /*i18n*/ 'The booking horizon must be a whole number of days from 1 to 365';
const bufferMessage = /*i18n*/ 'The buffer must be a whole number of minutes from 0 to 60';
const wholeNumber = (min: number, max: number, message: string) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);

export const availabilitySchema = z
  .strictObject(
    {
      timeZone: timeZoneSchema,
      weekly: z.array(weeklyWindow).max(7 * MAX_WINDOWS_A_DAY, /*i18n*/ 'At most 12 windows a day'),
      overrides: z.array(dateOverride).max(366, /*i18n*/ 'At most 366 date overrides'),
      lessonMinutes: z
        .array(
          z.literal(LESSON_LENGTHS, {
            error: /*i18n*/ 'Lesson lengths must be among 30, 45, 60, 90, 120 minutes',
          }),
          { error: /*i18n*/ 'Lesson lengths must be a list of minutes' },
        )
        .min(1, /*i18n*/ 'Offer at least one lesson length')
        .transform((lengths) => [...new Set(lengths)].sort((a, b) => a - b)),
      slotStepMinutes: z.literal(SLOT_STEPS, {
        error: /*i18n*/ 'Lessons can start every 15, 30, 60 minutes',
      }),
      minimumNoticeHours: wholeNumber(0, MAX_MINIMUM_NOTICE_HOURS, noticeMessage),
      bookingHorizonDays: wholeNumber(1, MAX_BOOKING_HORIZON_DAYS, horizonMessage),
      bufferMinutes: wholeNumber(0, MAX_BUFFER_MINUTES, bufferMessage),
      instantBooking: z.boolean({ error: /*i18n*/ 'Instant booking must be true or false' }),
      // Left out, the policy stays as it was saved, as the trial does.
      cancellationWindowHours: z
        .literal(CANCELLATION_WINDOW_HOURS, {
          error: /*i18n*/ 'The cancellation window must be one of 0, 2, 4, 12, 24, 48 hours',
        })
        .optional(),
      lateCancelFeePercent: z
        .literal(LATE_CANCEL_FEE_PERCENTS, {
          error: /*i18n*/ 'The late cancellation fee must be one of 0, 50, 100 percent',
        })
        .optional(),
      // Left out, the trial stays as it was saved: a caller that knows nothing of trials keeps it.
      // Its price is checked against the tutor's hourly rate when it is saved.
      trial: z
        .strictObject(
          {
            offered: z.boolean({ error: /*i18n*/ 'Whether a trial is offered must be true or false' }),
            priceCents: z
              .number({ error: /*i18n*/ 'The trial price must be a number of cents' })
              .int(/*i18n*/ 'The trial price must be a whole number of cents')
              .min(0, /*i18n*/ 'The trial price cannot be negative'),
          },
          {
            error: (issue) =>
              issue.code === 'unrecognized_keys' ? /*i18n*/ 'A trial has no such field' : undefined,
          },
        )
        .optional(),
      // Left out, the package offers stay as they were saved, as the trial does.
      packages: packageOffersSchema.optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? noSuchField(/*i18n*/ 'Availability has no such field: {keys}', issue.keys)
          : undefined,
    },
  )
  .superRefine((value, ctx) => {
    for (let weekday = 0; weekday < 7; weekday++) {
      const day = value.weekly.filter((window) => window.weekday === weekday);
      if (day.length > MAX_WINDOWS_A_DAY) {
        ctx.addIssue({
          code: 'custom',
          path: ['weekly'],
          ...issueWith(/*i18n*/ '{day} has more than 12 windows', { day: WEEKDAY_NAMES[weekday] ?? '' }, [
            'day',
          ]),
        });
      }
      const overlap = firstOverlap(day);
      if (overlap) {
        ctx.addIssue({
          code: 'custom',
          path: ['weekly'],
          ...issueWith(
            /*i18n*/ "{day}'s windows {overlap} overlap",
            { day: WEEKDAY_NAMES[weekday] ?? '', overlap },
            ['day'],
          ),
        });
      }
    }
    const dates = new Set<string>();
    for (const override of value.overrides) {
      if (dates.has(override.date)) {
        ctx.addIssue({
          code: 'custom',
          path: ['overrides'],
          ...issueWith(/*i18n*/ '{date} is overridden twice', { date: override.date }),
        });
      }
      dates.add(override.date);
      const overlap = firstOverlap(override.windows);
      if (overlap) {
        ctx.addIssue({
          code: 'custom',
          path: ['overrides'],
          ...issueWith(/*i18n*/ "{date}'s windows {overlap} overlap", { date: override.date, overlap }),
        });
      }
    }
  });
export type AvailabilityInput = z.input<typeof availabilitySchema>;

/** The problems of each field that holds an instant, named as the API names it. */
const INSTANT_PROBLEMS = {
  from: {
    notInstant: /*i18n*/ 'from must be a date and time such as 2026-12-01T09:00:00Z',
    notInYears: /*i18n*/ 'from must be between the years 2000 and 2100',
  },
  to: {
    notInstant: /*i18n*/ 'to must be a date and time such as 2026-12-01T09:00:00Z',
    notInYears: /*i18n*/ 'to must be between the years 2000 and 2100',
  },
  start: {
    notInstant: /*i18n*/ 'start must be a date and time such as 2026-12-01T09:00:00Z',
    notInYears: /*i18n*/ 'start must be between the years 2000 and 2100',
  },
};

/**
 * An instant as the API takes it: ISO 8601 with its offset or Z, in the years every date must fall
 * in (out of them, the database could not store it, or compute with it, and would fail).
 */
export const instantSchema = (field: keyof typeof INSTANT_PROBLEMS) =>
  z
    .string({ error: INSTANT_PROBLEMS[field].notInstant })
    .refine(
      (value) =>
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
        !Number.isNaN(Date.parse(value)),
      { message: INSTANT_PROBLEMS[field].notInstant, abort: true },
    )
    .transform((value) => Date.parse(value))
    .refine(inYears, INSTANT_PROBLEMS[field].notInYears);

export const slotQuerySchema = z
  .object({
    from: instantSchema('from'),
    to: instantSchema('to'),
    minutes: z
      .string({ error: /*i18n*/ 'minutes is required' })
      .regex(/^\d{1,3}$/, /*i18n*/ 'minutes must be a whole number')
      .transform(Number),
  })
  .refine((query) => query.to > query.from, { message: /*i18n*/ 'to must be after from', path: ['to'] })
  .refine((query) => query.to - query.from <= MAX_SLOT_RANGE_DAYS * 24 * 60 * 60 * 1000, {
    message: /*i18n*/ 'Slots can be asked for 31 days at most',
    path: ['to'],
  });

export const lessonRangeSchema = z
  .object({ from: instantSchema('from').optional(), to: instantSchema('to').optional() })
  .refine((query) => query.from === undefined || query.to === undefined || query.to > query.from, {
    message: /*i18n*/ 'to must be after from',
    path: ['to'],
  });

export const bookingSchema = z
  .strictObject(
    {
      tutorId: z
        .string({ error: /*i18n*/ 'tutorId is required' })
        .regex(/^[\w-]{1,64}$/, /*i18n*/ 'No such tutor'),
      /** A parent's child the lesson is for (docs/api.md, "Families"); a student books for themselves. */
      studentId: z
        .string()
        .regex(/^[\w-]{1,64}$/, /*i18n*/ 'Child not found')
        .optional(),
      start: instantSchema('start'),
      // A trial's length is fixed, so it may be left out for one.
      minutes: z
        .number({ error: /*i18n*/ 'minutes must be a number' })
        .int(/*i18n*/ 'minutes must be a whole number')
        .optional(),
      // Whether the tutor teaches it is checked against their profile when the lesson is booked.
      subject: chosenSubjectSchema('Please choose a subject the tutor teaches'),
      note: freeText(MAX_LESSON_NOTE_LENGTH, {
        notText: /*i18n*/ 'The note must be text',
        tooLong: /*i18n*/ 'The note must be at most 1000 characters',
        badCharacters: /*i18n*/ 'The note must not contain control characters',
      }).optional(),
      /** The student's one trial lesson with this tutor (TRIAL_MINUTES long, at the trial's price). */
      trial: z
        .literal(true, { error: /*i18n*/ 'trial can only be true (leave it out for a regular lesson)' })
        .optional(),
      /** The same lesson every week for this many weeks: a weekly series (docs/api.md). */
      repeatWeeks: z
        .number({ error: repeatWeeksMessage })
        .int(repeatWeeksMessage)
        .min(MIN_REPEAT_WEEKS, repeatWeeksMessage)
        .max(MAX_REPEAT_WEEKS, repeatWeeksMessage)
        .optional(),
      /** The student's package to pay with; without it, a package for this tutor and length is used if one has a credit. */
      packageId: z.uuid({ error: /*i18n*/ 'This package does not exist' }).optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? noSuchField(/*i18n*/ 'A booking has no such field: {keys}', issue.keys)
          : undefined,
    },
  )
  .superRefine((booking, ctx) => {
    if (booking.trial && booking.minutes !== undefined && booking.minutes !== TRIAL_MINUTES)
      ctx.addIssue({
        code: 'custom',
        path: ['minutes'],
        message: /*i18n*/ 'A trial lesson lasts 30 minutes',
      });
    if (!booking.trial && booking.minutes === undefined)
      ctx.addIssue({ code: 'custom', path: ['minutes'], message: /*i18n*/ 'minutes must be a number' });
    if (booking.trial && booking.repeatWeeks !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['repeatWeeks'],
        message: /*i18n*/ 'A trial lesson cannot repeat',
      });
  })
  .transform(({ trial, minutes, ...booking }) => ({
    ...booking,
    trial: trial === true,
    minutes: trial ? TRIAL_MINUTES : (minutes ?? 0),
  }));

/** What GET /api/lessons/preview-series is asked: a booking's time, length and weeks, as query text. */
export const seriesPreviewSchema = z.object({
  tutorId: z
    .string({ error: /*i18n*/ 'tutorId is required' })
    .regex(/^[\w-]{1,64}$/, /*i18n*/ 'No such tutor'),
  start: instantSchema('start'),
  minutes: z
    .string({ error: /*i18n*/ 'minutes is required' })
    .regex(/^\d{1,3}$/, /*i18n*/ 'minutes must be a whole number')
    .transform(Number),
  repeatWeeks: z
    .string({ error: repeatWeeksMessage })
    .regex(/^\d{1,2}$/, repeatWeeksMessage)
    .transform(Number)
    .refine((weeks) => weeks >= MIN_REPEAT_WEEKS && weeks <= MAX_REPEAT_WEEKS, repeatWeeksMessage),
});

export const cancelSchema = z.object({
  reason: freeText(MAX_CANCEL_REASON_LENGTH, {
    notText: /*i18n*/ 'The reason must be text',
    tooLong: /*i18n*/ 'The reason must be at most 500 characters',
    badCharacters: /*i18n*/ 'The reason must not contain control characters',
  }).optional(),
});
export const rescheduleSchema = z.object({ start: instantSchema('start') });
export const MAX_PROPOSAL_NOTE_LENGTH = 500;
/** A tutor's proposal of a new time, with a word for the student if they like. */
export const proposalSchema = z.object({
  start: instantSchema('start'),
  note: freeText(MAX_PROPOSAL_NOTE_LENGTH, {
    notText: /*i18n*/ 'The note must be text',
    tooLong: /*i18n*/ 'The note must be at most 500 characters',
    badCharacters: /*i18n*/ 'The note must not contain control characters',
  }).optional(),
});
