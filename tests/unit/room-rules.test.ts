import { describe, expect, it } from 'vitest';
import {
  hasRoom,
  mayMarkNoShow,
  offersJoin,
  roomState,
  roomWindow,
} from '../../src/shared/lessons/room-rules';
import { roomSignalSchema } from '../../src/shared/lessons/room-schemas';

const MINUTE = 60_000;
const lesson = { start: 100 * MINUTE, end: 160 * MINUTE };

describe('the lesson room’s window', () => {
  it('opens 10 minutes before the start and closes 30 minutes after the end, half-open', () => {
    expect(roomWindow(lesson)).toEqual({ opensAt: 90 * MINUTE, closesAt: 190 * MINUTE });
    expect(roomState(lesson, 90 * MINUTE - 1)).toBe('not-open');
    expect(roomState(lesson, 90 * MINUTE)).toBe('open');
    expect(roomState(lesson, 160 * MINUTE)).toBe('open');
    expect(roomState(lesson, 190 * MINUTE - 1)).toBe('open');
    expect(roomState(lesson, 190 * MINUTE)).toBe('ended');
  });

  it('exists only for a lesson that takes place', () => {
    expect(hasRoom('confirmed')).toBe(true);
    expect(hasRoom('completed')).toBe(true);
    for (const status of ['pending', 'declined', 'expired', 'cancelled', 'no_show'] as const)
      expect(hasRoom(status)).toBe(false);
  });
});

describe('Join, in the lists of lessons', () => {
  it('is offered only while a confirmed lesson’s room is open and the lesson has not ended', () => {
    const confirmed = { ...lesson, status: 'confirmed' as const };
    expect(offersJoin(confirmed, 90 * MINUTE - 1)).toBe(false);
    expect(offersJoin(confirmed, 90 * MINUTE)).toBe(true);
    expect(offersJoin(confirmed, lesson.end - 1)).toBe(true);
    // Ended: the room stays open half an hour more, but nobody is invited in any longer.
    expect(offersJoin(confirmed, lesson.end)).toBe(false);
    expect(offersJoin({ ...lesson, status: 'completed' }, lesson.end + MINUTE)).toBe(false);
    for (const status of ['completed', 'no_show', 'cancelled', 'pending', 'declined', 'expired'] as const)
      expect(offersJoin({ ...lesson, status }, 120 * MINUTE), status).toBe(false);
  });
});

describe('no-shows', () => {
  it('may be marked after the end, for a student who never joined, once', () => {
    const ended = { end: lesson.end, status: 'completed' as const };
    expect(mayMarkNoShow(ended, false, lesson.end)).toBe(true);
    expect(mayMarkNoShow(ended, false, lesson.end - 1)).toBe(false);
    expect(mayMarkNoShow(ended, true, lesson.end + MINUTE)).toBe(false);
    expect(mayMarkNoShow({ ...ended, status: 'no_show' }, false, lesson.end + MINUTE)).toBe(false);
    expect(mayMarkNoShow({ ...ended, status: 'cancelled' }, false, lesson.end + MINUTE)).toBe(false);
  });

  it('may be marked only until 24 hours after the end', () => {
    const ended = { end: lesson.end, status: 'completed' as const };
    expect(mayMarkNoShow(ended, false, lesson.end + 24 * 60 * MINUTE - 1)).toBe(true);
    expect(mayMarkNoShow(ended, false, lesson.end + 24 * 60 * MINUTE)).toBe(false);
    expect(mayMarkNoShow(ended, false, lesson.end + 10 * 24 * 60 * MINUTE)).toBe(false);
  });
});

describe('signals', () => {
  it('take the kinds a call needs, and nothing else', () => {
    const ok = (signal: unknown) => roomSignalSchema.safeParse({ peer: 'page-12345', signal }).success;
    expect(ok({ kind: 'hello' })).toBe(true);
    expect(ok({ kind: 'description', type: 'offer', sdp: 'v=0' })).toBe(true);
    expect(
      ok({
        kind: 'candidate',
        candidate: 'candidate:1 1 udp 1 127.0.0.1 5000 typ host',
        sdpMid: '0',
        sdpMLineIndex: 0,
      }),
    ).toBe(true);
    expect(ok({ kind: 'state', muted: true, videoOff: false, sharing: false })).toBe(true);
    expect(ok({ kind: 'description', type: 'pranswer', sdp: 'v=0' })).toBe(false);
    expect(ok({ kind: 'hello', extra: 1 })).toBe(false);
    expect(ok({ kind: 'state', muted: 'yes', videoOff: false, sharing: false })).toBe(false);
    expect(roomSignalSchema.safeParse({ peer: 'no', signal: { kind: 'hello' } }).success).toBe(false);
  });
});
