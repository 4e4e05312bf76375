/** Contact form messages, kept even when forwarding them by mail fails. */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('contact_messages')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) =>
      c
        .notNull()
        .check(sql`subject in ('general', 'technical', 'billing', 'tutoring', 'partnership', 'other')`),
    )
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('client_address', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Support replies go straight to the visitor.
  await db.schema.alterTable('mail_outbox').addColumn('reply_to', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
