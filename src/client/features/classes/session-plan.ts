/**
 * A new class's sessions as the tutor plans them: one date and time, or a weekly course of 2 to 12
 * sessions at the same wall-clock time in the tutor's zone, across changes of the clocks (the
 * series' rule, weeklyStarts). Temporal does the zone arithmetic: this module is for the
 * new-class page alone, so that no other page loads it.
 */
import { Temporal } from 'temporal-polyfill';
import { MAX_CLASS_SESSIONS } from '../../../shared/classes/class-constants';
import { weeklyStarts } from '../../../shared/lessons/series';

export const MIN_COURSE_SESSIONS = 2;
export const MAX_COURSE_SESSIONS = MAX_CLASS_SESSIONS;

export interface Plan {
  kind: 'one' | 'weekly';
  /** "2026-12-01", as a date field gives it. */
  date: string;
  /** "18:00", as a time field gives it. */
  time: string;
  /** How many weekly sessions, as typed. */
  weeks: string;
}

/** Why a plan gives no sessions: each names the field at fault. */
export type PlanProblem = 'date' | 'weeks';

/** The number of weekly sessions typed, or null while it is not a whole number from 2 to 12. */
export function weeksOf(text: string): number | null {
  if (!/^\s*\d{1,2}\s*$/.test(text)) return null;
  const weeks = Number(text);
  return weeks >= MIN_COURSE_SESSIONS && weeks <= MAX_COURSE_SESSIONS ? weeks : null;
}

/**
 * The sessions' starts (epoch milliseconds), or which field keeps them from being known. A time
 * the clocks skip that day is moved forward by the gap, as a calendar does.
 */
export function plannedStarts(plan: Plan, timeZone: string): { starts: number[] } | { problem: PlanProblem } {
  let first: number;
  try {
    first = Temporal.PlainDateTime.from(`${plan.date}T${plan.time}`, { overflow: 'reject' }).toZonedDateTime(
      timeZone,
      { disambiguation: 'compatible' },
    ).epochMilliseconds;
  } catch {
    return { problem: 'date' };
  }
  if (plan.kind === 'one') return { starts: [first] };
  const weeks = weeksOf(plan.weeks);
  if (weeks === null) return { problem: 'weeks' };
  return { starts: weeklyStarts(first, weeks, timeZone) };
}

/** Today's date in the zone, for the date field's lowest value. */
export const todayIn = (timeZone: string) => Temporal.Now.plainDateISO(timeZone).toString();
