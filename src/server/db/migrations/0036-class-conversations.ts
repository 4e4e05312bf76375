/**
 * A group class's conversation: the class's tutor and its enrolled students (never its waitlist).
 * Such a row names the class in `class_id` and leaves the pair's and support's columns empty; its
 * title is the class's, read from `classes` when shown. A group has more than two sides, so each
 * person's read mark and mail flag live in `conversation_members` rather than in columns of the
 * conversation. A student who leaves the class keeps their row with `left_at` set (their messages
 * stay, named, in the others' history) and comes back on the same row if they enrol again.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table conversations
    add column class_id text references classes(id) on delete cascade`.execute(db);
  // One conversation per class, also when two transactions make it at once.
  await sql`alter table conversations add constraint conversations_one_class unique (class_id)`.execute(db);
  // A conversation is a pair, a person and support, or a class: never a mix.
  await sql`alter table conversations drop constraint conversations_kind`.execute(db);
  await sql`alter table conversations add constraint conversations_kind check (
      (class_id is null and requester_id is null and student_id is not null and tutor_id is not null)
      or (class_id is null and requester_id is not null and student_id is null and tutor_id is null)
      or (class_id is not null and requester_id is null and student_id is null and tutor_id is null))`.execute(
    db,
  );

  await sql`create table conversation_members (
    conversation_id text not null references conversations(id) on delete cascade,
    user_id text not null references users(id) on delete cascade,
    role text not null check (role in ('tutor', 'student')),
    -- The id of the last message this member has seen (0 before their first read).
    read_id bigint not null default 0,
    -- Whether a "you have unread messages" mail has gone out since this member last read.
    mailed boolean not null default false,
    joined_at timestamptz not null default now(),
    -- Set while the member is out of the class (left, removed, the waitlist again): they see nothing.
    left_at timestamptz,
    primary key (conversation_id, user_id)
  )`.execute(db);
  // Each person's inbox and unread count look up the groups they are in now.
  await sql`create index conversation_members_user_idx on conversation_members (user_id)
    where left_at is null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
