/**
 * The numbers and names lessons are built from, apart from the schemas so the browser can show
 * them (the availability screen's choices and hints) without loading zod.
 */
export const LESSON_LENGTHS = [30, 45, 60, 90, 120] as const;
export const SLOT_STEPS = [15, 30, 60] as const;
export type LessonLength = (typeof LESSON_LENGTHS)[number];
export type SlotStep = (typeof SLOT_STEPS)[number];
/** The days' names in English, each marked for translation (a page says them through translated()). */
export const WEEKDAY_NAMES = [
  /*i18n*/ 'Sunday',
  /*i18n*/ 'Monday',
  /*i18n*/ 'Tuesday',
  /*i18n*/ 'Wednesday',
  /*i18n*/ 'Thursday',
  /*i18n*/ 'Friday',
  /*i18n*/ 'Saturday',
];
export const MAX_MINIMUM_NOTICE_HOURS = 168;
export const MAX_BOOKING_HORIZON_DAYS = 365;
export const MAX_BUFFER_MINUTES = 60;
/** More windows than this in one day is a mistake, not a schedule. */
export const MAX_WINDOWS_A_DAY = 12;

export const DEFAULT_BOOKING_SETTINGS = {
  lessonMinutes: [60],
  slotStepMinutes: 30,
  minimumNoticeHours: 12,
  bookingHorizonDays: 60,
  bufferMinutes: 0,
  instantBooking: true,
} as const;

/** A trial lesson lasts half an hour, whatever lengths the tutor offers otherwise. */
export const TRIAL_MINUTES = 30;
export const DEFAULT_TRIAL = { offered: false, priceCents: 0 } as const;
