/**
 * A mail queued as what it is about rather than as its finished text: the name of the template
 * that writes it (`template`) and the facts it is written from (`params`, JSON). The worker writes
 * the text when it delivers the mail and keeps it in the row's text columns, which stay empty
 * until then; a mail queued with its text (every mail before this, and the mails other features
 * queue) is delivered as it was.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table mail_outbox add column template text, add column params text`.execute(db);
  await sql`alter table mail_outbox add constraint mail_outbox_template_params
    check (template is null or params is not null)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
