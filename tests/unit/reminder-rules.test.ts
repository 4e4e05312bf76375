/**
 * Which lesson reminder is due for one person, given when the lesson was booked (or last
 * confirmed at its time), when it starts, the time now and what the person wants; and the day the
 * reminder's subject names, in the reader's zone.
 */
import { describe, expect, it } from 'vitest';
import { startsWhen } from '../../src/server/lessons/reminders-mail';
import { dueReminder, reminderWindow } from '../../src/server/lessons/reminders-rules';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const start = Date.parse('2026-03-10T10:00:00Z');
const both = { dayBefore: true, hourBefore: true };
const bookedLongAgo = start - 10 * 24 * HOUR;

const due = (now: number, confirmedSince = bookedLongAgo, preferences = both) =>
  dueReminder({ start, confirmedSince, now, preferences });

describe('the reminder due', () => {
  it('is none before the day reminder’s moment', () => {
    expect(due(start - 24 * HOUR - 1)).toBeNull();
    expect(due(start - 3 * 24 * HOUR)).toBeNull();
  });

  it('is the day reminder from 24 hours before until an hour before', () => {
    expect(due(start - 24 * HOUR)).toBe('day');
    expect(due(start - 5 * HOUR)).toBe('day');
    expect(due(start - HOUR - 1)).toBe('day');
  });

  it('is the hour reminder from an hour before until the start, and none once it has started', () => {
    expect(due(start - HOUR)).toBe('hour');
    expect(due(start - MINUTE)).toBe('hour');
    expect(due(start)).toBeNull();
    // A server that was down a day comes back after the start: nothing is sent late.
    expect(due(start + 5 * MINUTE)).toBeNull();
  });

  it('gives a lesson booked 3 hours ahead only the hour reminder', () => {
    const booked = start - 3 * HOUR;
    expect(due(booked, booked)).toBeNull();
    expect(due(start - 2 * HOUR, booked)).toBeNull();
    expect(due(start - HOUR, booked)).toBe('hour');
  });

  it('gives a lesson booked within the hour no reminder', () => {
    const booked = start - 40 * MINUTE;
    expect(due(booked, booked)).toBeNull();
    expect(due(start - 10 * MINUTE, booked)).toBeNull();
  });

  it('counts a lesson booked exactly at a reminder’s moment as booked in time', () => {
    expect(due(start - 24 * HOUR, start - 24 * HOUR)).toBe('day');
    expect(due(start - HOUR, start - HOUR)).toBe('hour');
  });

  it('dates a moved lesson from its move: moved to 5 hours ahead, only the hour reminder', () => {
    const moved = start - 5 * HOUR;
    expect(due(start - 4 * HOUR, moved)).toBeNull();
    expect(due(start - HOUR, moved)).toBe('hour');
  });

  it('leaves out a reminder the person turned off, and only that one', () => {
    const noDay = { dayBefore: false, hourBefore: true };
    const noHour = { dayBefore: true, hourBefore: false };
    expect(due(start - 20 * HOUR, bookedLongAgo, noDay)).toBeNull();
    expect(due(start - 30 * MINUTE, bookedLongAgo, noDay)).toBe('hour');
    expect(due(start - 20 * HOUR, bookedLongAgo, noHour)).toBe('day');
    expect(due(start - 30 * MINUTE, bookedLongAgo, noHour)).toBeNull();
  });

  it('names the window whatever was booked or wanted', () => {
    expect(reminderWindow(start, start - 25 * HOUR)).toBeNull();
    expect(reminderWindow(start, start - 2 * HOUR)).toBe('day');
    expect(reminderWindow(start, start - 2 * MINUTE)).toBe('hour');
    expect(reminderWindow(start, start)).toBeNull();
  });
});

describe('the day a reminder names', () => {
  it('says tomorrow, today or the date, in the reader’s zone', () => {
    // 10:00 UTC is 11:00 in Madrid and 19:00 in Tokyo.
    expect(startsWhen(start, start - 24 * HOUR, 'Europe/Madrid')).toBe('tomorrow at 11:00');
    expect(startsWhen(start, start - HOUR, 'Europe/Madrid')).toBe('today at 11:00');
    expect(startsWhen(start, start - HOUR, 'Asia/Tokyo')).toBe('today at 19:00');
    expect(startsWhen(start, start - 3 * 24 * HOUR, 'UTC')).toBe('on Tue, Mar 10 at 10:00');
  });

  it('says tomorrow for a lesson just after midnight reminded an hour before', () => {
    const afterMidnight = Date.parse('2026-03-10T23:30:00Z'); // 00:30 on the 11th in Madrid
    expect(startsWhen(afterMidnight, afterMidnight - HOUR, 'Europe/Madrid')).toBe('tomorrow at 00:30');
  });
});
