/**
 * Builds dist/db-template.tar.gz: an embedded database already initialised and migrated. A first
 * start on an empty DATA_DIR loads it instead of running PostgreSQL's initdb, which takes seconds.
 * It holds the schema only, no data and no secret.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../src/server/db/database';

const output = fileURLToPath(new URL('../dist/db-template.tar.gz', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tutorlane-db-template-'));
try {
  // Initialised and migrated exactly as a server does it, then closed (which checkpoints).
  const database = await openDatabase({ dataDir: dir });
  await database.close();
  const pglite = await PGlite.create({ dataDir: join(dir, 'db') });
  const dump = await pglite.dumpDataDir('gzip');
  writeFileSync(output, new Uint8Array(await dump.arrayBuffer()));
  await pglite.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
