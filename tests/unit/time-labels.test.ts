/**
 * Dates and times as pages and mails show them (src/shared/time-labels.ts): the locale decides the
 * words and their order, the clock is the 24-hour one in every locale, and the mails' English
 * labels (src/shared/lessons/lesson-times.ts) say what they said before.
 */
import { describe, expect, it } from 'vitest';
import { clockLabel, instantLabel, lessonTimeLabel } from '../../src/shared/lessons/lesson-times';
import { timeLabels } from '../../src/shared/time-labels';

const afternoon = Date.UTC(2026, 11, 1, 17, 5);
const midnight = Date.UTC(2026, 11, 2, 0, 0);

describe('time labels', () => {
  it('use the 24-hour clock in every locale, midnight as 00:00', () => {
    for (const locale of ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'ja-JP']) {
      const labels = timeLabels(locale);
      expect(labels.clock(afternoon, 'UTC'), locale).toBe('17:05');
      expect(labels.clock(midnight, 'UTC'), locale).toBe('00:00');
      expect(labels.dateTime(afternoon, 'UTC'), locale).toMatch(/17:05$/);
      expect(labels.dateTime(afternoon, 'UTC'), locale).not.toMatch(/AM|PM/);
    }
  });

  it("follow the locale's order and words for the date", () => {
    expect(timeLabels('en-US').dateTime(afternoon, 'UTC')).toBe('Dec 1, 2026, 17:05');
    expect(timeLabels('en-GB').dateTime(afternoon, 'UTC')).toBe('1 Dec 2026, 17:05');
    expect(timeLabels('de-DE').day(afternoon, 'UTC')).toBe('Dienstag, 1. Dezember 2026');
    expect(timeLabels('en-GB').date(afternoon, 'UTC')).toBe('1 December 2026');
    expect(timeLabels('en-US').weekday(afternoon, 'UTC')).toBe('Tue');
  });

  it('show an instant in the zone given', () => {
    const labels = timeLabels('en-US');
    expect(labels.lessonTime(afternoon, afternoon + 3_600_000, 'Asia/Kolkata')).toBe(
      'Tuesday, December 1, 2026, 22:35–23:35',
    );
    expect(labels.clock(afternoon, 'America/New_York')).toBe('12:05');
  });

  it("keep the mails' English words", () => {
    expect(lessonTimeLabel(afternoon, afternoon + 3_600_000, 'UTC')).toBe(
      'Tuesday, December 1, 2026, 17:05–18:05',
    );
    expect(instantLabel(midnight, 'UTC')).toBe('Wednesday, December 2, 2026, 00:00');
    expect(clockLabel(afternoon, 'Europe/Berlin')).toBe('18:05');
  });
});
