/**
 * Lesson packages: a tutor offers a number of lessons of one length at a discount, kept with their
 * booking settings; a student buys one, and its money waits in the ledger's `package:<id>` account
 * until each lesson booked with it takes one lesson's price from there into the lesson's hold.
 *
 * The credits are the money: a package's credits left are its account's balance divided by the
 * price of one of its lessons, fixed when it was bought. So the ledger's never-negative rule, now
 * also on package accounts, is what refuses a booking that would use a credit nobody has, however
 * many bookings arrive at once. A lesson remembers the package that paid for it, so a release gives
 * the credit back to the package rather than to the balance.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The offers: at most three of { lessons, minutes, discountPercent }, checked when saved.
  await db.schema
    .alterTable('tutor_availability')
    .addColumn('packages', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();

  await db.schema
    .createTable('lesson_packages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('student_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tutor_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('lessons', 'integer', (c) => c.notNull().check(sql`lessons in (5, 10, 20)`))
    .addColumn('minutes', 'integer', (c) => c.notNull().check(sql`minutes > 0`))
    .addColumn('discount_percent', 'integer', (c) =>
      c.notNull().check(sql`discount_percent between 0 and 30`),
    )
    .addColumn('per_lesson_cents', 'integer', (c) => c.notNull().check(sql`per_lesson_cents > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().defaultTo('active').check(sql`status in ('active', 'ended')`),
    )
    .addColumn('bought_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('ended_at', 'timestamptz')
    .addCheckConstraint('lesson_packages_ended_at', sql`(status = 'ended') = (ended_at is not null)`)
    .execute();
  await sql`create index lesson_packages_student_idx on lesson_packages (student_id, bought_at desc)`.execute(
    db,
  );
  // The booking's question: this student's active packages with this tutor, of this length.
  await sql`create index lesson_packages_active_idx on lesson_packages (student_id, tutor_id, minutes)
    where status = 'active'`.execute(db);

  await db.schema
    .alterTable('lessons')
    .addColumn('package_id', 'text', (c) => c.references('lesson_packages.id'))
    .execute();
  await sql`create index lessons_package_idx on lessons (package_id) where package_id is not null`.execute(
    db,
  );

  // The ledger learns the package account and its two transactions; its balance never goes below
  // zero, like a student's balance and a lesson's hold.
  await sql`alter table ledger_accounts drop constraint ledger_accounts_kind_check`.execute(db);
  await sql`alter table ledger_accounts add constraint ledger_accounts_kind_check
    check (kind in ('balance', 'hold', 'payable', 'revenue', 'clearing', 'package'))`.execute(db);
  await sql`alter table ledger_transactions drop constraint ledger_transactions_kind_check`.execute(db);
  await sql`alter table ledger_transactions add constraint ledger_transactions_kind_check
    check (kind in ('top_up', 'lesson_hold', 'lesson_release', 'lesson_settle', 'lesson_refund', 'payout',
      'balance_refund', 'package_buy', 'package_end'))`.execute(db);
  await sql`alter table ledger_entries drop constraint ledger_entries_never_negative`.execute(db);
  await sql`alter table ledger_entries add constraint ledger_entries_never_negative
    check (account_kind not in ('balance', 'hold', 'package') or balance_after_cents >= 0)`.execute(db);
}
