/**
 * Keeps one of `process.nextTick`'s queue entries alive for as long as the process runs, so that
 * every request keeps Node's fast path for `nextTick` (issue #6: GET /api/health). Plain
 * JavaScript, so that `npm start` (scripts/start.mjs) can load it before it builds anything, and
 * the server bundle (src/server/main.ts) before it loads anything else.
 *
 * Why: Node creates each queue entry with an object literal whose first two keys are computed
 * (`{ [async_id_symbol]: ..., [trigger_async_id_symbol]: ..., callback, args }`). V8 optimises that
 * literal from feedback that names the object's hidden classes, and holds those classes weakly.
 * Entries live for a moment only, so a full garbage collection that comes while none is queued
 * (a build, start-up, the database opening, an idle spell) frees the classes; the next entry gets
 * new ones, the feedback no longer matches and turns generic for the life of the process. From then
 * on every `nextTick` defines its keys through V8's runtime, about 1 µs instead of a few ns, and an
 * HTTP request makes nine or so of them. Measured with `perf record` under load on /api/health:
 * 9 µs of 60 µs per request went there, and a bare node:http server did not pay it
 * (docs/decisions/0007-held-next-tick-entry.md).
 *
 * One entry held here keeps its hidden class (and the chain of classes it came from) alive, so the
 * feedback stays valid. Inside a tick's callback, `executionAsyncResource()` is that tick's entry
 * (Node's public API). Holding it costs one small object. It has to happen before the first full
 * collection that follows the first tick, hence first thing in the process.
 */
import { executionAsyncResource } from 'node:async_hooks';

/** @type {object | undefined} */
let entry;

process.nextTick(() => {
  entry = executionAsyncResource();
});

/**
 * The entry held (for the tests): a `process.nextTick` queue entry once the first tick has run.
 * @returns {object | undefined}
 */
export function heldNextTickEntry() {
  return entry;
}
