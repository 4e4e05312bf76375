import { describe, expect, it } from 'vitest';
import {
  CANCELLATION_WINDOW_HOURS,
  feeCents,
  feeStartsAt,
  freeUntil,
  GRACE_MS,
  policySentence,
  studentTerms,
  tutorTerms,
} from '../../src/shared/lessons/cancellation-policy';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 11, 10, 10);
const lesson = (windowHours: number, feePercent = 100, bookedAt = START - 10 * 24 * HOUR) => ({
  windowHours,
  feePercent,
  priceCents: 4000,
  bookedAt,
  start: START,
  pending: false,
});

describe('the cancellation policy', () => {
  it('names the moment cancelling starts to cost, the one studentTerms charges from', () => {
    // Booked an hour before a lesson with a 24-hour window: free for the 15 minutes' grace only.
    const justBooked = lesson(24, 100, START - HOUR);
    expect(feeStartsAt(justBooked)).toBe(START - HOUR + GRACE_MS);
    expect(studentTerms(justBooked, START - HOUR + GRACE_MS - 1).feeCents).toBe(0);
    expect(studentTerms(justBooked, START - HOUR + GRACE_MS).feeCents).toBe(4000);
    // Booked long before: from the window's start.
    expect(feeStartsAt(lesson(24))).toBe(START - 24 * HOUR);
    // Never, before the start: no fee, no window, a grace reaching the start, or a request.
    expect(feeStartsAt(lesson(24, 0))).toBeNull();
    expect(feeStartsAt(lesson(0))).toBeNull();
    expect(feeStartsAt(lesson(24, 100, START - 10 * 60_000))).toBeNull();
    expect(feeStartsAt({ ...lesson(24), pending: true })).toBeNull();
  });

  it.each(CANCELLATION_WINDOW_HOURS)('is free until %i hours before, then charges the fee', (hours) => {
    const rule = lesson(hours);
    expect(freeUntil(START, hours)).toBe(START - hours * HOUR);
    if (hours > 0) {
      expect(studentTerms(rule, START - hours * HOUR - 1)).toEqual({
        canCancel: true,
        feeCents: 0,
        canMove: true,
      });
      expect(studentTerms(rule, START - hours * HOUR)).toEqual({
        canCancel: true,
        feeCents: 4000,
        canMove: false,
      });
    } else {
      expect(studentTerms(rule, START - 1)).toEqual({ canCancel: true, feeCents: 0, canMove: true });
    }
  });

  it('rounds the fee half up to a whole minor unit', () => {
    expect(feeCents(4000, 50)).toBe(2000);
    expect(feeCents(1, 50)).toBe(1);
    expect(feeCents(3, 50)).toBe(2);
    expect(feeCents(2, 50)).toBe(1);
    expect(feeCents(999, 100)).toBe(999);
    expect(feeCents(999, 0)).toBe(0);
  });

  it('is free within 15 minutes of booking and for a request, but nothing once started', () => {
    const booked = START - 2 * HOUR;
    const rule = lesson(24, 100, booked);
    expect(studentTerms(rule, booked + GRACE_MS - 1).feeCents).toBe(0);
    expect(studentTerms(rule, booked + GRACE_MS).feeCents).toBe(4000);
    // The grace frees the cancellation, not a move.
    expect(studentTerms(rule, booked + 1).canMove).toBe(false);
    expect(studentTerms({ ...rule, pending: true }, booked + GRACE_MS).feeCents).toBe(0);
    const started = lesson(24, 100, START - 60_000);
    expect(studentTerms(started, START)).toEqual({ canCancel: false, feeCents: 0, canMove: false });
  });

  it('lets the tutor cancel until the start, late inside the window unless it is a request', () => {
    expect(tutorTerms(lesson(24), START - 25 * HOUR)).toEqual({ canCancel: true, late: false });
    expect(tutorTerms(lesson(24), START - 23 * HOUR)).toEqual({ canCancel: true, late: true });
    expect(tutorTerms({ ...lesson(24), pending: true }, START - HOUR)).toEqual({
      canCancel: true,
      late: false,
    });
    expect(tutorTerms(lesson(24), START)).toEqual({ canCancel: false, late: false });
  });

  it('states the policy in a sentence', () => {
    expect(policySentence({ cancellationWindowHours: 24, lateCancelFeePercent: 100 })).toBe(
      'Free cancellation until 24 hours before the lesson; after that, 100% of the price.',
    );
    expect(policySentence({ cancellationWindowHours: 0, lateCancelFeePercent: 100 })).toBe(
      'Free cancellation and moves until the lesson starts.',
    );
  });
});
