/**
 * Card payments that Stripe took and Tutorlane could not credit: a top-up rejected meanwhile, an
 * amount or currency that is not the top-up's, a payment page the top-up never opened, a top-up
 * that does not exist. The money is in the school's Stripe account but in no wallet, so each is
 * kept for an admin to settle by hand (credit or refund it in Stripe). One row per payment: a
 * session is paid once, however often Stripe delivers the news of it.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('unapplied_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull().check(sql`provider in ('stripe')`))
    // The provider's own name for the payment (Stripe: the Checkout session's id).
    .addColumn('provider_reference', 'text', (c) => c.notNull())
    // The top-up the payment named, as the provider reported it: it may name none that exists.
    .addColumn('top_up_id', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull().check(sql`amount_cents >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`reason in ('top_up_rejected', 'amount_differs', 'currency_differs', 'session_differs', 'not_a_card_top_up', 'unknown_top_up')`,
        ),
    )
    .addColumn('reported_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('unapplied_payments_provider_reference', ['provider', 'provider_reference'])
    .execute();
  await sql`create index unapplied_payments_reported_idx on unapplied_payments (reported_at desc)`.execute(
    db,
  );
}
