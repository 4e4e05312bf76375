/**
 * What a bank-transfer top-up tells the student to do, as a site setting: only PAYMENT_INSTRUCTIONS
 * said it, so a school that had not set that variable showed a text without bank details, and
 * changing it meant a restart. Null (the default) keeps PAYMENT_INSTRUCTIONS, else the product's
 * text; an admin writes their own, up to 2,000 characters.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('site_settings')
    .addColumn('payment_instructions', 'text', (c) =>
      c.check(sql`char_length(payment_instructions) between 1 and 2000`),
    )
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
