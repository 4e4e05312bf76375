/**
 * This tab's live channel (GET /api/live, a WebSocket): open while a verified user is signed in,
 * closed at sign-out, reconnected after a drop with a growing pause (1 s doubling to 30 s, with a
 * little randomness so a restarted server is not hit by every tab at once). Screens subscribe to
 * its frames; the unread count in the navigation is kept here.
 *
 * The channel only hurries things along: messages live in the database, and whoever listens
 * catches up by asking for what came after the last one it has, on every (re)connection.
 */
import type { InferResponseType } from 'hono/client';
import type { LiveMessage } from '../../server/messages/live';
import { api, request } from './api';

/** A message as the API gives it. */
export type MessageView = InferResponseType<(typeof api.conversations)[':id']['messages']['$post'], 201>;

/** A line of a lesson room's chat, as the API gives it. */
export type RoomChatLine = InferResponseType<(typeof api.lessons)[':id']['room']['chat']['$post'], 201>;

type Listener = (frame: LiveMessage) => void;

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;
/** The server closes with this when the session behind the channel ended. */
const SIGNED_OUT = 4001;

function createLive() {
  const listeners = new Set<Listener>();
  const unreadListeners = new Set<() => void>();
  let socket: WebSocket | null = null;
  let userId: string | null = null;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let unread = 0;
  /** The conversation this tab shows, while visible: its messages are read, not counted. */
  let viewing: string | null = null;

  const setUnread = (total: number) => {
    if (total === unread) return;
    unread = total;
    for (const listener of unreadListeners) listener();
  };

  // A count added up from frames drifts (a frame and a fresh count may both include one message):
  // it is shown at once, and the server's own count replaces it a moment after the last change.
  let recount: ReturnType<typeof setTimeout> | undefined;
  const recountSoon = () => {
    clearTimeout(recount);
    recount = setTimeout(() => void refreshUnread(), 500);
  };

  const emit = (frame: LiveMessage) => {
    if (frame.type === 'read') {
      setUnread(frame.unreadTotal);
      recountSoon();
    }
    if (
      frame.type === 'message' &&
      frame.message.senderId !== null &&
      frame.message.senderId !== userId &&
      frame.message.conversationId !== viewing
    ) {
      setUnread(unread + 1);
      recountSoon();
    }
    for (const listener of listeners) listener(frame);
  };

  async function refreshUnread() {
    try {
      setUnread((await request(api.conversations.unread.$get())).unreadTotal);
    } catch {
      // The count stays as it was; the next connection or read corrects it.
    }
  }

  function open() {
    if (!userId || typeof WebSocket === 'undefined') return;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/live`;
    const current = new WebSocket(url);
    socket = current;
    current.onmessage = (event) => {
      let frame: LiveMessage;
      try {
        frame = JSON.parse(String(event.data)) as LiveMessage;
      } catch {
        return;
      }
      if (frame.type === 'ready') {
        retryMs = FIRST_RETRY_MS;
        void refreshUnread();
      }
      emit(frame);
    };
    current.onclose = (event) => {
      if (socket !== current) return;
      socket = null;
      if (!userId || event.code === SIGNED_OUT) return;
      const wait = retryMs * (0.75 + Math.random() / 2);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      retryTimer = setTimeout(open, wait);
    };
  }

  return {
    /** Opens the channel for this user (again, if it was another's). */
    connect(id: string) {
      if (userId === id && socket) return;
      this.disconnect();
      userId = id;
      retryMs = FIRST_RETRY_MS;
      open();
    },
    disconnect() {
      userId = null;
      clearTimeout(retryTimer);
      clearTimeout(recount);
      const closing = socket;
      socket = null;
      closing?.close(1000, 'Signed out');
      setUnread(0);
    },
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    /** For useSyncExternalStore: the unread count. */
    subscribeUnread(listener: () => void) {
      unreadListeners.add(listener);
      return () => {
        unreadListeners.delete(listener);
      };
    },
    unread: () => unread,
    setUnread,
    /** Marks which conversation this tab is showing (null: none, or the tab is hidden). */
    view(conversationId: string | null) {
      viewing = conversationId;
    },
  };
}

export const live = createLive();
