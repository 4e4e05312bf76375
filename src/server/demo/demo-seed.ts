/**
 * What `npm run seed:demo` puts in an empty database: demo tutors (demo-tutors.ts) with their
 * weekly hours, demo students and their lessons (demo-lessons.ts), reviews (demo-reviews.ts), and,
 * when the school takes payments, the money those lessons moved (demo-money.ts).
 * Demo seeding lives here, apart from the features it fills, so that no feature imports another's
 * demo data.
 */
import type { Kysely } from 'kysely';
import { defaultHourlyRateRange } from '../../shared/settings/site-settings';
import type { DB } from '../db/schema';
import type { PaymentRules } from '../money/lesson-payments';
import { groupCatalog, readSubjects } from '../settings/subject-catalog';
import { insertDemoLessons } from './demo-lessons';
import { insertDueLessons } from './demo-load';
import { insertDemoMoney } from './demo-money';
import { insertDemoReviews } from './demo-reviews';
import { generateDemoTutors, insertDemoTutors } from './demo-tutors';

/** seed:demo found accounts: demo tutors are never mixed with real people. */
export class DemoSeedRefusedError extends Error {}

/**
 * What `npm run seed:demo` does: fills an empty database (no account at all) with `count` demo
 * tutors, and refuses any other. Lessons are priced in the school's currency; with payments off
 * they moved no money, as a booking then moves none.
 */
export async function seedDemoDatabase(
  db: Kysely<DB>,
  count: number,
  options: {
    photos: boolean;
    payments: PaymentRules;
    /** The benchmark's lessons due at once (./demo-load.ts); none unless asked for. */
    due?: { ending: number; remindedPeople: number };
  },
): Promise<void> {
  const { n } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(n) > 0) {
    throw new DemoSeedRefusedError(
      `The database already has ${n} account(s): seed:demo only fills an empty database.`,
    );
  }
  // Rates on the currency's own scale: a demo school in yen asks ¥4,000 an hour, not ¥40.
  const { currency } = options.payments;
  const scale = defaultHourlyRateRange(currency).min / defaultHourlyRateRange('USD').min;
  const tutors = generateDemoTutors(count, undefined, groupCatalog(await readSubjects(db))).map((tutor) => ({
    ...tutor,
    hourlyRate: tutor.hourlyRate * scale,
  }));
  await insertDemoTutors(db, tutors, options);
  const now = Date.now();
  await insertDemoLessons(db, tutors, now, currency);
  await insertDemoReviews(db, now);
  await insertDemoMoney(db, options.payments, now);
  if (options.due && (options.due.ending > 0 || options.due.remindedPeople > 0))
    await insertDueLessons(db, { ...options.due, now, payments: options.payments });
}
