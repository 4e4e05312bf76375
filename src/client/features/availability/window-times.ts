/** The times a window's selects offer, on the quarter hours, and how a time is checked. */
import { clockMinutes } from '../../../shared/lessons/availability';

export const isClockTime = (time: string) => /^\d{2}:\d{2}$/.test(time);

const STEP_MINUTES = 15;
export const DAY_MINUTES = 24 * 60;

export function clockText(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

function quarterHours(from: number, to: number): string[] {
  const times: string[] = [];
  for (let minute = from; minute <= to; minute += STEP_MINUTES) times.push(clockText(minute));
  return times;
}

/** A window starts from 00:00 to 23:45 and ends from 00:15 to 24:00 (midnight). */
export const START_TIMES = quarterHours(0, DAY_MINUTES - STEP_MINUTES);
export const END_TIMES = quarterHours(STEP_MINUTES, DAY_MINUTES);

/** The choices for a select, with its current value kept when it is off the quarter hours. */
export function timeChoices(times: readonly string[], current: string): string[] {
  if (times.includes(current) || !isClockTime(current)) return [...times];
  return [...times, current].sort((a, b) => clockMinutes(a) - clockMinutes(b));
}
