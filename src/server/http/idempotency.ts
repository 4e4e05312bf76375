/**
 * Idempotency-Key for the requests that move money (docs/api.md, "Safe to retry"). A client that
 * cannot tell whether its request arrived (a timeout, a dropped connection, a second click) sends
 * it again with the same key, and gets the first answer again, with `Idempotent-Replayed: true`,
 * instead of paying, refunding or booking twice.
 *
 * Why one middleware and a table, not each feature's own guard: a money function knows how to make
 * its own posting once (the ledger's keys), but not what the caller was answered, and a retry must
 * read the same answer whichever route it was. The answers are kept in the database
 * (idempotent_requests, migration 0032) so that they outlive a restart and every server of several
 * sees them; the housekeeping pass removes them after a day.
 *
 * - A key is scoped to the person, the method and the path (its ids included).
 * - The same key with another body is refused (422 IDEMPOTENCY_KEY_REUSED): it is a client's bug.
 * - While the first request with a key runs, another waits for its answer a few seconds, then gets
 *   409 IDEMPOTENCY_KEY_IN_USE. A run left `running` by a server that died is taken over after
 *   ABANDONED_AFTER_MS, so a key is never blocked for good.
 * - Only a success (2xx) is kept. A refusal posted nothing and its cause may be fixed (a top-up
 *   before booking again), and a failure (5xx, a thrown error) must be able to run again: both
 *   free the key for the retry.
 * - The answer is kept after the handler's money transaction, in a statement of its own: a server
 *   that dies between the two leaves the money moved and no answer, and the retry runs the handler
 *   again. So the handler is given `requestKey` (on the context): the same for every run of one
 *   request (person, method, path, key and body), and the money functions name what they create
 *   after it (a ledger posting's key, a top-up's or a package's id). The run again finds what the
 *   first made and answers it, instead of making it twice.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema';
import { errorResponse } from './api-error';
import type { AppEnv } from './app-env';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

export const idempotencyMessages = {
  badKey: /*i18n*/ 'The Idempotency-Key header must be 1 to 200 printable ASCII characters',
  reused:
    /*i18n*/ 'This Idempotency-Key was already used for a different request. Send a new key with each new request.',
  inUse:
    /*i18n*/ 'A request with this Idempotency-Key is still being handled. Please try again in a moment to see its answer.',
} as const;

/** A key: printable ASCII, no spaces, 1 to 200 characters. */
const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

/** How long the answers are kept: at least a day, as clients are told. */
export const IDEMPOTENCY_KEEP_MS = 24 * 60 * 60 * 1000;
/** A run not finished after this is taken to be lost with its server; no money request takes so long. */
const ABANDONED_AFTER_MS = 60_000;
/** How long a request waits for the first one with its key before it is told to try again. */
const WAIT_MS = 8_000;

export function isIdempotencyKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/** The body with its keys sorted, so the same JSON written in another order is the same body. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((name) => [name, canonical((value as Record<string, unknown>)[name])]),
    );
  return value;
}

function bodyHash(text: string): string {
  let normal = text;
  try {
    if (text !== '') normal = JSON.stringify(canonical(JSON.parse(text)));
  } catch {
    // Not JSON: compared as sent (the route's validation refuses it anyway).
  }
  return createHash('sha256').update(normal).digest('hex');
}

/**
 * The request's identity under its key, shaped as a UUID (version 8, the kind an application
 * derives itself) so that it can be a row's id: every run of the same request gets the same one,
 * another person, route, key or body another.
 */
export function requestKeyOf(
  scope: { user_id: string; method: string; path: string; key: string },
  hash: string,
): string {
  const hex = createHash('sha256')
    .update([scope.user_id, scope.method, scope.path, scope.key, hash].join('\n'))
    .digest('hex');
  const variant = ((Number.parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Makes the routes it is put on safe to retry with an Idempotency-Key; without the header, a
 * request goes through as before. Put it after the session guard (the key is the signed-in
 * person's) and before the route's work.
 */
export function idempotent(
  db: Kysely<DB>,
  options: { waitMs?: number; abandonedAfterMs?: number } = {},
): MiddlewareHandler<AppEnv> {
  const waitMs = options.waitMs ?? WAIT_MS;
  const abandonedAfterMs = options.abandonedAfterMs ?? ABANDONED_AFTER_MS;
  return async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_KEY_HEADER);
    const user = c.var.user;
    if (key === undefined || !user) return next();
    if (!isIdempotencyKey(key)) return errorResponse(c, 400, idempotencyMessages.badKey, 'VALIDATION_ERROR');
    const scope = { user_id: user.id, method: c.req.method, path: c.req.path, key };
    const hash = bodyHash(await c.req.text());
    const row = () =>
      db
        .selectFrom('idempotent_requests')
        .select(['body_hash', 'state', 'attempt', 'status', 'content_type', 'response_body'])
        .where('user_id', '=', scope.user_id)
        .where('method', '=', scope.method)
        .where('path', '=', scope.path)
        .where('key', '=', scope.key)
        .executeTakeFirst();

    const deadline = Date.now() + waitMs;
    let attempt: string | undefined;
    for (let pause = 25; attempt === undefined; pause = Math.min(pause * 2, 250)) {
      const mine = randomUUID();
      const claimed = await db
        .insertInto('idempotent_requests')
        .values({ ...scope, body_hash: hash, state: 'running', attempt: mine })
        .onConflict((oc) => oc.columns(['user_id', 'method', 'path', 'key']).doNothing())
        .returning('attempt')
        .executeTakeFirst();
      if (claimed) {
        attempt = mine;
        break;
      }
      const earlier = await row();
      // Gone meanwhile (the first run failed and freed it): claim it again at once.
      if (!earlier) continue;
      if (earlier.body_hash !== hash)
        return errorResponse(c, 422, idempotencyMessages.reused, 'IDEMPOTENCY_KEY_REUSED');
      if (earlier.state === 'done' && earlier.status !== null) {
        const headers = new Headers({ [REPLAYED_HEADER]: 'true' });
        if (earlier.content_type) headers.set('Content-Type', earlier.content_type);
        return new Response(earlier.response_body, { status: earlier.status, headers });
      }
      // Running for longer than any request takes: its server died. Taken over by one retry only.
      const takenOver = await db
        .updateTable('idempotent_requests')
        .set({ attempt: mine, started_at: sql`now()` })
        .where('user_id', '=', scope.user_id)
        .where('method', '=', scope.method)
        .where('path', '=', scope.path)
        .where('key', '=', scope.key)
        .where('state', '=', 'running')
        .where('attempt', '=', earlier.attempt)
        .where('started_at', '<', sql<Date>`now() - make_interval(secs => ${abandonedAfterMs / 1000})`)
        .returning('attempt')
        .executeTakeFirst();
      if (takenOver) {
        attempt = mine;
        break;
      }
      if (Date.now() + pause > deadline)
        return errorResponse(c, 409, idempotencyMessages.inUse, 'IDEMPOTENCY_KEY_IN_USE');
      await sleep(pause);
    }

    const ours = () =>
      db
        .updateTable('idempotent_requests')
        .where('user_id', '=', scope.user_id)
        .where('method', '=', scope.method)
        .where('path', '=', scope.path)
        .where('key', '=', scope.key)
        .where('attempt', '=', attempt);
    const release = () =>
      db
        .deleteFrom('idempotent_requests')
        .where('user_id', '=', scope.user_id)
        .where('method', '=', scope.method)
        .where('path', '=', scope.path)
        .where('key', '=', scope.key)
        .where('attempt', '=', attempt)
        .execute();
    c.set('requestKey', requestKeyOf(scope, hash));
    try {
      await next();
    } catch (error) {
      await release().catch(() => {});
      throw error;
    }
    const res = c.res;
    try {
      if (c.error || res.status < 200 || res.status >= 300) await release();
      else
        await ours()
          .set({
            state: 'done',
            status: res.status,
            content_type: res.headers.get('Content-Type'),
            response_body: await res.clone().text(),
          })
          .execute();
    } catch (error) {
      // The work is done and its answer goes out; a retry finds the run abandoned in a while.
      c.get('logger')?.warn({ err: (error as Error).message }, 'idempotent answer not kept');
    }
  };
}
