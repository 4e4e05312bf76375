import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/server/http/api-error';
import {
  checkMove,
  LESSON_MOVES,
  LESSON_STATES,
  type LessonMoveName,
  type LessonState,
  moveTarget,
} from '../../src/server/lessons/lifecycle/lesson-moves';
import { LESSON_STATUSES, type LessonStatus } from '../../src/shared/lessons/lesson-schemas';
import { isPlanned, neverHappened, readStatus, tookPlace } from '../../src/shared/lessons/lesson-states';

/**
 * The lifecycle as docs/architecture.md draws it, written out by hand: every move a lesson may
 * make, from where to where. Anything else must be refused.
 */
const ALLOWED: [LessonMoveName, LessonState, LessonState][] = [
  ['request', 'new', 'pending'],
  ['bookInstantly', 'new', 'confirmed'],
  ['confirm', 'pending', 'confirmed'],
  ['decline', 'pending', 'declined'],
  ['expire', 'pending', 'expired'],
  ...(['pending', 'confirmed'] as const).flatMap((from): [LessonMoveName, LessonState, LessonState][] => [
    ['cancelByStudent', from, 'cancelled'],
    ['cancelByTutor', from, 'cancelled'],
    ['cancelByAdmin', from, 'cancelled'],
    ['cancelForSuspension', from, 'cancelled'],
    ['cancelForDeletion', from, 'cancelled'],
    ['move', from, from],
    ['acceptProposal', from, from],
  ]),
  ['complete', 'confirmed', 'completed'],
  ['markNoShow', 'confirmed', 'no_show'],
  ['markNoShow', 'completed', 'no_show'],
  ...LESSON_STATUSES.map((status): [LessonMoveName, LessonState, LessonState] => ['refund', status, status]),
];

const moves = Object.keys(LESSON_MOVES) as LessonMoveName[];

function refusal(move: LessonMoveName, from: LessonState) {
  try {
    checkMove(move, from);
    return null;
  } catch (error) {
    return error;
  }
}

describe("a lesson's moves", () => {
  it('knows every status, and a lesson not yet booked', () => {
    expect([...LESSON_STATES].sort()).toEqual(['new', ...LESSON_STATUSES].sort());
  });

  for (const from of LESSON_STATES)
    for (const to of LESSON_STATES)
      it(`from ${from} to ${to}: allows exactly the moves of the table, and refuses the rest with 409`, () => {
        for (const move of moves) {
          const listed = ALLOWED.some(([name, a, b]) => name === move && a === from && b === to);
          const error = refusal(move, from);
          if (listed) {
            expect(error, `${move} from ${from}`).toBeNull();
            expect(moveTarget(move, from)).toBe(to);
          } else if (error === null) {
            // Allowed from here, but to another status: not a move between these two.
            expect(moveTarget(move, from)).not.toBe(to);
          } else {
            expect(error).toBeInstanceOf(ApiError);
            expect((error as ApiError).status).toBe(409);
            expect((error as ApiError).code).toBe('MOVE_NOT_ALLOWED');
          }
        }
      });

  it('says in words why a move is refused', () => {
    expect(() => checkMove('confirm', 'cancelled')).toThrow(
      'This lesson is cancelled, so it cannot be confirmed.',
    );
    expect(() => checkMove('cancelByStudent', 'completed')).toThrow(
      'This lesson is completed, so it cannot be cancelled.',
    );
  });
});

describe("a status read now, and what 'planned' is", () => {
  const at = Date.parse('2026-12-01T12:00:00Z');
  const before = new Date(at - 1);
  const after = new Date(at + 1);
  const cases: [LessonStatus, Date | null, Date, LessonStatus][] = [
    ['pending', after, after, 'pending'],
    ['pending', before, after, 'expired'],
    ['pending', null, after, 'pending'],
    ['confirmed', null, after, 'confirmed'],
    ['confirmed', null, before, 'completed'],
    ['cancelled', null, before, 'cancelled'],
  ];
  it.each(cases)('a stored %s lesson (deadline %s, end %s) reads %s', (stored, expires, ends, reads) => {
    expect(readStatus(stored, { expires_at: expires, ends_at: ends }, at)).toBe(reads);
  });

  it('is a waiting request or a confirmed lesson, nothing else', () => {
    expect(LESSON_STATUSES.filter(isPlanned)).toEqual(['pending', 'confirmed']);
  });

  it('leaves every status in exactly one reading: planned, took place, never happened, or a no-show', () => {
    for (const status of LESSON_STATUSES) {
      const readings = [isPlanned(status), tookPlace(status), neverHappened(status), status === 'no_show'];
      expect(readings.filter(Boolean), status).toHaveLength(1);
    }
  });
});
