/**
 * The live channel: each signed-in tab holds one WebSocket (GET /api/live), and what concerns its
 * user (a new message, a conversation read in another tab, the lesson room's signals and chat) is
 * pushed to it as JSON.
 *
 * With several servers on one PostgreSQL, an event is published with NOTIFY and every server
 * LISTENs, delivering to the sockets it holds (a server skips its own notifications: it delivered
 * those at once). The embedded store has one server, which delivers in-process.
 *
 * Nothing is only in the channel: every message is in the database first, numbered, and a client
 * that was away asks for everything after the last one it has. So a notification lost with a
 * server that died costs a delay, never a message.
 */
import { randomUUID } from 'node:crypto';
import type { WSContext } from 'hono/ws';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { EndedAccounts } from '../accounts/ended-accounts';
import { pgModule } from '../db/pg-module';
import type { DB } from '../db/schema';
import type { RoomFrame } from '../lessons/room';
import type { Logger } from '../logging/logger';
import { type MessageView, toMessage } from './conversations';
import { notifierOn } from './live-notify';
import { seenBy } from './support';

/** What the server tells a tab. */
export type LiveMessage =
  | { type: 'ready' }
  | { type: 'message'; message: MessageView }
  /** A moderator hid a message: open conversations replace it (`message` says only that). */
  | { type: 'message-hidden'; message: MessageView }
  | { type: 'read'; conversationId: string; unreadTotal: number }
  | RoomFrame;

/**
 * What servers tell each other (and themselves): who should hear what. A message of a support
 * conversation names its `requesterId`, whose tabs get it with Support as the sender of answers
 * (whichever way it travels).
 */
type LiveEvent =
  | { type: 'message'; recipients: string[]; message: MessageView; requesterId?: string | null }
  | { type: 'message-hidden'; recipients: string[]; message: MessageView; requesterId?: string | null }
  /** A message too long for a notification: the receiving server reads it from the database. */
  | { type: 'message-ref'; recipients: string[]; messageId: number; requesterId?: string | null }
  | { type: 'read'; userId: string; conversationId: string; unreadTotal: number }
  | { type: 'session-ended'; sessionToken: string }
  /** An account deleted: each server stops believing its cached sessions (../accounts/ended-accounts.ts). */
  | { type: 'account-ended'; userId: string }
  | { type: 'frame'; recipients: string[]; frame: RoomFrame }
  /** Any other event too long for a notification, kept for a while in live_payloads. */
  | { type: 'payload-ref'; payloadId: number };

const CHANNEL = 'tutorlane_live';
/** PostgreSQL refuses a NOTIFY payload from 8,000 bytes; leave room for the envelope. */
const MAX_PAYLOAD_BYTES = 7_500;
/** A tab that lets this much pile up unread is cut off; it reconnects and catches up. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const HEARTBEAT_MS = 30_000;
/** How long a payload too large for a notification is kept for the servers to read. */
const PAYLOAD_KEPT_MS = 10 * 60 * 1000;
/** How often the sessions behind open sockets are checked, for sign-outs no hook reported. */
const SESSION_SWEEP_MS = 60_000;

interface Connection {
  userId: string;
  sessionToken: string;
  socket: WSContext;
  alive: boolean;
}

export interface LiveHub {
  /** Registers an open socket; returns what to call when it closes. */
  attach(userId: string, sessionToken: string, socket: WSContext): () => void;
  /** A new message for its conversation's two sides (`requesterId`: a support conversation's person). */
  messageSent(message: MessageView, recipients: string[], requesterId?: string | null): Promise<void>;
  /** A message a moderator hid, for its conversation's two sides. */
  messageHidden(message: MessageView, recipients: string[], requesterId?: string | null): Promise<void>;
  /** A conversation read by `userId`: their other tabs update their counts. */
  conversationRead(userId: string, conversationId: string, unreadTotal: number): Promise<void>;
  /** A session that ended (sign-out): its sockets close, on every server. */
  sessionEnded(sessionToken: string): Promise<void>;
  /** An account deleted (after its transaction committed): every server refuses its cached sessions. */
  accountEnded(userId: string): Promise<void>;
  /** A lesson room's frame for its participants' tabs. */
  roomFrame(recipients: string[], frame: RoomFrame): Promise<void>;
  /** How many sockets this server holds. */
  readonly connections: number;
  start(): Promise<void>;
  /** Closes every socket (1012: the server is restarting; clients reconnect) and stops listening. */
  stop(): Promise<void>;
}

export function createLiveHub(options: {
  db: Kysely<DB>;
  pool?: pg.Pool | undefined;
  /**
   * Where the listener connects when it must not share the queries' pool: a pooler in transaction
   * mode lends a connection per transaction, and a notification arrives on the connection that
   * listened (DATABASE_LISTEN_URL, docs/scaling.md). Its one connection is the hub's to close.
   */
  listenUrl?: string | undefined;
  logger: Logger;
  /** Told of every account deletion, here and on the other servers; asked to catch up after a gap. */
  endedAccounts?: Pick<EndedAccounts, 'add' | 'catchUp'>;
}): LiveHub {
  const { db, pool, logger, endedAccounts } = options;
  const listenPool =
    pool && options.listenUrl
      ? new (pgModule().Pool)({ connectionString: options.listenUrl, max: 1, keepAlive: true })
      : undefined;
  // An idle connection losing its server emits here; the listener's own handler reconnects.
  listenPool?.on('error', () => {});
  const listening = listenPool ?? pool;
  const origin = randomUUID();
  const byUser = new Map<string, Set<Connection>>();
  let listener: pg.PoolClient | undefined;
  const notifier = pool && notifierOn(CHANNEL, pool, () => listener);
  /** Gives the listener's client back to the pool, once however many paths ask. */
  let dropListener: ((error?: Error) => void) | undefined;
  let timers: NodeJS.Timeout[] = [];
  let sweeping: Promise<void> | undefined;
  let stopped = false;

  const send = (connection: Connection, payload: LiveMessage) => {
    const raw = connection.socket.raw as { bufferedAmount?: number } | undefined;
    if ((raw?.bufferedAmount ?? 0) > MAX_BUFFERED_BYTES) {
      connection.socket.close(1013, 'Too far behind');
      return;
    }
    connection.socket.send(JSON.stringify(payload));
  };
  const toUser = (userId: string, payload: LiveMessage) => {
    for (const connection of byUser.get(userId) ?? []) send(connection, payload);
  };
  const messageTo = (
    userId: string,
    type: 'message' | 'message-hidden',
    message: MessageView,
    requesterId: string | null = null,
  ) => toUser(userId, { type, message: seenBy(userId, message, requesterId) });

  /** Delivers an event to the sockets this server holds. */
  async function deliver(event: LiveEvent) {
    switch (event.type) {
      case 'message':
        for (const userId of event.recipients) messageTo(userId, 'message', event.message, event.requesterId);
        return;
      case 'message-ref': {
        if (!event.recipients.some((userId) => byUser.has(userId))) return;
        const row = await db
          .selectFrom('messages')
          .select([
            'id',
            'conversation_id',
            'sender_id',
            'body',
            'event',
            'created_at',
            'hidden_at',
            'erased_at',
          ])
          .where('id', '=', event.messageId)
          .executeTakeFirst();
        if (!row) return;
        for (const userId of event.recipients)
          messageTo(userId, 'message', toMessage(row), event.requesterId);
        return;
      }
      case 'message-hidden':
        for (const userId of event.recipients)
          messageTo(userId, 'message-hidden', event.message, event.requesterId);
        return;
      case 'read':
        toUser(event.userId, {
          type: 'read',
          conversationId: event.conversationId,
          unreadTotal: event.unreadTotal,
        });
        return;
      case 'session-ended':
        for (const connections of byUser.values())
          for (const connection of connections)
            if (connection.sessionToken === event.sessionToken) connection.socket.close(4001, 'Signed out');
        return;
      case 'account-ended':
        endedAccounts?.add(event.userId);
        return;
      case 'frame':
        for (const userId of event.recipients) toUser(userId, event.frame);
        return;
      case 'payload-ref': {
        const row = await db
          .selectFrom('live_payloads')
          .select('body')
          .where('id', '=', event.payloadId)
          .executeTakeFirst();
        if (row) await deliver(JSON.parse(row.body) as LiveEvent);
        return;
      }
    }
  }

  /**
   * Delivers here and tells the other servers. It never throws: what it announces is already
   * committed, and a caller answering 500 for it would have the user send it again. A frame that
   * did not go out costs a delay: the tabs catch up from the database on their next `ready`.
   */
  async function publish(event: LiveEvent) {
    try {
      await deliver(event);
      if (pool) await notify(event);
    } catch (error) {
      logger.warn({ err: (error as Error).message, event: event.type }, 'live publish failed');
    }
  }

  async function notify(event: LiveEvent) {
    if (!pool) return;
    let payload = JSON.stringify({ origin, event });
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
      let ref: LiveEvent;
      if (event.type === 'message')
        ref = {
          type: 'message-ref',
          recipients: event.recipients,
          messageId: event.message.id,
          requesterId: event.requesterId ?? null,
        };
      else {
        // Kept long enough for every listening server to read it, then swept by the next one.
        await db
          .deleteFrom('live_payloads')
          .where('created_at', '<', new Date(Date.now() - PAYLOAD_KEPT_MS))
          .execute();
        const row = await db
          .insertInto('live_payloads')
          .values({ body: JSON.stringify(event) })
          .returning('id')
          .executeTakeFirstOrThrow();
        ref = { type: 'payload-ref', payloadId: Number(row.id) };
      }
      payload = JSON.stringify({ origin, event: ref });
    }
    // Sent with the others waiting, on the listener's own connection (./live-notify.ts).
    await notifier?.send(payload);
  }

  /** Reads the deletions this server may not have heard of while its listener was lost. */
  async function catchUpEndedAccounts() {
    try {
      await endedAccounts?.catchUp();
    } catch (error) {
      logger.warn({ err: (error as Error).message }, 'could not read the accounts deleted lately');
    }
  }

  /** Whether the listener was lost since it last listened: what it missed must be caught up. */
  let missed = false;
  async function listen() {
    if (!listening || stopped) return;
    let client: pg.PoolClient | undefined;
    // A lost connection can report more than one error (the server's message, then the socket's
    // end), and its query may fail as well: the client goes back to the pool, and the next
    // listener is scheduled, only once. A second release would throw outside any handler.
    let lost = false;
    const lose = (error?: Error) => {
      if (lost) return;
      lost = true;
      client?.release(error);
      listener = undefined;
      if (stopped) return;
      missed = true;
      setTimeout(() => void listen(), 1000).unref();
    };
    dropListener = lose;
    try {
      client = await listening.connect();
      // Stopped (or given up) while connecting: nothing is to listen any more.
      if (lost) {
        client.release();
        return;
      }
      listener = client;
      client.on('notification', (notification) => {
        if (notification.channel !== CHANNEL || !notification.payload) return;
        try {
          const parsed = JSON.parse(notification.payload) as { origin: string; event: LiveEvent };
          if (parsed.origin === origin) return;
          deliver(parsed.event).catch((error) =>
            logger.warn({ err: (error as Error).message }, 'live delivery failed'),
          );
        } catch {
          // Not ours: another program on this channel.
        }
      });
      client.on('error', (error) => {
        if (!lost) logger.warn({ err: error.message }, 'live listener lost its connection; reconnecting');
        lose(error);
      });
      await client.query(`listen ${CHANNEL}`);
      // Other servers' events went unheard while this one was not listening: every tab here is
      // told to catch up, as after a reconnection of its own.
      if (missed) {
        missed = false;
        for (const set of byUser.values()) for (const connection of set) send(connection, { type: 'ready' });
        await catchUpEndedAccounts();
      }
    } catch (error) {
      if (!lost) logger.warn({ err: (error as Error).message }, 'live listener could not connect; retrying');
      lose(error as Error);
    }
  }

  /** Closes the sockets whose session no longer exists (ended in a way no hook reported). */
  async function sweepSessions() {
    const tokens = [...new Set([...byUser.values()].flatMap((set) => [...set].map((c) => c.sessionToken)))];
    if (tokens.length === 0) return;
    const alive = await db
      .selectFrom('sessions')
      .select('token')
      .where('token', 'in', tokens)
      .where('expires_at', '>', new Date())
      .execute();
    const known = new Set(alive.map((row) => row.token));
    for (const token of tokens)
      if (!known.has(token)) await deliver({ type: 'session-ended', sessionToken: token });
  }

  return {
    attach(userId, sessionToken, socket) {
      const connection: Connection = { userId, sessionToken, socket, alive: true };
      let set = byUser.get(userId);
      if (!set) {
        set = new Set();
        byUser.set(userId, set);
      }
      set.add(connection);
      const raw = socket.raw as { on?: (event: 'pong', listener: () => void) => void } | undefined;
      raw?.on?.('pong', () => {
        connection.alive = true;
      });
      send(connection, { type: 'ready' });
      return () => {
        set.delete(connection);
        if (set.size === 0) byUser.delete(userId);
      };
    },
    messageSent: (message, recipients, requesterId = null) =>
      publish({ type: 'message', recipients, message, requesterId }),
    conversationRead: (userId, conversationId, unreadTotal) =>
      publish({ type: 'read', userId, conversationId, unreadTotal }),
    messageHidden: (message, recipients, requesterId = null) =>
      publish({ type: 'message-hidden', recipients, message, requesterId }),
    sessionEnded: (sessionToken) => publish({ type: 'session-ended', sessionToken }),
    accountEnded: (userId) => publish({ type: 'account-ended', userId }),
    roomFrame: (recipients, frame) => publish({ type: 'frame', recipients, frame }),
    get connections() {
      let count = 0;
      for (const set of byUser.values()) count += set.size;
      return count;
    },
    async start() {
      stopped = false;
      await listen();
      // A socket whose other end vanished (a phone that lost its network) answers no ping.
      const heartbeat = setInterval(() => {
        for (const set of byUser.values())
          for (const connection of set) {
            const raw = connection.socket.raw as { ping?: () => void; terminate?: () => void } | undefined;
            if (!connection.alive) {
              raw?.terminate?.();
              continue;
            }
            connection.alive = false;
            raw?.ping?.();
          }
      }, HEARTBEAT_MS);
      const sweep = setInterval(() => {
        sweeping ??= sweepSessions()
          .catch((error) => logger.warn({ err: (error as Error).message }, 'session sweep failed'))
          .finally(() => {
            sweeping = undefined;
          });
      }, SESSION_SWEEP_MS);
      heartbeat.unref();
      sweep.unref();
      timers = [heartbeat, sweep];
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      // A sweep in progress reads the database, which closes after this.
      await sweeping;
      for (const set of byUser.values())
        for (const connection of set) connection.socket.close(1012, 'Server restarting');
      byUser.clear();
      if (listener) await listener.query(`unlisten ${CHANNEL}`).catch(() => {});
      dropListener?.();
      await listenPool?.end();
    },
  };
}
