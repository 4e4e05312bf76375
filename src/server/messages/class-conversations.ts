/**
 * A group class's conversation: the class's tutor and the students enrolled in it now (never its
 * waitlist), in /messages beside their other conversations. The class code calls the three
 * functions below inside its own transactions (made with the class, a student enrolled, a
 * student out), so who reads the conversation moves exactly when the enrolment does. Each is
 * idempotent: calling it twice changes nothing the second time.
 *
 * Membership rows are kept when a student leaves (`left_at`): their messages stay in the others'
 * history under their name, they no longer see the conversation (404), and enrolling again brings
 * them back on the same row. What was written before a member joined (or while they were away) is
 * theirs to read, but not counted unread or mailed: their read mark starts where the conversation
 * is when they join.
 */
import { randomUUID } from 'node:crypto';
import { type InsertQueryBuilder, type InsertResult, type Kysely, sql, type Transaction } from 'kysely';
import type { ConversationMemberRole, DB } from '../db/schema';
import type { ClassRef, Db } from './conversations';

/** A class conversation's member as the others see them. */
export interface MemberView {
  id: string;
  displayName: string;
  role: ConversationMemberRole;
  photoVersion: string | null;
  /** Out of the class now: kept so their earlier messages still carry their name. */
  left: boolean;
}

/** The class's conversation row, made when it does not exist yet (a unique class_id settles races). */
async function conversationOfClass(trx: Transaction<DB>, classId: string, tutorId: string | null, now: Date) {
  const find = () =>
    trx
      .selectFrom('conversations')
      .select(['id', 'last_message_id'])
      .where('class_id', '=', classId)
      .executeTakeFirst();
  const existing = await find();
  if (existing) return existing;
  const tutor =
    tutorId ??
    (await trx.selectFrom('classes').select('tutor_id').where('id', '=', classId).executeTakeFirstOrThrow())
      .tutor_id;
  await trx
    .insertInto('conversations')
    .values({ id: randomUUID(), class_id: classId, created_at: now, last_activity_at: now })
    .onConflict((oc) => oc.column('class_id').doNothing())
    .execute();
  const made = await find();
  if (!made) throw new Error(`the conversation of class ${classId} is not there`);
  await addMember(trx, made, tutor, 'tutor', now);
  return made;
}

/**
 * Makes `userId` a member now: a new row, or a former member's row back (their read mark moved to
 * where the conversation is, so what they missed is there but not counted unread or mailed).
 * Nothing changes for someone who is a member already.
 */
async function addMember(
  trx: Transaction<DB>,
  conversation: { id: string; last_message_id: number | string },
  userId: string,
  role: ConversationMemberRole,
  now: Date,
) {
  const readId = Number(conversation.last_message_id);
  await membership(
    trx
      .insertInto('conversation_members')
      .values({ conversation_id: conversation.id, user_id: userId, role, read_id: readId, joined_at: now }),
    now,
  ).execute();
}

/**
 * A member's row written: a new one, or a former member's back with their read mark moved to
 * where the conversation is. A member now is left as they are.
 */
function membership<Q extends InsertQueryBuilder<DB, 'conversation_members', InsertResult>>(
  insert: Q,
  now: Date,
) {
  return insert.onConflict((oc) =>
    oc
      .columns(['conversation_id', 'user_id'])
      .doUpdateSet({
        left_at: null,
        joined_at: now,
        mailed: false,
        read_id: sql<number>`greatest(conversation_members.read_id, excluded.read_id)`,
      })
      .where('conversation_members.left_at', 'is not', null),
  );
}

/** The class's conversation, with its tutor as its first member; called as the class is made. */
export async function openClassConversation(
  trx: Transaction<DB>,
  cls: { id: string; tutorId: string },
  now: number,
): Promise<void> {
  const at = new Date(now);
  const conversation = await conversationOfClass(trx, cls.id, cls.tutorId, at);
  // Made before this call by another path (a student joining first): the tutor is in it all the same.
  await addMember(trx, conversation, cls.tutorId, 'tutor', at);
}

/** A student enrolled (or enrolled again): they read and write in the class's conversation. */
export async function joinClassConversation(
  trx: Transaction<DB>,
  classId: string,
  studentId: string,
  now: number,
): Promise<void> {
  const at = new Date(now);
  // The class's conversation is made with the class: found and joined in one statement. One that
  // is not there (a class made before conversations were) is made first.
  const joined = await trx
    .with('c', (db) =>
      db.selectFrom('conversations').select(['id', 'last_message_id']).where('class_id', '=', classId),
    )
    .with('m', (db) =>
      membership(
        db
          .insertInto('conversation_members')
          .columns(['conversation_id', 'user_id', 'role', 'read_id', 'joined_at'])
          .expression((eb) =>
            eb
              .selectFrom('c')
              .select([
                'c.id',
                sql<string>`${studentId}::text`.as('user_id'),
                sql<ConversationMemberRole>`'student'`.as('role'),
                'c.last_message_id',
                sql<Date>`${at}::timestamptz`.as('joined_at'),
              ]),
          ),
        at,
      ),
    )
    .selectFrom('c')
    .select('c.id')
    .executeTakeFirst();
  if (joined) return;
  const conversation = await conversationOfClass(trx, classId, null, at);
  await addMember(trx, conversation, studentId, 'student', at);
}

/** A student out of the class (left, removed, the class cancelled): they no longer see it. */
export async function leaveClassConversation(
  trx: Transaction<DB>,
  classId: string,
  studentId: string,
  now: number,
): Promise<void> {
  await trx
    .updateTable('conversation_members')
    .set({ left_at: new Date(now) })
    .where('user_id', '=', studentId)
    .where('role', '=', 'student')
    .where('left_at', 'is', null)
    .where('conversation_id', 'in', (eb) =>
      eb.selectFrom('conversations').select('id').where('class_id', '=', classId),
    )
    .execute();
}

/** The class a conversation belongs to. */
export async function classOf(db: Db, classId: string): Promise<ClassRef> {
  return db.selectFrom('classes').select(['id', 'title']).where('id', '=', classId).executeTakeFirstOrThrow();
}

/**
 * Everyone who has been in a class's conversation, the tutor first, then by when they joined; a
 * former member is marked `left`. The names label each message; only members now read it.
 */
export async function membersOf(db: Kysely<DB>, conversationId: string): Promise<MemberView[]> {
  const rows = await db
    .selectFrom('conversation_members as cm')
    .innerJoin('users as u', 'u.id', 'cm.user_id')
    .leftJoin('profile_photos as pp', 'pp.user_id', 'u.id')
    .select(['u.id', 'u.display_name', 'cm.role', 'pp.version', 'cm.left_at'])
    .where('cm.conversation_id', '=', conversationId)
    .orderBy(sql`cm.role = 'tutor'`, 'desc')
    .orderBy('cm.joined_at')
    .orderBy('u.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    displayName: row.display_name,
    role: row.role,
    photoVersion: row.role === 'tutor' ? (row.version ?? null) : null,
    left: row.left_at !== null,
  }));
}
