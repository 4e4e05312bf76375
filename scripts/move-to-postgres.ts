/**
 * `npm run move-to-postgres -- URL`: copies the embedded store in DATA_DIR (server stopped) into an
 * empty PostgreSQL database and prints the settings the servers then need
 * (src/server/backup/move-to-postgres.ts).
 */
import { moveToPostgres } from '../src/server/backup/move-to-postgres';

const result = await moveToPostgres(process.argv.slice(2));
if (result.output) process.stdout.write(`${result.output}\n`);
if (result.error) process.stderr.write(`${result.error}\n`);
process.exitCode = result.exitCode;
