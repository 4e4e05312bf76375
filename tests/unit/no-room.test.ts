import { describe, expect, it } from 'vitest';
import { whyNoRoom } from '../../src/client/features/room/no-room';

const lesson = {
  tutor: { id: 't', displayName: 'Priya Raman' },
  student: { id: 's', displayName: 'Alex Kim' },
  cancellation: {
    freeUntil: '2026-11-30T14:30:00.000Z',
    feePercent: 100,
    fee: { amountCents: 0, currency: 'USD' },
    lateFee: null,
    by: null,
    at: null,
    reason: null,
  },
};
// 14:30 UTC is 09:30 in New York that day (winter).
const AT = '2026-12-01T14:30:00.000Z';
const cancelled = (by: 'tutor' | 'student' | 'tutorlane', reason: string | null = null) => ({
  ...lesson,
  status: 'cancelled' as const,
  cancellation: { ...lesson.cancellation, by, at: AT, reason },
});

describe('why a lesson has no room', () => {
  it('names who cancelled it and when, in the viewer’s zone, with the reason they gave', () => {
    expect(whyNoRoom(cancelled('tutor', 'I am ill'), 'student', 'America/New_York')).toEqual({
      headline: 'This lesson was cancelled, so it has no room.',
      details: ['Priya Raman cancelled it on Tuesday, December 1, 2026, 09:30.', 'Reason given: I am ill'],
    });
    expect(whyNoRoom(cancelled('tutor'), 'tutor', 'Asia/Tokyo').details).toEqual([
      'You cancelled it on Tuesday, December 1, 2026, 23:30.',
    ]);
    expect(whyNoRoom(cancelled('student'), 'tutor', 'UTC').details).toEqual([
      'Alex Kim cancelled it on Tuesday, December 1, 2026, 14:30.',
    ]);
    expect(whyNoRoom(cancelled('tutorlane'), 'student', 'UTC').details).toEqual([
      "Tutorlane cancelled it on Tuesday, December 1, 2026, 14:30, because Priya Raman's account is no longer active.",
    ]);
    // An admin's cancellation is the team's, with the words both people were mailed.
    expect(whyNoRoom(cancelled('tutorlane', 'Tutor is ill'), 'student', 'UTC').details).toEqual([
      'The Tutorlane team cancelled it on Tuesday, December 1, 2026, 14:30.',
      'Reason given: Tutor is ill',
    ]);
  });

  it('says a request was declined by the tutor, or expired without an answer', () => {
    expect(whyNoRoom({ ...lesson, status: 'declined' }, 'student', 'UTC')).toEqual({
      headline: 'This lesson request was declined, so it has no room.',
      details: ['Priya Raman declined it.'],
    });
    expect(whyNoRoom({ ...lesson, status: 'declined' }, 'tutor', 'UTC').details).toEqual([
      'You declined it.',
    ]);
    expect(whyNoRoom({ ...lesson, status: 'expired' }, 'student', 'UTC')).toEqual({
      headline: 'This lesson request expired, so it has no room.',
      details: ['It expired without an answer from Priya Raman.'],
    });
    expect(whyNoRoom({ ...lesson, status: 'expired' }, 'tutor', 'UTC').details).toEqual([
      'It expired before you answered it.',
    ]);
  });

  it('says a request waits for the tutor, and that a missed lesson has ended', () => {
    expect(whyNoRoom({ ...lesson, status: 'pending' }, 'student', 'UTC').details).toEqual([
      'Its room opens once Priya Raman accepts it.',
    ]);
    expect(whyNoRoom({ ...lesson, status: 'pending' }, 'tutor', 'UTC').details).toEqual([
      'Its room opens once you accept it.',
    ]);
    expect(whyNoRoom({ ...lesson, status: 'no_show' }, 'student', 'UTC')).toEqual({
      headline: 'This lesson has ended, and its room is closed.',
      details: ['Priya Raman marked that you did not join.'],
    });
  });
});
