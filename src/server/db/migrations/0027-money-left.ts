/**
 * Money a person leaves behind: a student may withdraw a top-up they asked for and will not pay
 * (`withdrawn`, by them, where `rejected` is an admin's word), and an admin may pay a lesson
 * package's unused credits back to the student (`package_refund`: out of the package's account,
 * through the manual clearing account, as a balance refund goes out of the balance).
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table top_ups drop constraint top_ups_status_check`.execute(db);
  await sql`alter table top_ups add constraint top_ups_status_check
    check (status in ('pending', 'confirmed', 'rejected', 'withdrawn'))`.execute(db);
  await sql`alter table ledger_transactions drop constraint ledger_transactions_kind_check`.execute(db);
  await sql`alter table ledger_transactions add constraint ledger_transactions_kind_check
    check (kind in ('top_up', 'lesson_hold', 'lesson_release', 'lesson_settle', 'lesson_refund', 'payout',
      'balance_refund', 'package_buy', 'package_end', 'package_refund'))`.execute(db);
}
