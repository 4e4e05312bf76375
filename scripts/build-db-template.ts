/**
 * Builds dist/db-template.tar.gz: an embedded database already initialised and migrated. A first
 * start on an empty DATA_DIR loads it instead of running PostgreSQL's initdb (seconds; issue #6,
 * figure 7). It holds the schema only, no data and no secret.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { embeddedDialect } from '../src/server/db/embedded-thread';
import { migrateToLatest } from '../src/server/db/migrate';
import { createQueryRunner } from '../src/server/db/pglite-queries';

const output = fileURLToPath(new URL('../dist/db-template.tar.gz', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tutorlane-db-template-'));
try {
  const pglite = await PGlite.create({ dataDir: join(dir, 'db') });
  // PGlite on this thread (its data folder is dumped below), with the server's own Kysely dialect.
  const query = createQueryRunner(pglite);
  const db = new Kysely<unknown>({ dialect: embeddedDialect({ query, close: () => pglite.close() }) });
  await migrateToLatest(db);
  await pglite.query('CHECKPOINT');
  const dump = await pglite.dumpDataDir('gzip');
  writeFileSync(output, new Uint8Array(await dump.arrayBuffer()));
  await db.destroy();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
