/**
 * npm run db:types: writes src/server/db/generated.ts from a database migrated by
 * src/server/db/migrations. Run it after adding or changing a migration; a test fails until then.
 */
import { writeFileSync } from 'node:fs';
import { GENERATED_TYPES_FILE, generateDatabaseTypes } from './db-types';

writeFileSync(GENERATED_TYPES_FILE, await generateDatabaseTypes());
console.log(`Wrote ${GENERATED_TYPES_FILE}`);
