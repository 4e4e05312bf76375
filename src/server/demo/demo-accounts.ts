/**
 * Sign-ins for a demo database: after `npm run seed:demo`, a newcomer signs in as a demo student,
 * a demo tutor or a demo admin to see each side of the marketplace without creating accounts.
 * Every demo person gets the same, printed password. seed:demo only ever fills an empty database,
 * so no real person's account is touched; a server opened to the public must not be seeded.
 */
import type { Kysely } from 'kysely';
import { grantAdmin } from '../admin/admins';
import type { DB } from '../db/schema';
import { commandLine } from '../platform/audit-log';

/** The password of every demo account: printed by seed:demo and written in the README. */
export const DEMO_PASSWORD = 'tutorlane-demo';

export const DEMO_ADMIN = {
  id: 'demo-admin',
  email: 'admin@demo.tutorlane.test',
  displayName: 'Ada Admin',
} as const;

export interface DemoSignIns {
  student: { email: string; displayName: string };
  tutor: { email: string; displayName: string };
  admin: { email: string; displayName: string };
}

/**
 * Gives every demo account (the `demo-` ids seed:demo made) a password sign-in with `passwordHash`,
 * adds the demo admin, and answers who to sign in as: the student and the tutor (with a photo) who
 * have the most lessons, so each dashboard has something to show.
 */
export async function addDemoSignIns(db: Kysely<DB>, passwordHash: string): Promise<DemoSignIns> {
  await db
    .insertInto('users')
    .values({
      id: DEMO_ADMIN.id,
      email: DEMO_ADMIN.email,
      display_name: DEMO_ADMIN.displayName,
      email_verified: true,
      role: 'student',
      time_zone: 'UTC',
      created_at: new Date(),
      updated_at: new Date(),
    })
    .execute();
  await grantAdmin(db, DEMO_ADMIN.email, commandLine);

  // Better Auth's email-and-password sign-in reads the "credential" account of the user.
  const now = new Date();
  await db
    .insertInto('accounts')
    .columns(['id', 'user_id', 'account_id', 'provider_id', 'password', 'created_at', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select([
          eb.fn('gen_random_uuid').as('id'),
          'id as user_id',
          'id as account_id',
          eb.val('credential').as('provider_id'),
          eb.val(passwordHash).as('password'),
          eb.val(now).as('created_at'),
          eb.val(now).as('updated_at'),
        ])
        .where('id', 'like', 'demo-%'),
    )
    .execute();

  const busiest = (side: 'student_id' | 'tutor_id') =>
    db
      .selectFrom('lessons')
      .innerJoin('users', 'users.id', `lessons.${side}`)
      .leftJoin('profile_photos', 'profile_photos.user_id', 'users.id')
      .select(['users.email', 'users.display_name'])
      .where('users.id', 'like', 'demo-%')
      .$if(side === 'tutor_id', (query) => query.where('profile_photos.user_id', 'is not', null))
      .groupBy(['users.id', 'users.email', 'users.display_name'])
      .orderBy((eb) => eb.fn.countAll(), 'desc')
      .orderBy('users.id')
      .executeTakeFirstOrThrow();
  const [student, tutor] = await Promise.all([busiest('student_id'), busiest('tutor_id')]);
  return {
    student: { email: student.email, displayName: student.display_name },
    tutor: { email: tutor.email, displayName: tutor.display_name },
    admin: { email: DEMO_ADMIN.email, displayName: DEMO_ADMIN.displayName },
  };
}
