/**
 * npm run db:types: writes src/server/db/generated/ from a database migrated by
 * src/server/db/migrations. Run it after adding or changing a migration; a test fails until then.
 * A table that is gone takes its file with it.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_TYPES_FOLDER, generateDatabaseTypes } from './db-types';

const files = await generateDatabaseTypes();
mkdirSync(GENERATED_TYPES_FOLDER, { recursive: true });
for (const name of readdirSync(GENERATED_TYPES_FOLDER))
  if (!files.has(name)) rmSync(join(GENERATED_TYPES_FOLDER, name));
for (const [name, text] of files) writeFileSync(join(GENERATED_TYPES_FOLDER, name), text);
console.log(`Wrote ${files.size} files in ${GENERATED_TYPES_FOLDER}`);
