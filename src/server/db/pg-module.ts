/**
 * The `pg` package, loaded the first time a PostgreSQL pool is made. A server on the embedded
 * store never makes one, and loading pg (with its protocol and type parsers) was about 9 ms of
 * every start-up before the first page (docs/performance.md, "The third pass"). pg is CommonJS, so
 * Node's own `require` loads it at once, where an `await import()` would make every caller async.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';

let loaded: typeof pg | undefined;

export function pgModule(): typeof pg {
  loaded ??= createRequire(import.meta.url)('pg') as typeof pg;
  return loaded;
}
