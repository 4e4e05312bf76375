/**
 * The admin command line (`npm run admin -- grant|revoke|lift-suspension|reset-two-factor <email>`, `list`), as a function that
 * returns what to print, so tests run it in-process. It opens the database the server's way (the
 * same configuration: DATA_DIR or DATABASE_URL). On PostgreSQL it works while servers run; the
 * embedded store is one process, so while a server holds it the command says to stop the server
 * first, and how, rather than wait or corrupt it. Each change lands in the audit log with
 * "command line" as its actor.
 */
import { ConfigError, loadConfig } from '../config/config';
import { DataDirLockedError } from '../db/data-dir-lock';
import { type Database, openDatabase } from '../db/database';
import {
  AdminCommandError,
  grantAdmin,
  liftSuspension,
  listAdmins,
  resetTwoFactor,
  revokeAdmin,
} from './admins';

export interface CommandResult {
  output: string;
  error: string;
  exitCode: number;
}

export const ADMIN_USAGE = `Usage:
  npm run admin -- grant someone@example.com    make an account an admin
  npm run admin -- revoke someone@example.com   take the role away
  npm run admin -- list                         list the admins
  npm run admin -- lift-suspension someone@example.com   let a suspended account sign in again
  npm run admin -- reset-two-factor someone@example.com  turn off two-factor sign-in for someone locked out`;

const failed = (error: string, exitCode = 1): CommandResult => ({ output: '', error, exitCode });

async function openFromConfig(): Promise<Database> {
  const config = loadConfig();
  return openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
}

export async function runAdminCommand(
  args: string[],
  open: () => Promise<Database> = openFromConfig,
): Promise<CommandResult> {
  const [command, email, ...rest] = args;
  const needsEmail = command !== undefined && command !== 'list';
  if (
    !command ||
    !['grant', 'revoke', 'list', 'lift-suspension', 'reset-two-factor'].includes(command) ||
    (needsEmail && !email) ||
    rest.length > 0 ||
    (!needsEmail && email)
  )
    return failed(ADMIN_USAGE, 2);

  let database: Database;
  try {
    database = await open();
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      const pid = /pid (\d+)/.exec(error.message)?.[1];
      const server = pid ? `A Tutorlane server (pid ${pid})` : 'A Tutorlane server';
      return failed(
        `${server} is using the embedded database in DATA_DIR, which serves one process at a time. Stop the server (Ctrl+C in its terminal, or kill ${pid ?? '<its pid>'}), run this command again, then start the server. On PostgreSQL (DATABASE_URL) this works while the server runs.`,
      );
    }
    if (error instanceof ConfigError) return failed(error.message);
    return failed(`Could not open the database: ${(error as Error).message}`);
  }
  try {
    if (command === 'list') {
      const admins = await listAdmins(database.db);
      return {
        output: admins.length
          ? admins.map((admin) => `${admin.email}  ${admin.displayName} (${admin.role})`).join('\n')
          : 'No admins yet. Grant the role with: npm run admin -- grant someone@example.com',
        error: '',
        exitCode: 0,
      };
    }
    if (command === 'lift-suspension') {
      const lifted = await liftSuspension(database.db, email as string);
      return {
        output: lifted.changed
          ? `${lifted.email} may sign in again. Lessons cancelled at the suspension stay cancelled.`
          : `${lifted.email} was not suspended; nothing changed.`,
        error: '',
        exitCode: 0,
      };
    }
    if (command === 'reset-two-factor') {
      const reset = await resetTwoFactor(database.db, email as string);
      return {
        output: reset.changed
          ? `${reset.email} signs in with the password alone now, until they set up two-factor authentication again (an admin is asked to before the console, where ADMIN_TWO_FACTOR is required).`
          : `${reset.email} did not have two-factor authentication on; nothing changed.`,
        error: '',
        exitCode: 0,
      };
    }
    const grant = command === 'grant';
    const result = await (grant ? grantAdmin : revokeAdmin)(database.db, email as string);
    const output = result.changed
      ? grant
        ? `${result.email} is now an admin. The navigation shows them "Admin" at their next sign-in, or within five minutes.`
        : `${result.email} is no longer an admin.`
      : grant
        ? `${result.email} was already an admin; nothing changed.`
        : `${result.email} was not an admin; nothing changed.`;
    return { output, error: '', exitCode: 0 };
  } catch (error) {
    if (error instanceof AdminCommandError) return failed(error.message);
    throw error;
  } finally {
    await database.close();
  }
}
