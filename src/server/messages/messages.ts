/**
 * Conversations between a student and a tutor, in the database: who may start one, who may read
 * it (its two people; anyone else finds nothing), messages numbered by the database, what each
 * side has read, blocks, reports, and the lines lessons write into their pair's conversation.
 *
 * A block hides the blocked person from the blocker: their messages and new conversations are
 * refused with an answer that does not say why, the conversation leaves the blocker's inbox, and
 * nothing tells the blocked person. Unblocking brings both back.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import { HIDDEN_MESSAGE_TEXT } from '../../shared/admin/admin-rules';
import type { DB, MessageEvent } from '../db/schema';
import { ApiError } from '../http/api-error';

export const messageMessages = {
  notFound: 'This conversation does not exist',
  messageNotFound: 'This message does not exist',
  refused: 'This message could not be sent.',
  noColdOutreach: 'You can write to a student once they have booked a lesson with you.',
  tutorNotFound: 'This tutor profile does not exist or is not public',
  notYourself: 'You cannot block yourself',
  youBlocked: 'You blocked this person. Unblock them to write to them.',
  tooFast: 'You are sending messages too quickly: at most 30 a minute. Please wait a moment.',
  tooManyConversations: 'You can start at most 10 new conversations a day. Please try again tomorrow.',
  userNotFound: 'There is no such person',
} as const;

type Db = Kysely<DB> | Transaction<DB>;

export interface MessageView {
  id: number;
  conversationId: string;
  /** Null for a line about a lesson. */
  senderId: string | null;
  text: string;
  event: MessageEvent | null;
  createdAt: string;
  /** Removed by a moderator: `text` then says so, and what it said is not sent. */
  hidden: boolean;
}

export interface ConversationSummary {
  id: string;
  other: { id: string; displayName: string; role: 'student' | 'tutor'; photoVersion: string | null };
  lastMessage: MessageView | null;
  unread: number;
  lastActivityAt: string;
}

interface MessageRow {
  id: number;
  conversation_id: string;
  sender_id: string | null;
  body: string;
  event: MessageEvent | null;
  created_at: Date;
  hidden_at?: Date | null;
}

export const toMessage = (row: MessageRow): MessageView => ({
  id: Number(row.id),
  conversationId: row.conversation_id,
  senderId: row.sender_id,
  text: row.hidden_at ? HIDDEN_MESSAGE_TEXT : row.body,
  event: row.event,
  createdAt: row.created_at.toISOString(),
  hidden: Boolean(row.hidden_at),
});

const messageColumns = [
  'id',
  'conversation_id',
  'sender_id',
  'body',
  'event',
  'created_at',
  'hidden_at',
] as const;

/** The side a user is on in a conversation row. */
function sideOf(row: { student_id: string; tutor_id: string }, userId: string) {
  if (row.student_id === userId) return { me: 'student' as const, otherId: row.tutor_id };
  if (row.tutor_id === userId) return { me: 'tutor' as const, otherId: row.student_id };
  return null;
}

/** A conversation of the user's, or 404 for anyone else. */
export async function conversationOf(db: Db, userId: string, id: string) {
  const row = await db
    .selectFrom('conversations')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('student_id', '=', userId), eb('tutor_id', '=', userId)]))
    .executeTakeFirst();
  const side = row && sideOf(row, userId);
  if (!row || !side) throw new ApiError(404, messageMessages.notFound, 'NOT_FOUND');
  return { row, ...side };
}

/** Whether `blocker` has blocked `blocked`. */
async function hasBlocked(db: Db, blocker: string, blocked: string): Promise<boolean> {
  const found = await db
    .selectFrom('blocks')
    .select('blocker_id')
    .where('blocker_id', '=', blocker)
    .where('blocked_id', '=', blocked)
    .executeTakeFirst();
  return Boolean(found);
}

/** The user's inbox: unread first, then by last activity; people the user blocked are left out. */
export async function listConversations(db: Kysely<DB>, userId: string): Promise<ConversationSummary[]> {
  const { rows } = await sql<{
    id: string;
    last_activity_at: Date;
    other_id: string;
    other_name: string;
    other_role: 'student' | 'tutor';
    photo_version: string | null;
    message_id: number | null;
    sender_id: string | null;
    body: string | null;
    event: MessageEvent | null;
    message_created_at: Date | null;
    message_hidden_at: Date | null;
    unread: number;
  }>`
    select c.id, c.last_activity_at,
           o.id as other_id, o.display_name as other_name, o.role as other_role,
           pp.version as photo_version,
           m.id as message_id, m.sender_id, m.body, m.event, m.created_at as message_created_at,
           m.hidden_at as message_hidden_at,
           (select count(*)::int from messages u
             where u.conversation_id = c.id and u.sender_id = o.id
               and u.id > case when c.student_id = ${userId} then c.student_read_id else c.tutor_read_id end
           ) as unread
    from conversations c
    join users o on o.id = case when c.student_id = ${userId} then c.tutor_id else c.student_id end
    left join profile_photos pp on pp.user_id = o.id
    left join messages m on m.id = c.last_message_id
    where (c.student_id = ${userId} or c.tutor_id = ${userId})
      and not exists (select 1 from blocks b where b.blocker_id = ${userId} and b.blocked_id = o.id)
    order by (case when (select count(*) from messages u
                          where u.conversation_id = c.id and u.sender_id = o.id
                            and u.id > case when c.student_id = ${userId} then c.student_read_id else c.tutor_read_id end
                        ) > 0 then 0 else 1 end),
             c.last_activity_at desc`.execute(db);
  return rows.map((row) => ({
    id: row.id,
    other: {
      id: row.other_id,
      displayName: row.other_name,
      role: row.other_role,
      photoVersion: row.other_role === 'tutor' ? row.photo_version : null,
    },
    lastMessage:
      row.message_id === null
        ? null
        : toMessage({
            id: row.message_id,
            conversation_id: row.id,
            sender_id: row.sender_id,
            body: row.body ?? '',
            event: row.event,
            created_at: new Date(row.message_created_at ?? 0),
            hidden_at: row.message_hidden_at,
          }),
    unread: Number(row.unread),
    lastActivityAt: new Date(row.last_activity_at).toISOString(),
  }));
}

/** How many messages from others wait unread, over the user's whole inbox. */
export async function unreadTotal(db: Db, userId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n
    from conversations c
    join messages m on m.conversation_id = c.id
    where (c.student_id = ${userId} and m.sender_id = c.tutor_id and m.id > c.student_read_id
           and not exists (select 1 from blocks b where b.blocker_id = ${userId} and b.blocked_id = c.tutor_id))
       or (c.tutor_id = ${userId} and m.sender_id = c.student_id and m.id > c.tutor_read_id
           and not exists (select 1 from blocks b where b.blocker_id = ${userId} and b.blocked_id = c.student_id))`.execute(
    db,
  );
  return Number(rows[0]?.n ?? 0);
}

/** A page of a conversation: after `after` (oldest first), else the latest `limit`. */
export async function listMessages(
  db: Kysely<DB>,
  userId: string,
  conversationId: string,
  page: { after?: number | undefined; before?: number | undefined; limit: number },
) {
  const { otherId } = await conversationOf(db, userId, conversationId);
  let query = db.selectFrom('messages').select(messageColumns).where('conversation_id', '=', conversationId);
  if (page.after !== undefined) query = query.where('id', '>', page.after).orderBy('id', 'asc');
  else {
    if (page.before !== undefined) query = query.where('id', '<', page.before);
    query = query.orderBy('id', 'desc');
  }
  const rows = await query.limit(page.limit + 1).execute();
  const more = rows.length > page.limit;
  const kept = rows.slice(0, page.limit);
  const ordered = page.after !== undefined ? kept : kept.reverse();
  return {
    messages: ordered.map(toMessage),
    // With `after`: more newer ones wait; otherwise: older ones exist.
    ...(page.after !== undefined ? { hasMore: more } : { hasOlder: more }),
    otherId,
  };
}

/** Appends a message; the conversation's activity, and the sender's own reading, move with it. */
async function appendMessage(
  trx: Transaction<DB>,
  conversation: { id: string; student_id: string; tutor_id: string },
  senderId: string | null,
  body: string,
  event: MessageEvent | null = null,
): Promise<MessageView> {
  // One writer per conversation at a time, from before its id is drawn until it commits: so a
  // conversation's messages become visible in id order, and a client that has every message up
  // to some id can never miss a smaller one committed later.
  await trx.selectFrom('conversations').select('id').where('id', '=', conversation.id).forUpdate().execute();
  const row = await trx
    .insertInto('messages')
    .values({
      conversation_id: conversation.id,
      sender_id: senderId,
      body,
      event: event ? JSON.stringify(event) : null,
    })
    .returning(messageColumns)
    .executeTakeFirstOrThrow();
  const id = Number(row.id);
  await trx
    .updateTable('conversations')
    .set({
      last_message_id: id,
      last_activity_at: row.created_at,
      // Writing in a conversation means having read it.
      ...(senderId === conversation.student_id ? { student_read_id: id, student_mailed: false } : {}),
      ...(senderId === conversation.tutor_id ? { tutor_read_id: id, tutor_mailed: false } : {}),
    })
    .where('id', '=', conversation.id)
    .execute();
  return toMessage(row);
}

/**
 * Refuses a message across a block: neutrally when the recipient blocked the sender (nothing tells
 * them so), plainly when the sender blocked the recipient, who could not answer.
 */
async function refuseBlocked(db: Db, senderId: string, recipientId: string) {
  if (await hasBlocked(db, recipientId, senderId))
    throw new ApiError(403, messageMessages.refused, 'FORBIDDEN');
  if (await hasBlocked(db, senderId, recipientId))
    throw new ApiError(403, messageMessages.youBlocked, 'BLOCKED_BY_YOU');
}

/** A new message from one of the two, unless a block stands between them. */
export async function sendMessage(db: Kysely<DB>, userId: string, conversationId: string, text: string) {
  return db.transaction().execute(async (trx) => {
    const { row, otherId } = await conversationOf(trx, userId, conversationId);
    await refuseBlocked(trx, userId, otherId);
    const message = await appendMessage(trx, row, userId, text);
    return { message, recipients: [row.student_id, row.tutor_id] };
  });
}

/** Whether a student and a tutor already have their conversation. */
export async function conversationExists(db: Db, studentId: string, tutorId: string): Promise<boolean> {
  const row = await db
    .selectFrom('conversations')
    .select('id')
    .where('student_id', '=', studentId)
    .where('tutor_id', '=', tutorId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The pair's conversation, made when it does not exist yet (safe when two requests race: the
 * unique pair decides); `created` says whether this call made it.
 */
async function conversationFor(trx: Transaction<DB>, studentId: string, tutorId: string) {
  const inserted = await trx
    .insertInto('conversations')
    .values({ id: randomUUID(), student_id: studentId, tutor_id: tutorId })
    .onConflict((oc) => oc.columns(['student_id', 'tutor_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  const row = await trx
    .selectFrom('conversations')
    .selectAll()
    .where('student_id', '=', studentId)
    .where('tutor_id', '=', tutorId)
    .executeTakeFirstOrThrow();
  return { ...row, created: inserted !== undefined };
}

/**
 * Opens (or continues) the conversation of a student and a tutor with a first message. A student
 * may write to any published tutor; a tutor only to a student who has booked them.
 */
export async function startConversation(
  db: Kysely<DB>,
  user: { id: string; role: 'student' | 'tutor' },
  otherId: string,
  text: string,
) {
  return db.transaction().execute(async (trx) => {
    let studentId: string;
    let tutorId: string;
    if (user.role === 'student') {
      const tutor = await trx
        .selectFrom('tutor_profiles')
        .select('user_id')
        .where('user_id', '=', otherId)
        .where('published', '=', true)
        .executeTakeFirst();
      if (!tutor) throw new ApiError(404, messageMessages.tutorNotFound, 'NOT_FOUND');
      studentId = user.id;
      tutorId = otherId;
    } else {
      const booked = await trx
        .selectFrom('lessons')
        .select('id')
        .where('tutor_id', '=', user.id)
        .where('student_id', '=', otherId)
        .executeTakeFirst();
      if (!booked) throw new ApiError(403, messageMessages.noColdOutreach, 'FORBIDDEN');
      studentId = otherId;
      tutorId = user.id;
    }
    await refuseBlocked(trx, user.id, otherId);
    const conversation = await conversationFor(trx, studentId, tutorId);
    const message = await appendMessage(trx, conversation, user.id, text);
    return { id: conversation.id, created: conversation.created, message, recipients: [studentId, tutorId] };
  });
}

/** Marks everything in the conversation read for the user, and lets the next unread message be mailed. */
export async function markRead(db: Kysely<DB>, userId: string, conversationId: string) {
  const { me } = await conversationOf(db, userId, conversationId);
  // One statement, and never backwards: a message sent meanwhile is either read here or stays unread.
  await db
    .updateTable('conversations')
    .set(
      me === 'student'
        ? { student_read_id: sql`greatest(student_read_id, last_message_id)`, student_mailed: false }
        : { tutor_read_id: sql`greatest(tutor_read_id, last_message_id)`, tutor_mailed: false },
    )
    .where('id', '=', conversationId)
    .execute();
  return unreadTotal(db, userId);
}

export async function block(db: Kysely<DB>, userId: string, otherId: string) {
  if (userId === otherId) throw new ApiError(400, messageMessages.notYourself, 'VALIDATION_ERROR');
  const other = await db.selectFrom('users').select('id').where('id', '=', otherId).executeTakeFirst();
  if (!other) throw new ApiError(404, messageMessages.userNotFound, 'NOT_FOUND');
  await db
    .insertInto('blocks')
    .values({ blocker_id: userId, blocked_id: otherId })
    .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
    .execute();
}

export async function unblock(db: Kysely<DB>, userId: string, otherId: string) {
  await db.deleteFrom('blocks').where('blocker_id', '=', userId).where('blocked_id', '=', otherId).execute();
}

/** Keeps a report of a message the user can read, with a copy of its text, for moderation. */
export async function reportMessage(db: Kysely<DB>, userId: string, messageId: number, reason: string) {
  const message = await db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .select(['m.id', 'm.body', 'm.sender_id'])
    .where('m.id', '=', messageId)
    .where((eb) => eb.or([eb('c.student_id', '=', userId), eb('c.tutor_id', '=', userId)]))
    .executeTakeFirst();
  // Only a message someone else wrote can be reported; anything else is no message of theirs.
  if (!message || message.sender_id === null || message.sender_id === userId)
    throw new ApiError(404, messageMessages.messageNotFound, 'NOT_FOUND');
  const row = await db
    .insertInto('message_reports')
    .values({ message_id: messageId, reporter_id: userId, reason, message_text: message.body })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(row.id) };
}

/**
 * A line about a lesson in its pair's conversation (made when they have none yet), written in
 * the lesson's own transaction.
 */
export async function lessonLine(
  trx: Transaction<DB>,
  lesson: { studentId: string; tutorId: string },
  event: MessageEvent,
  body: string,
) {
  const conversation = await conversationFor(trx, lesson.studentId, lesson.tutorId);
  const message = await appendMessage(trx, conversation, null, body, event);
  return { message, recipients: [lesson.studentId, lesson.tutorId] };
}
