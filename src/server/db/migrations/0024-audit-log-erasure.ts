/**
 * The audit log stays append-only, with one exception: when a person deletes their account, the
 * words that name them (a label `Name <email>`, their name in a note) give way to "Deleted user".
 * The trigger allows an update only while the transaction names, in `tutorlane.erasing_account`,
 * an account already marked deleted, and only of the words: what was done, by and to whom (ids)
 * and when stay as written. Deleting an entry is still refused.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE'
        and new.id = old.id
        and new.action = old.action
        and new.created_at = old.created_at
        and new.actor_id is not distinct from old.actor_id
        and new.target_id is not distinct from old.target_id
        and exists (
          select 1 from users
          where id = nullif(current_setting('tutorlane.erasing_account', true), '')
            and deleted_at is not null
        )
      then
        return new;
      end if;
      raise exception 'The audit log is append-only';
    end
  $$`.execute(db);
}
