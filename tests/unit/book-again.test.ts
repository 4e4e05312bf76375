/** "Book again": the same lesson at the same weekday and local time, in the first week to come. */
import { describe, expect, it } from 'vitest';
import { bookAgainPath, sameTimeNextWeek } from '../../src/shared/lessons/book-again';

const at = (text: string) => Date.parse(text);

describe('the same time next week', () => {
  it('is a week on from a lesson of the last few days', () => {
    expect(sameTimeNextWeek(at('2030-03-04T10:00:00Z'), at('2030-03-06T12:00:00Z'), 'UTC')).toBe(
      at('2030-03-11T10:00:00Z'),
    );
  });

  it('is the first such week after now for an older lesson, never today before now', () => {
    expect(sameTimeNextWeek(at('2030-03-04T10:00:00Z'), at('2030-03-18T11:00:00Z'), 'UTC')).toBe(
      at('2030-03-25T10:00:00Z'),
    );
    expect(sameTimeNextWeek(at('2030-03-04T10:00:00Z'), at('2030-03-18T09:00:00Z'), 'UTC')).toBe(
      at('2030-03-18T10:00:00Z'),
    );
  });

  it('keeps the local time across a change of clocks', () => {
    // Madrid moves to summer time on 2030-03-31: 10:00 local is 09:00Z before, 08:00Z after.
    expect(sameTimeNextWeek(at('2030-03-28T09:00:00Z'), at('2030-03-29T00:00:00Z'), 'Europe/Madrid')).toBe(
      at('2030-04-04T08:00:00Z'),
    );
  });
});

it('links to the tutor with the length, subject and time', () => {
  const path = bookAgainPath(
    { tutorId: 'tutor-1', minutes: 90, subject: 'Music Theory', start: '2030-03-04T10:00:00.000Z' },
    at('2030-03-05T00:00:00Z'),
    'UTC',
  );
  expect(path).toBe('/tutors/tutor-1?minutes=90&subject=Music+Theory&start=2030-03-11T10%3A00%3A00.000Z');
});
