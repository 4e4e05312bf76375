/**
 * `npm run backup -- FILE`: a backup of the configured database into FILE. On PostgreSQL
 * (DATABASE_URL) it runs pg_dump -Fc; on the embedded store, with the server stopped, it writes the
 * same .tar.gz the admin console downloads (src/server/backup/backup-commands.ts).
 */
import { runBackupCommand } from '../src/server/backup/backup-commands';

const result = await runBackupCommand(process.argv.slice(2));
if (result.output) process.stdout.write(`${result.output}\n`);
if (result.error) process.stderr.write(`${result.error}\n`);
process.exitCode = result.exitCode;
