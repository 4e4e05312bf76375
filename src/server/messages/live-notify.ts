/**
 * How a server tells the others of a live event: `pg_notify` on the live channel, the events that
 * came while the statement before was out sent together in one, on the listener's own connection
 * while it has one (src/server/messages/live.ts).
 *
 * A burst of requests can hold every connection of the queries' pool for its whole second, and
 * a NOTIFY waiting for one there was given up: its message stored but never shown live on the
 * other servers. Sent one by one on the listener's connection instead, each would wait its turn
 * behind the others with its second counting the wait, and be given up the same way. One
 * statement a batch starts only when the one before has ended, so no event waits in pg's queue.
 */
import type pg from 'pg';

export interface Notifier {
  /** Resolves once PostgreSQL has taken the payload; rejects when neither connection could send it. */
  send(payload: string): Promise<void>;
}

// In the order they came: PostgreSQL delivers a transaction's notifications in that order.
const NOTIFY_ALL =
  'select pg_notify($1, payload) from unnest($2::text[]) with ordinality as p(payload, n) order by n';

export function notifierOn(
  channel: string,
  pool: pg.Pool,
  listener: () => pg.PoolClient | undefined,
): Notifier {
  const waiting: { payload: string; resolve: () => void; reject: (error: Error) => void }[] = [];
  let sending = false;

  async function notifyAll(payloads: string[]) {
    const own = listener();
    if (own) {
      try {
        await own.query(NOTIFY_ALL, [channel, payloads]);
        return;
      } catch {
        // The listener was lost meanwhile: a pooled connection below.
      }
    }
    await pool.query(NOTIFY_ALL, [channel, payloads]);
  }

  async function sendWaiting() {
    sending = true;
    while (waiting.length > 0) {
      const batch = waiting.splice(0);
      try {
        await notifyAll(batch.map((item) => item.payload));
        for (const item of batch) item.resolve();
      } catch (error) {
        for (const item of batch) item.reject(error as Error);
      }
    }
    sending = false;
  }

  return {
    send: (payload) =>
      new Promise<void>((resolve, reject) => {
        waiting.push({ payload, resolve, reject });
        if (!sending) void sendWaiting();
      }),
  };
}
