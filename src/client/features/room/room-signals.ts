/**
 * The room's signalling, in one place: what this page tells the other participant's page goes
 * up as POST /api/lessons/:id/room/signal, and what theirs tells this one comes down this tab's
 * live channel. Moving the room to a media server (docs/lesson-room.md) replaces this module and
 * call.ts, not the screens.
 */
import type { RoomSignal } from '../../../shared/lessons/room-schemas';
import { api, request } from '../../lib/api';
import { live } from '../../lib/live';

export type Signal = RoomSignal['signal'];

export interface SignalChannel {
  /** This page's id: new on every load, so the other side tells a rejoin from a stale signal. */
  readonly peer: string;
  send(signal: Signal): Promise<void>;
  close(): void;
}

export function openSignals(
  lessonId: string,
  onSignal: (from: { peer: string; role: 'tutor' | 'student' }, signal: Signal) => void,
  onReconnected: () => void,
): SignalChannel {
  const peer = crypto.randomUUID();
  const unsubscribe = live.subscribe((frame) => {
    if (frame.type === 'ready') onReconnected();
    if (frame.type === 'room-signal' && frame.lessonId === lessonId)
      onSignal({ peer: frame.peer, role: frame.from }, frame.signal);
  });
  // One request at a time, in order: a candidate overtaking its description would be refused.
  let sending: Promise<unknown> = Promise.resolve();
  return {
    peer,
    send(signal) {
      const sent = sending.then(() =>
        request(api.lessons[':id'].room.signal.$post({ param: { id: lessonId }, json: { peer, signal } })),
      );
      sending = sent.catch(() => undefined);
      return sent.then(() => undefined);
    },
    close: unsubscribe,
  };
}
