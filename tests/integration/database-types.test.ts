import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_TYPES_FILE, generateDatabaseTypes } from '../../scripts/db-types';

describe('the database types', () => {
  // Migrates an embedded database in memory, which takes seconds on a busy machine.
  it('match the migrations (run `npm run db:types` after changing one)', { timeout: 180_000 }, async () => {
    const committed = readFileSync(GENERATED_TYPES_FILE, 'utf8');
    const fresh = await generateDatabaseTypes();
    expect(
      committed === fresh,
      'src/server/db/generated.ts is stale: run `npm run db:types` and commit the result',
    ).toBe(true);
  });
});
