import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED_TYPES_FOLDER, generateDatabaseTypes } from '../../scripts/db-types';

describe('the database types', () => {
  // Migrates an embedded database in memory, which takes seconds on a busy machine.
  it('match the migrations (run `npm run db:types` after changing one)', { timeout: 180_000 }, async () => {
    const fresh = await generateDatabaseTypes();
    const committed = new Map(
      readdirSync(GENERATED_TYPES_FOLDER).map((name) => [
        name,
        readFileSync(join(GENERATED_TYPES_FOLDER, name), 'utf8'),
      ]),
    );
    const stale = [...new Set([...fresh.keys(), ...committed.keys()])].filter(
      (name) => fresh.get(name) !== committed.get(name),
    );
    expect(stale, 'src/server/db/generated/ is stale: run `npm run db:types` and commit the result').toEqual(
      [],
    );
    // One file a table, beside the index and the column helpers.
    expect([...committed.keys()]).toEqual(expect.arrayContaining(['index.ts', 'columns.ts', 'lessons.ts']));
  });
});
