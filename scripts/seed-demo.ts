/**
 * `npm run seed:demo`: fills an empty database with 200 demo tutors (with weekly hours), demo
 * students, their lessons and reviews, the money those lessons moved (unless PAYMENTS is off), and a
 * demo admin, so a newcomer sees a living marketplace
 * and can sign in as each kind of person with one printed password. Uses the same configuration
 * as the server (DATA_DIR or DATABASE_URL); stop the server first when it uses the embedded store.
 * It never touches a database that has accounts. Like the server, it stops on a problem with one
 * line, not a stack trace.
 *
 * `npm run seed:demo -- --tutors 10000` makes more of them (the benchmark searches 10,000); the
 * first 200 are the same people whatever the number.
 */
import { parseArgs } from 'node:util';
import { hashPassword, hashThreads } from '../src/server/accounts/password-hashing';
import { type Config, ConfigError, loadConfig } from '../src/server/config/config';
import { DataDirLockedError } from '../src/server/db/data-dir-lock';
import { type Database, openDatabase } from '../src/server/db/database';
import { addDemoSignIns, DEMO_PASSWORD } from '../src/server/demo/demo-accounts';
import { DemoSeedRefusedError, seedDemoDatabase } from '../src/server/demo/demo-seed';

const DEFAULT_COUNT = 200;
const MAX_COUNT = 100_000;

function stop(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function tutorCount(): number {
  let value: string | undefined;
  try {
    value = parseArgs({ options: { tutors: { type: 'string' } } }).values.tutors;
  } catch (error) {
    stop((error as Error).message);
  }
  if (value === undefined) return DEFAULT_COUNT;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT)
    stop(`--tutors must be a whole number from 1 to ${MAX_COUNT.toLocaleString('en')} (got "${value}")`);
  return count;
}

const COUNT = tutorCount();

let database: Database;
let config: Config;
try {
  config = loadConfig();
  database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
} catch (error) {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) stop(error.message);
  stop(`Could not open the database: ${(error as Error).message}`);
}
try {
  const started = Date.now();
  await seedDemoDatabase(database.db, COUNT, { photos: true, payments: config.payments });
  const signIns = await addDemoSignIns(database.db, await hashPassword(DEMO_PASSWORD));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    [
      `Added ${COUNT} demo tutors, with their weekly hours, demo students, lessons and reviews${config.payments.on ? ', wallets and earnings' : ''}, in ${seconds} s.`,
      `Start the server, open ${config.appUrl}/login and sign in with the password "${DEMO_PASSWORD}" as:`,
      `  a demo student  ${signIns.student.email}  (${signIns.student.displayName})`,
      `  a demo tutor    ${signIns.tutor.email}  (${signIns.tutor.displayName})`,
      `  a demo admin    ${signIns.admin.email}  (${signIns.admin.displayName})`,
      'Every demo account has this password: never seed a server that is open to the public.',
      '',
    ].join('\n'),
  );
} catch (error) {
  if (!(error instanceof DemoSeedRefusedError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
} finally {
  await database.close();
  await hashThreads.destroy();
}
