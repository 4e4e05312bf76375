/**
 * Families: a parent pays for, books for and follows their children
 * (docs/decisions/0036-families.md).
 *
 * - `users.role` may be 'parent'. A child a parent adds is a `users` row of role 'student' with the
 *   year of birth the parent gave (`birth_year`, never shown to a tutor). Until the child has a
 *   login of their own it has no credential account and an address nobody reads (`.invalid`).
 * - `family_links` ties a student to the one parent who pays for them. A student has at most one
 *   paying parent (unique), so "who pays for this booking" has one answer, settled by the database.
 * - `lessons.payer_id` and `lesson_packages.payer_id` name the parent whose wallet paid: the
 *   ledger's moves for that lesson or package take from and give back to the payer's balance. Null
 *   means the student paid, as every lesson and package before this migration did.
 * - `family_invitations`: a parent's invitation to a child to take a login, or a student's
 *   invitation to a parent; a mailed link whose token is stored as its hash, used once.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop constraint users_role_check`.execute(db);
  await sql`alter table users add constraint users_role_check
    check (role in ('student', 'tutor', 'parent'))`.execute(db);
  await sql`alter table users add column birth_year integer
    check (birth_year is null or birth_year between 1900 and 2200)`.execute(db);

  await sql`create table family_links (
    parent_id text not null references users(id) on delete cascade,
    student_id text not null references users(id) on delete cascade,
    -- A child the parent added at /family (they may add ten), rather than a student who invited them.
    added_by_parent boolean not null,
    -- The most this student's own bookings and packages may hold or spend of the parent's wallet
    -- in a calendar month of the parent's zone; null is no limit.
    monthly_limit_cents bigint check (monthly_limit_cents is null or monthly_limit_cents >= 0),
    created_at timestamptz not null default now(),
    primary key (parent_id, student_id),
    constraint family_links_not_self check (parent_id <> student_id)
  )`.execute(db);
  // One paying parent per student: whose wallet a booking takes from has one answer.
  await sql`create unique index family_links_one_parent on family_links (student_id)`.execute(db);

  await sql`create table family_invitations (
    token_hash text primary key,
    kind text not null check (kind in ('child_login', 'parent')),
    -- child_login: the parent who invites and their child; parent: the student who invites.
    parent_id text references users(id) on delete cascade,
    student_id text not null references users(id) on delete cascade,
    email text not null,
    expires_at timestamptz not null,
    used_at timestamptz,
    created_at timestamptz not null default now(),
    constraint family_invitations_parent check ((kind = 'child_login') = (parent_id is not null))
  )`.execute(db);
  await sql`create index family_invitations_student_idx on family_invitations (student_id)`.execute(db);

  await sql`alter table lessons add column payer_id text references users(id)`.execute(db);
  await sql`alter table lesson_packages add column payer_id text references users(id)`.execute(db);
  // A parent's wallet, dashboard and monthly limit read the lessons and packages they paid for.
  await sql`create index lessons_payer_idx on lessons (payer_id, created_at) where payer_id is not null`.execute(
    db,
  );
  await sql`create index lesson_packages_payer_idx on lesson_packages (payer_id, bought_at)
    where payer_id is not null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
