/**
 * Which reminder, if any, is due for one person of a confirmed lesson: plain rules, no database.
 *
 * - The day reminder's moment is 24 hours before the start, the hour reminder's 1 hour before.
 * - A reminder is due from its moment until the next one's (the day reminder until an hour before
 *   the start, the hour reminder until the start). So a server that was down when a moment passed
 *   sends it late only while it still says something true and useful: never once the lesson has
 *   started, and never a "tomorrow" after the hour reminder's moment has come.
 * - A reminder is only for a lesson that already stood, confirmed at its time, at the reminder's
 *   moment: a lesson booked (or accepted, or moved) 3 hours ahead has just been mailed about, so it
 *   gets only the hour reminder, and one booked within the hour gets none.
 * - Each person may turn either reminder off.
 */

export const REMINDER_KINDS = ['day', 'hour'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

const HOUR_MS = 60 * 60 * 1000;

/** How long before the start each reminder's moment is. */
export const REMINDER_OFFSET_MS: Record<ReminderKind, number> = {
  day: 24 * HOUR_MS,
  hour: HOUR_MS,
};

/** Which reminders a person wants; both, unless they turned one off on their profile. */
export interface ReminderPreferences {
  dayBefore: boolean;
  hourBefore: boolean;
}

export const wantsReminder = (preferences: ReminderPreferences, kind: ReminderKind) =>
  kind === 'day' ? preferences.dayBefore : preferences.hourBefore;

/** The reminder whose window `now` is in (whatever was booked or wanted), or null. */
export function reminderWindow(start: number, now: number): ReminderKind | null {
  if (now >= start) return null;
  if (now >= start - REMINDER_OFFSET_MS.hour) return 'hour';
  if (now >= start - REMINDER_OFFSET_MS.day) return 'day';
  return null;
}

export interface ReminderFacts {
  /** When the lesson starts (epoch ms). */
  start: number;
  /**
   * Since when it has stood confirmed at this start (epoch ms): its booking, the tutor's
   * acceptance of the request, or its last move, whichever came last.
   */
  confirmedSince: number;
  now: number;
  preferences: ReminderPreferences;
}

/** The reminder due now for one person of a confirmed lesson, or null. */
export function dueReminder(facts: ReminderFacts): ReminderKind | null {
  const kind = reminderWindow(facts.start, facts.now);
  if (!kind) return null;
  if (facts.confirmedSince > facts.start - REMINDER_OFFSET_MS[kind]) return null;
  return wantsReminder(facts.preferences, kind) ? kind : null;
}
