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
 * first 200 are the same people whatever the number. The benchmark's other volume, none by default
 * (src/server/demo/demo-load.ts): `--due-lessons N` lessons ending as the seed ends, `--due-reminders
 * N` reminders due at once, `--wallet-transactions N` more in the demo student's wallet and
 * `--ledger-entries N` entries in the whole ledger (the last two need payments on), `--family-lessons N`
 * lessons of a demo parent's three children (src/server/demo/demo-family.ts), `--pairs N` pairs of
 * a demo student and a demo tutor with nothing yet (the benchmark's message senders).
 */
import { parseArgs } from 'node:util';
import { hashPassword, hashThreads } from '../src/server/accounts/password-hashing';
import { type Config, ConfigError, loadConfig } from '../src/server/config/config';
import { DataDirLockedError } from '../src/server/db/data-dir-lock';
import { type Database, openDatabase } from '../src/server/db/database';
import { addDemoSignIns, DEMO_PASSWORD } from '../src/server/demo/demo-accounts';
import { DEMO_PARENT, insertDemoFamily } from '../src/server/demo/demo-family';
import { insertPairs, insertWalletHistory } from '../src/server/demo/demo-load';
import { DemoSeedRefusedError, seedDemoDatabase } from '../src/server/demo/demo-seed';

const DEFAULT_COUNT = 200;
const MAX_COUNT = 100_000;

function stop(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** A whole number option from 0 (or 1) to `max`, or its default when not given. */
function countOption(
  values: Record<string, string | undefined>,
  name: string,
  fallback: number,
  max: number,
  min = 0,
): number {
  const value = values[name];
  if (value === undefined) return fallback;
  const count = Number(value);
  if (!Number.isInteger(count) || count < min || count > max)
    stop(`--${name} must be a whole number from ${min} to ${max.toLocaleString('en')} (got "${value}")`);
  return count;
}

function options() {
  let values: Record<string, string | undefined> = {};
  try {
    values = parseArgs({
      options: {
        tutors: { type: 'string' },
        'due-lessons': { type: 'string' },
        'due-reminders': { type: 'string' },
        'wallet-transactions': { type: 'string' },
        'ledger-entries': { type: 'string' },
        'family-lessons': { type: 'string' },
        pairs: { type: 'string' },
      },
    }).values;
  } catch (error) {
    stop((error as Error).message);
  }
  return {
    tutors: countOption(values, 'tutors', DEFAULT_COUNT, MAX_COUNT, 1),
    // The benchmark's volume (src/server/demo/demo-load.ts): none by default.
    dueLessons: countOption(values, 'due-lessons', 0, 20_000),
    dueReminders: countOption(values, 'due-reminders', 0, 20_000),
    walletTransactions: countOption(values, 'wallet-transactions', 0, 100_000),
    ledgerEntries: countOption(values, 'ledger-entries', 0, 2_000_000),
    familyLessons: countOption(values, 'family-lessons', 0, 5_000),
    pairs: countOption(values, 'pairs', 0, 20_000),
  };
}

const OPTIONS = options();

/**
 * The wallet history of the demo student who signs in, then lessons' money over the other demo
 * students until the ledger holds about --ledger-entries entries (seven a lesson, with two
 * transactions on the student's balance: src/server/demo/demo-load.ts).
 */
async function addLedgerVolume(db: Database['db'], studentEmail: string, currency: string) {
  const now = Date.now();
  const tutorIds = (
    await db.selectFrom('users').select('id').where('id', 'like', 'demo-tutor-%').orderBy('id').execute()
  ).map((row) => row.id);
  const student = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', studentEmail)
    .executeTakeFirstOrThrow();
  if (OPTIONS.walletTransactions > 0)
    await insertWalletHistory(db, {
      studentIds: [student.id],
      tutorIds,
      transactions: OPTIONS.walletTransactions,
      now,
      currency,
    });
  const { n } = await db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const missing = OPTIONS.ledgerEntries - Number(n);
  if (missing <= 0) return;
  const others = (
    await db
      .selectFrom('users')
      .select('id')
      .where('id', 'like', 'demo-student-%')
      .where('id', '<>', student.id)
      .orderBy('id')
      .execute()
  ).map((row) => row.id);
  await insertWalletHistory(db, {
    studentIds: others,
    tutorIds,
    transactions: Math.ceil((missing / 7 / others.length) * 2),
    now,
    currency,
  });
}
const COUNT = OPTIONS.tutors;

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
  if ((OPTIONS.walletTransactions > 0 || OPTIONS.ledgerEntries > 0) && !config.payments.on)
    stop('--wallet-transactions and --ledger-entries write money: they need PAYMENTS on.');
  await seedDemoDatabase(database.db, COUNT, {
    photos: true,
    payments: config.payments,
    due: { ending: OPTIONS.dueLessons, remindedPeople: OPTIONS.dueReminders },
  });
  if (OPTIONS.pairs > 0) await insertPairs(database.db, OPTIONS.pairs, Date.now());
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const signIns = await addDemoSignIns(database.db, passwordHash);
  if (OPTIONS.familyLessons > 0)
    await insertDemoFamily(database.db, {
      lessons: OPTIONS.familyLessons,
      passwordHash,
      now: Date.now(),
      payments: config.payments,
    });
  await addLedgerVolume(database.db, signIns.student.email, config.payments.currency);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    [
      `Added ${COUNT} demo tutors, with their weekly hours, demo students, lessons and reviews${config.payments.on ? ', wallets and earnings' : ''}, in ${seconds} s.`,
      `Start the server, open ${config.appUrl}/login and sign in with the password "${DEMO_PASSWORD}" as:`,
      `  a demo student  ${signIns.student.email}  (${signIns.student.displayName})`,
      `  a demo tutor    ${signIns.tutor.email}  (${signIns.tutor.displayName})`,
      `  a demo admin    ${signIns.admin.email}  (${signIns.admin.displayName})`,
      ...(OPTIONS.familyLessons > 0
        ? [`  a demo parent   ${DEMO_PARENT.email}  (${DEMO_PARENT.displayName}, three children)`]
        : []),
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
