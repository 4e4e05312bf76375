/**
 * The rooms' signalling, in one place: what this page tells another participant's page goes up
 * as a POST to the room's signal route, and what theirs tells this one comes down this tab's live
 * channel. A lesson's room has one other page; a class's room has one per other person (a mesh),
 * so there a signal names the page it is for. Moving the rooms to a media server
 * (docs/lesson-room.md) replaces this module, call.ts and mesh.ts, not the screens.
 */
import type { RoomSignal } from '../../../shared/lessons/room-schemas';
import { api, request } from '../../lib/api';
import { live } from '../../lib/live';

export type Signal = RoomSignal['signal'];
type LiveMessage = Parameters<Parameters<typeof live.subscribe>[0]>[0];
export type Role = 'tutor' | 'student';
/** A page in a room: its user, and its own id (new on every load). */
export interface PageAddress {
  userId: string;
  peer: string;
}

export interface SignalChannel {
  /** This page's id: new on every load, so the other side tells a rejoin from a stale signal. */
  readonly peer: string;
  send(signal: Signal): Promise<void>;
  close(): void;
}

/** A channel whose signals may name the page they are for (none: every other page in the room). */
export interface RoomChannel extends SignalChannel {
  send(signal: Signal, to?: PageAddress): Promise<void>;
}

/**
 * A room's channel: `post` sends a signal up, `heard` picks this room's signals out of the live
 * channel's frames (null for anything else), and `onReconnected` runs when the live channel came
 * back, in case a signal was lost meanwhile.
 */
function openChannel<From>(
  post: (body: { peer: string; signal: Signal; to?: PageAddress }) => Promise<unknown>,
  heard: (frame: LiveMessage, peer: string) => { from: From; signal: Signal } | null,
  onSignal: (from: From, signal: Signal) => void,
  onReconnected: () => void,
): RoomChannel {
  const peer = crypto.randomUUID();
  const unsubscribe = live.subscribe((frame) => {
    if (frame.type === 'ready') onReconnected();
    const signal = heard(frame, peer);
    if (signal) onSignal(signal.from, signal.signal);
  });
  // One request at a time, in order: a candidate overtaking its description would be refused.
  let sending: Promise<unknown> = Promise.resolve();
  return {
    peer,
    send(signal, to) {
      const sent = sending.then(() => post({ peer, signal, ...(to ? { to } : {}) }));
      sending = sent.catch(() => undefined);
      return sent.then(() => undefined);
    },
    close: unsubscribe,
  };
}

/** A lesson room's channel: everything goes to the lesson's other participant. */
export function openSignals(
  lessonId: string,
  onSignal: (from: { peer: string; role: Role }, signal: Signal) => void,
  onReconnected: () => void,
): SignalChannel {
  return openChannel(
    ({ peer, signal }) =>
      request(api.lessons[':id'].room.signal.$post({ param: { id: lessonId }, json: { peer, signal } })),
    (frame) =>
      frame.type === 'room-signal' && frame.lessonId === lessonId
        ? { from: { peer: frame.peer, role: frame.from }, signal: frame.signal }
        : null,
    onSignal,
    onReconnected,
  );
}

/** A class session room's channel: signals for this page, or for every page in the room. */
export function openClassSignals(
  room: { classId: string; sessionId: string },
  onSignal: (from: PageAddress & { role: Role }, signal: Signal) => void,
  onReconnected: () => void,
): RoomChannel {
  const param = { id: room.classId, sessionId: room.sessionId };
  return openChannel(
    (json) => request(api.classes[':id'].sessions[':sessionId'].room.signal.$post({ param, json })),
    (frame, peer) =>
      frame.type === 'class-room-signal' &&
      frame.sessionId === room.sessionId &&
      (frame.to === null || frame.to === peer)
        ? { from: frame.from, signal: frame.signal }
        : null,
    onSignal,
    onReconnected,
  );
}
