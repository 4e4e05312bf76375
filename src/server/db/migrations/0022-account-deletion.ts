/**
 * A person may delete their account. Its users row stays, so that what others keep (lessons,
 * conversations, the ledger) still points somewhere, but it is marked deleted and emptied. Their
 * messages stay in the other person's conversation as a marked gap: the text is erased, so the
 * body may then be empty.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('deleted_at', 'timestamptz').execute();
  await db.schema.alterTable('messages').addColumn('erased_at', 'timestamptz').execute();
  await sql`alter table messages drop constraint messages_body_check`.execute(db);
  await sql`alter table messages add constraint messages_body_check check (
    char_length(body) <= 2000 and (char_length(body) >= 1 or erased_at is not null))`.execute(db);
}
