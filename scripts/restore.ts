/**
 * `npm run restore -- FILE`: puts a backup back. On the embedded store, only with the server
 * stopped: DATA_DIR is moved aside and replaced by the backup's. On PostgreSQL (DATABASE_URL) it
 * runs pg_restore --clean --if-exists (src/server/backup/backup-commands.ts).
 */
import { runRestoreCommand } from '../src/server/backup/backup-commands';

const result = await runRestoreCommand(process.argv.slice(2));
if (result.output) process.stdout.write(`${result.output}\n`);
if (result.error) process.stderr.write(`${result.error}\n`);
process.exitCode = result.exitCode;
