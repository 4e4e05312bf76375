/**
 * Fills the browser suite's data folder before its server starts, with what no test can make
 * through the public surface in its own time: lessons that already took place. Each Playwright
 * project (desktop, phone) gets its own student and tutor, so the two never see each other's
 * reviews, notes or goals; and each project's people come twice, the second for a test's retry,
 * which meets them as its first attempt met the first (a review not yet written, a lesson not yet
 * cancelled), not as that attempt left them. The people sign in with the suite's password; who
 * they are is written to `seed.json` in the data folder, which `seededPair()` in the fixtures reads.
 *
 * It also writes the pool of ready accounts that createAccount() claims from (account-pool.ts).
 *
 * Run by playwright.config.ts: `node --import tsx tests/support/browser-seed.ts <data folder>...
 * [--payments <data folder>]`, several folders at once (each database works on a thread of its own).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { hashPassword, hashThreads } from '../../src/server/accounts/password-hashing';
import { grantAdmin } from '../../src/server/admin/admins';
import { openDatabase } from '../../src/server/db/database';
import type { DB } from '../../src/server/db/schema';
import { generateDemoTutors, insertDemoTutors } from '../../src/server/demo/demo-tutors';
import { holdPrice } from '../../src/server/money/lesson-payments';
import { creditTopUp } from '../../src/server/money/top-ups';
import { childAddress } from '../../src/server/platform/family-links';
import { lessonPriceCents } from '../../src/shared/lessons/lesson-price';
import { POOL_SIZE, type PoolRole, pooledAccount } from './account-pool';

/** The browser suite's password (fixtures.ts), so a seeded person signs in like any other. */
const SEED_PASSWORD = 'correct-horse-battery-42';
const SEED_PROJECTS = ['desktop', 'phone'] as const;
export type SeedProject = (typeof SEED_PROJECTS)[number];
/** A project's people for a test's first attempt (`desktop`), and for its retry (`desktop-retry`). */
export type SeedKey = SeedProject | `${SeedProject}-retry`;

/**
 * One set of people: `key` names it in seed.json and in ids and addresses; `suffix` ends their
 * names, none of which is a part of another set's (a locator by name matches parts of names);
 * `variant` picks other demo tutors for the retry's set.
 */
interface SeedSet {
  key: SeedKey;
  suffix: string;
  variant: number;
}
// playwright.config.ts's `retries: 1`: two attempts at most.
const SEED_SETS: SeedSet[] = [0, 1].flatMap((attempt) =>
  SEED_PROJECTS.map((project) => ({
    key: attempt === 0 ? project : (`${project}-retry` as const),
    suffix: `${attempt === 0 ? '' : 'Again'}${project === 'desktop' ? 'Desk' : 'Phone'}`,
    variant: attempt,
  })),
);

export interface SeededPerson {
  id: string;
  email: string;
  displayName: string;
}

export interface SeededPair {
  student: SeededPerson;
  tutor: SeededPerson;
  /** Two completed lessons, the older first, and one confirmed a week ahead. */
  completedLessonIds: string[];
  upcomingLessonId: string;
  subject: string;
  /** An operator, granted the way the command line grants it. */
  admin: SeededPerson;
  /**
   * With payments only: a student and a tutor of their own, whose lesson was booked two hours ago
   * under a 48-hour window and a 50% fee and starts in 30 hours, its price held: a lesson a student
   * can only cancel by paying the fee (no test can wait out the free minutes after a booking).
   */
  lateFee?: { student: SeededPerson; tutor: SeededPerson; lessonId: string; priceCents: number };
  /**
   * With payments only: a parent with a child who has no login (`child`), whose lesson with
   * `tutor` took place four days ago and has the tutor's notes: a child's past that no test can
   * make in its own time.
   */
  family?: {
    parent: SeededPerson;
    child: { id: string; firstName: string };
    tutor: SeededPerson;
    notes: { covered: string; homework: string };
  };
}

export type BrowserSeed = Record<SeedKey, SeededPair>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * With `payments`, the folder of the server that takes money (the wallet's spec): each student has
 * a confirmed top-up, every lesson holds its price, and the two lessons that took place are left
 * confirmed, for the server's lesson job to complete and settle as it starts.
 */
async function seed(dataDir: string, payments: boolean, passwordHash: string): Promise<BrowserSeed> {
  // The migrated template `npm run build` leaves, as a server's first start uses it; else migrate.
  const template = fileURLToPath(new URL('../../dist/db-template.tar.gz', import.meta.url));
  const database = await openDatabase({
    dataDir,
    templateFile: existsSync(template) ? template : undefined,
  });
  const { db } = database;
  try {
    await insertAccountPool(db, passwordHash);
    const tutors = generateDemoTutors(SEED_SETS.length, 31).map((tutor, index) => {
      const { key, suffix } = SEED_SETS[index] as SeedSet;
      return {
        ...tutor,
        id: `seed-tutor-${key}`,
        email: `tutor.${key}@seed.tutorlane.test`,
        displayName: `Theo Seeded${suffix}`,
      };
    });
    await insertDemoTutors(db, tutors, { photos: true });

    const result = {} as BrowserSeed;
    // On the hour, so the lessons sit where a person would put them in any zone.
    const thisHour = Math.floor(Date.now() / HOUR) * HOUR;
    for (const [index, set] of SEED_SETS.entries()) {
      const { key, suffix } = set;
      const tutor = tutors[index] as (typeof tutors)[number];
      const student = {
        id: `seed-student-${key}`,
        email: `student.${key}@seed.tutorlane.test`,
        displayName: `Sara Seeded${suffix}`,
      };
      const now = new Date();
      await db
        .insertInto('users')
        .values({
          id: student.id,
          email: student.email,
          display_name: student.displayName,
          email_verified: true,
          role: 'student',
          time_zone: 'UTC',
          created_at: new Date(thisHour - 30 * DAY),
          updated_at: now,
        })
        .execute();
      const admin = {
        id: `seed-admin-${key}`,
        email: `admin.${key}@seed.tutorlane.test`,
        displayName: `Ada Seeded${suffix}`,
      };
      await db
        .insertInto('users')
        .values({
          id: admin.id,
          email: admin.email,
          display_name: admin.displayName,
          email_verified: true,
          role: 'student',
          time_zone: 'UTC',
          created_at: new Date(thisHour - 30 * DAY),
          updated_at: now,
        })
        .execute();
      await db
        .insertInto('accounts')
        .values(
          [student.id, tutor.id, admin.id].map((userId) => ({
            id: `seed-account-${userId}`,
            user_id: userId,
            account_id: userId,
            provider_id: 'credential',
            password: passwordHash,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
      const subject = tutor.subjects[0] as string;
      const lesson = (start: number, status: 'completed' | 'confirmed') => ({
        currency: 'USD',
        id: crypto.randomUUID(),
        tutor_id: tutor.id,
        student_id: student.id,
        subject,
        starts_at: new Date(start),
        ends_at: new Date(start + HOUR),
        minutes: 60,
        blocked_until: new Date(start + HOUR),
        price_cents: lessonPriceCents(tutor.hourlyRate, 60, 100),
        status,
        expires_at: null,
        created_at: new Date(start - 7 * DAY),
        updated_at: new Date(start - 7 * DAY),
      });
      const tookPlace = payments ? 'confirmed' : 'completed';
      const lessons = [
        lesson(thisHour - 9 * DAY, tookPlace),
        lesson(thisHour - 2 * DAY, tookPlace),
        lesson(thisHour + 7 * DAY, 'confirmed'),
      ];
      await db.insertInto('lessons').values(lessons).execute();
      if (payments) await fundAndHold(db, student.id, `TL-SEED-${key}`, lessons);
      await grantAdmin(db, admin.email);
      const lateFee = payments ? await seedLateFeeLesson(db, set, passwordHash, thisHour) : undefined;
      const family = payments ? await seedFamily(db, set, passwordHash, thisHour) : undefined;
      result[key] = {
        student,
        tutor: { id: tutor.id, email: tutor.email, displayName: tutor.displayName },
        completedLessonIds: lessons.slice(0, 2).map((l) => l.id),
        upcomingLessonId: (lessons[2] as (typeof lessons)[number]).id,
        subject,
        admin,
        ...(lateFee ? { lateFee } : {}),
        ...(family ? { family } : {}),
      };
    }
    return result;
  } finally {
    await database.close();
  }
}

/** The accounts of account-pool.ts: verified, with the suite's password, nothing else yet. */
async function insertAccountPool(db: Kysely<DB>, passwordHash: string) {
  const now = new Date();
  for (const role of ['student', 'tutor'] as PoolRole[]) {
    const people = Array.from({ length: POOL_SIZE }, (_, index) => pooledAccount(role, index));
    await db
      .insertInto('users')
      .values(
        people.map((person) => ({
          id: person.id,
          email: person.email,
          display_name: person.displayName,
          email_verified: true,
          role,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await db
      .insertInto('accounts')
      .values(
        people.map((person) => ({
          id: `seed-account-${person.id}`,
          user_id: person.id,
          account_id: person.id,
          provider_id: 'credential',
          password: passwordHash,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
}

/** One published tutor of the demo's kind (`seed` picks which), named as the caller says. */
async function seedOneTutor(
  db: Kysely<DB>,
  seed: number,
  who: { id: string; email: string; displayName: string },
) {
  const [generated] = generateDemoTutors(1, seed);
  const tutor = { ...(generated as NonNullable<typeof generated>), ...who };
  await insertDemoTutors(db, [tutor], { photos: false });
  return tutor;
}

/** The `lateFee` pair of a set (SeededPair): a tutor, a funded student, and their lesson. */
async function seedLateFeeLesson(
  db: Kysely<DB>,
  { key, suffix, variant }: SeedSet,
  passwordHash: string,
  thisHour: number,
): Promise<NonNullable<SeededPair['lateFee']>> {
  const tutor = await seedOneTutor(db, (key.startsWith('desktop') ? 47 : 53) + 100 * variant, {
    id: `seed-policy-tutor-${key}`,
    email: `policy.tutor.${key}@seed.tutorlane.test`,
    displayName: `Lena Latefee${suffix}`,
  });
  const student = {
    id: `seed-policy-student-${key}`,
    email: `policy.student.${key}@seed.tutorlane.test`,
    displayName: `Cora Cancel${suffix}`,
  };
  await db
    .insertInto('users')
    .values({
      id: student.id,
      email: student.email,
      display_name: student.displayName,
      email_verified: true,
      role: 'student',
      time_zone: 'UTC',
      created_at: new Date(thisHour - 30 * DAY),
      updated_at: new Date(),
    })
    .execute();
  await db
    .insertInto('accounts')
    .values(
      [student.id, tutor.id].map((userId) => ({
        id: `seed-account-${userId}`,
        user_id: userId,
        account_id: userId,
        provider_id: 'credential',
        password: passwordHash,
        created_at: new Date(),
        updated_at: new Date(),
      })),
    )
    .execute();
  // Booked two hours ago, past the free minutes after a booking, and 30 hours ahead: inside the window.
  const start = thisHour + 30 * HOUR;
  const lesson = {
    currency: 'USD',
    id: crypto.randomUUID(),
    tutor_id: tutor.id,
    student_id: student.id,
    subject: tutor.subjects[0] as string,
    starts_at: new Date(start),
    ends_at: new Date(start + HOUR),
    minutes: 60,
    blocked_until: new Date(start + HOUR),
    price_cents: lessonPriceCents(tutor.hourlyRate, 60, 100),
    status: 'confirmed' as const,
    expires_at: null,
    cancel_window_hours: 48,
    late_fee_percent: 50,
    created_at: new Date(Date.now() - 2 * HOUR),
    updated_at: new Date(Date.now() - 2 * HOUR),
  };
  await db.insertInto('lessons').values(lesson).execute();
  await fundAndHold(db, student.id, `TL-SEED-${key}-policy`, [lesson]);
  return {
    student,
    tutor: { id: tutor.id, email: tutor.email, displayName: tutor.displayName },
    lessonId: lesson.id,
    priceCents: lesson.price_cents,
  };
}

/** The `family` of a set (SeededPair): a parent, their login-less child, and the child's past lesson with notes. */
async function seedFamily(
  db: Kysely<DB>,
  { key, suffix, variant }: SeedSet,
  passwordHash: string,
  thisHour: number,
): Promise<NonNullable<SeededPair['family']>> {
  const tutor = await seedOneTutor(db, (key.startsWith('desktop') ? 59 : 61) + 100 * variant, {
    id: `seed-family-tutor-${key}`,
    email: `family.tutor.${key}@seed.tutorlane.test`,
    displayName: `Nora Notes${suffix}`,
  });
  const parent = {
    id: `seed-parent-${key}`,
    email: `parent.${key}@seed.tutorlane.test`,
    displayName: `Pia Parent${suffix}`,
  };
  const child = { id: `seed-child-${key}`, firstName: 'Mia' };
  const now = new Date();
  await db
    .insertInto('users')
    .values([
      {
        id: parent.id,
        email: parent.email,
        display_name: parent.displayName,
        email_verified: true,
        role: 'parent',
        time_zone: 'UTC',
        created_at: new Date(thisHour - 30 * DAY),
        updated_at: now,
      },
      {
        // A child without a login: a first name and a placeholder address, no credential.
        id: child.id,
        email: childAddress(child.id),
        display_name: child.firstName,
        email_verified: true,
        role: 'student',
        birth_year: now.getUTCFullYear() - 9,
        created_at: new Date(thisHour - 30 * DAY),
        updated_at: now,
      },
    ])
    .execute();
  await db
    .insertInto('accounts')
    .values(
      [parent.id, tutor.id].map((userId) => ({
        id: `seed-account-${userId}`,
        user_id: userId,
        account_id: userId,
        provider_id: 'credential',
        password: passwordHash,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  await db
    .insertInto('family_links')
    .values({ parent_id: parent.id, student_id: child.id, added_by_parent: true, monthly_limit_cents: null })
    .execute();
  // Taken place, and paid outside the ledger (no hold): the notes are what the test reads.
  const start = thisHour - 4 * DAY;
  const lessonId = crypto.randomUUID();
  await db
    .insertInto('lessons')
    .values({
      currency: 'USD',
      id: lessonId,
      tutor_id: tutor.id,
      student_id: child.id,
      payer_id: parent.id,
      subject: tutor.subjects[0] as string,
      starts_at: new Date(start),
      ends_at: new Date(start + HOUR),
      minutes: 60,
      blocked_until: new Date(start + HOUR),
      price_cents: 0,
      status: 'completed',
      expires_at: null,
      created_at: new Date(start - 7 * DAY),
      updated_at: new Date(start + HOUR),
    })
    .execute();
  const notes = { covered: `Fractions with ${suffix}`, homework: 'Page 12, exercises 1 to 4' };
  await db
    .insertInto('lesson_notes')
    .values({ lesson_id: lessonId, ...notes })
    .execute();
  return {
    parent,
    child,
    tutor: { id: tutor.id, email: tutor.email, displayName: tutor.displayName },
    notes,
  };
}

/** A confirmed $200 top-up for the student (its transfer's reference given), and each lesson's price held from it. */
async function fundAndHold(
  db: Kysely<DB>,
  studentId: string,
  reference: string,
  lessons: {
    id: string;
    student_id: string;
    tutor_id: string;
    subject: string;
    minutes: number;
    price_cents: number;
    currency: string;
  }[],
) {
  const rules = { on: true, currency: 'USD', commissionPercent: 15 };
  await db.transaction().execute(async (trx) => {
    const topUp = await trx
      .insertInto('top_ups')
      .values({
        id: crypto.randomUUID(),
        student_id: studentId,
        amount_cents: 20_000,
        currency: 'USD',
        method: 'manual',
        status: 'confirmed',
        reference,
        settled_at: new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await creditTopUp(trx, topUp, null, Date.now());
    for (const lesson of lessons) await holdPrice(trx, rules, lesson, Date.now());
  });
}

const folders: { dataDir: string; payments: boolean }[] = [];
for (let index = 2; index < process.argv.length; index++) {
  const payments = process.argv[index] === '--payments';
  const dataDir = process.argv[payments ? ++index : index];
  if (dataDir) folders.push({ dataDir, payments });
}
if (folders.length === 0) {
  process.stderr.write('usage: browser-seed.ts <data folder>... [--payments <data folder>]\n');
  process.exit(1);
}
const passwordHash = await hashPassword(SEED_PASSWORD);
await hashThreads.destroy();
await Promise.all(
  folders.map(async ({ dataDir, payments }) => {
    const people = await seed(dataDir, payments, passwordHash);
    writeFileSync(join(dataDir, 'seed.json'), JSON.stringify(people, null, 2));
  }),
);
