/**
 * The rules of progress without HTTP: a goal's share, and achievements earned from lesson ends
 * and completed goals, with weeks counted in the student's own zone.
 */
import { describe, expect, it } from 'vitest';
import {
  achievementsFrom,
  goalShare,
  mayHaveNotes,
  notesSchema,
} from '../../src/shared/progress/progress-rules';

const at = (iso: string) => Date.parse(iso);
const earned = (input: Parameters<typeof achievementsFrom>[0]) =>
  Object.fromEntries(achievementsFrom(input).map((a) => [a.id, a.earnedAt]));

describe('goalShare', () => {
  it('is the share of milestones done, and nothing without milestones', () => {
    expect(goalShare([])).toBe(0);
    expect(goalShare([{ done: true }, { done: false }, { done: false }, { done: true }])).toBe(0.5);
    expect(goalShare([{ done: true }])).toBe(1);
  });
});

describe('lesson notes', () => {
  it('belong to lessons that took place, and need some words', () => {
    expect(mayHaveNotes('completed')).toBe(true);
    for (const status of ['pending', 'confirmed', 'cancelled', 'declined', 'expired', 'no_show'] as const)
      expect(mayHaveNotes(status)).toBe(false);
    expect(notesSchema.safeParse({ covered: '', homework: 'Read chapter 2' }).success).toBe(true);
    expect(notesSchema.safeParse({ covered: '  ', homework: '' }).success).toBe(false);
  });
});

describe('achievements', () => {
  it('the first, fifth and tenth lessons earn on the day they ended, in any order given', () => {
    const ends = Array.from({ length: 10 }, (_, i) =>
      at(`2026-03-${String(10 + i * 2).padStart(2, '0')}T10:00:00Z`),
    );
    const result = earned({ lessonEnds: [...ends].reverse(), goalsCompleted: [], timeZone: 'UTC' });
    expect(result['first-lesson']).toBe('2026-03-10T10:00:00.000Z');
    expect(result['five-lessons']).toBe('2026-03-18T10:00:00.000Z');
    expect(result['ten-lessons']).toBe('2026-03-28T10:00:00.000Z');
    expect(
      earned({ lessonEnds: ends.slice(0, 4), goalsCompleted: [], timeZone: 'UTC' })['five-lessons'],
    ).toBeNull();
  });

  it('a goal reached earns on the first day any goal was completed', () => {
    const result = earned({
      lessonEnds: [],
      goalsCompleted: [at('2026-05-02T09:00:00Z'), at('2026-04-01T09:00:00Z')],
      timeZone: 'UTC',
    });
    expect(result['goal-completed']).toBe('2026-04-01T09:00:00.000Z');
    expect(result['first-lesson']).toBeNull();
  });

  it('a four-week streak needs a lesson in each of four weeks in a row, Monday to Sunday', () => {
    // Mondays 2026-06-01, 06-08, 06-15, 06-22: two lessons in the first week count once.
    const streak = [
      '2026-06-01T12:00:00Z',
      '2026-06-07T12:00:00Z',
      '2026-06-14T12:00:00Z',
      '2026-06-15T12:00:00Z',
      '2026-06-28T12:00:00Z',
    ].map(at);
    expect(earned({ lessonEnds: streak, goalsCompleted: [], timeZone: 'UTC' })['four-week-streak']).toBe(
      '2026-06-28T12:00:00.000Z',
    );
    // A week without a lesson starts the count again.
    const broken = [
      '2026-06-01T12:00:00Z',
      '2026-06-08T12:00:00Z',
      '2026-06-22T12:00:00Z',
      '2026-06-29T12:00:00Z',
    ].map(at);
    expect(
      earned({ lessonEnds: broken, goalsCompleted: [], timeZone: 'UTC' })['four-week-streak'],
    ).toBeNull();
  });

  it('counts weeks in the student’s zone: late Sunday in New York is Monday in UTC', () => {
    // Sunday 2026-06-07 23:30 in New York is Monday 06-08 03:30 UTC.
    const ends = [
      '2026-06-01T15:00:00Z',
      '2026-06-08T03:30:00Z',
      '2026-06-15T15:00:00Z',
      '2026-06-22T15:00:00Z',
    ].map(at);
    expect(earned({ lessonEnds: ends, goalsCompleted: [], timeZone: 'UTC' })['four-week-streak']).toBe(
      '2026-06-22T15:00:00.000Z',
    );
    expect(
      earned({ lessonEnds: ends, goalsCompleted: [], timeZone: 'America/New_York' })['four-week-streak'],
    ).toBeNull();
  });
});
