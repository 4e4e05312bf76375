/**
 * Writing in conversations: a message from one of the two sides (or a class's member), the first
 * message that opens a student's and a tutor's conversation, and the lines lessons write into
 * their pair's conversation; messages are numbered by the database. Blocks are kept here too,
 * since sending is what they stop.
 *
 * A block hides the blocked person from the blocker: their messages and new conversations are
 * refused with an answer that does not say why, the conversation leaves the blocker's inbox, and
 * nothing tells the blocked person. Unblocking brings both back. A block is between two people:
 * it does not reach a class's group conversation, where the others are there too (a class is left
 * by leaving the class, and abuse there is reported to the moderators).
 *
 * Families: a tutor's message about a student whose parent pays goes to that parent, in their pair
 * about the child (migration 0039); a child without a login, or under 13, is never written to. The
 * lines about a login-less child's lessons go to that pair too, since nobody reads the child's own.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { ageOf, OWN_LOGIN_AGE } from '../../shared/family/family-constants';
import type { DB, MessageEvent } from '../db/schema';
import { ApiError } from '../http/api-error';
import { hasLogin } from '../platform/family-links';
import { type Listing, listedTutor } from '../platform/tutor-listing';
import {
  audienceOf,
  type Db,
  type MessageView,
  messageMessages,
  type Parties,
  parentReadsNow,
  sideOf,
  toMessage,
} from './conversations';
import type { Reader } from './support';

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

interface ReturnedMessage {
  id: number | string;
  conversation_id: string;
  sender_id: string | null;
  body: string;
  event: MessageEvent | null;
  created_at: Date;
  hidden_at: Date | null;
}

/**
 * Appends a message to the conversation `which` picks (by its id, or by its pair), through
 * append_message (migration 0044), which also moves the conversation's activity and the sender's
 * own reading; undefined when none matches. One statement, one round trip to the database.
 */
async function appendMessage(
  trx: Transaction<DB>,
  which: RawBuilder<unknown>,
  senderId: string | null,
  body: string,
  event: MessageEvent | null = null,
): Promise<MessageView | undefined> {
  // One writer per conversation at a time, from before its id is drawn until it commits (the lock
  // of `c` is taken before the function inserts and draws the id): so a conversation's messages
  // become visible in id order, and a client that has every message up to some id can never miss a
  // smaller one committed later.
  const { rows } = await sql<ReturnedMessage>`
    select m.id, m.conversation_id, m.sender_id, m.body, m.event, m.created_at, m.hidden_at
    from (select id from conversations where ${which} for update) c,
      lateral append_message(c.id, ${senderId}, ${body}, ${event ? JSON.stringify(event) : null}::jsonb) m`.execute(
    trx,
  );
  const row = rows[0];
  return row && toMessage({ ...row, id: Number(row.id) });
}

/** Appends to a conversation known to exist (made or locked in the same transaction). */
async function appendTo(
  trx: Transaction<DB>,
  conversation: Parties,
  senderId: string | null,
  body: string,
  event: MessageEvent | null = null,
): Promise<MessageView> {
  const message = await appendMessage(trx, sql`id = ${conversation.id}`, senderId, body, event);
  if (!message) throw new Error(`conversation ${conversation.id} vanished while a message was added`);
  return message;
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

/**
 * A new message from one of the two sides, unless a block stands between two people. Blocks do
 * not reach support conversations: support is no person to block, and an admin answers for the
 * school, whatever they chose for themselves.
 *
 * One call of send_message (migration 0044): it finds the conversation among the reader's (as
 * conversationOf does), locks it, looks for a block either way, and only when there is none
 * appends the message. A statement is its own transaction, so this is one round trip to the
 * database instead of eight (begin, the conversation, two blocks, the lock, the insert, the
 * update, commit), and the function's statements keep their plans (decision 0046): on the
 * embedded store, which does one thing at a time, that is what bounds how many messages a second
 * a server takes.
 */
export async function sendMessage(
  db: Kysely<DB>,
  reader: Reader,
  conversationId: string,
  text: string,
  requireTwoFactor: boolean,
) {
  const { rows } = await sql<
    Parties & { blocked_me: boolean; i_blocked: boolean } & {
      [K in keyof ReturnedMessage as `m_${K}`]: ReturnedMessage[K] | null;
    }
  >`select * from send_message(${conversationId}, ${reader.id}, ${reader.isAdmin}, ${text})`.execute(db);
  const row = rows[0];
  if (!row || !sideOf(row, reader)) {
    // Looked for only once the send found nothing: a parent reads their child's conversation, and
    // is told why they cannot write in it, rather than that it does not exist.
    const reads = await db
      .selectFrom('conversations')
      .select('id')
      .where('id', '=', conversationId)
      .where(parentReadsNow(reader.id))
      .executeTakeFirst();
    if (reads) throw new ApiError(403, messageMessages.parentReadOnly, 'PARENT_READ_ONLY');
    throw new ApiError(404, messageMessages.notFound, 'NOT_FOUND');
  }
  if (row.blocked_me) throw new ApiError(403, messageMessages.refused, 'FORBIDDEN');
  if (row.i_blocked) throw new ApiError(403, messageMessages.youBlocked, 'BLOCKED_BY_YOU');
  if (row.m_id === null || row.m_created_at === null) throw new Error('the message was not inserted');
  const message = toMessage({
    id: Number(row.m_id),
    conversation_id: row.m_conversation_id ?? conversationId,
    sender_id: row.m_sender_id,
    body: row.m_body ?? '',
    event: row.m_event,
    created_at: new Date(row.m_created_at),
    hidden_at: row.m_hidden_at,
  });
  return { message, ...(await audienceOf(db, row, requireTwoFactor)) };
}

/** Whether a student and a tutor already have their conversation. */
export async function conversationExists(db: Db, studentId: string, tutorId: string): Promise<boolean> {
  const row = await db
    .selectFrom('conversations')
    .select('id')
    .where('student_id', '=', studentId)
    .where('tutor_id', '=', tutorId)
    .where('about_student_id', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The pair's conversation, made when it does not exist yet (safe when two requests race: the
 * unique pair decides); `created` says whether this call made it. With `aboutId`, the pair is a
 * parent (on the student side) and a tutor, about that child.
 */
async function conversationFor(
  trx: Transaction<DB>,
  studentId: string,
  tutorId: string,
  aboutId: string | null = null,
) {
  const find = () =>
    trx
      .selectFrom('conversations')
      .selectAll()
      .where('student_id', '=', studentId)
      .where('tutor_id', '=', tutorId)
      .where('about_student_id', aboutId === null ? 'is' : '=', aboutId)
      .executeTakeFirst();
  // Most pairs have theirs already: one read. A first one is made, and should another request
  // make it at the same moment, the unique pair keeps one and both continue it.
  const existing = await find();
  if (existing) return { ...existing, created: false };
  const inserted = await trx
    .insertInto('conversations')
    .values({ id: randomUUID(), student_id: studentId, tutor_id: tutorId, about_student_id: aboutId })
    // The unique index of its kind (plain pairs, or pairs about a child) is the one that decides.
    .onConflict((oc) =>
      aboutId === null
        ? oc.columns(['student_id', 'tutor_id']).where('about_student_id', 'is', null).doNothing()
        : oc
            .columns(['student_id', 'tutor_id', 'about_student_id'])
            .where('about_student_id', 'is not', null)
            .doNothing(),
    )
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { ...inserted, created: true };
  const raced = await find();
  if (!raced) throw new Error('a conversation made at the same moment is not there');
  return { ...raced, created: false };
}

/**
 * Where a tutor's message about a student goes: to the student's paying parent (the pair about the
 * child) when a parent pays for them, else to the student, unless the student is a child who may
 * not be written to (no login of their own, or under 13): 403, naming the parent as the way.
 */
export async function recipientOfTutor(db: Db, studentId: string, now = new Date()) {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('family_links as f', 'f.student_id', 'u.id')
    .select(['u.birth_year', 'f.parent_id'])
    .select(hasLogin('u.id').as('has_login'))
    .where('u.id', '=', studentId)
    .executeTakeFirst();
  if (row?.parent_id) return { studentSide: row.parent_id, aboutId: studentId };
  if (!row?.has_login) throw new ApiError(403, messageMessages.childNotReachable, 'CHILD_NOT_REACHABLE');
  if (row.birth_year !== null && ageOf(row.birth_year, now) < OWN_LOGIN_AGE)
    throw new ApiError(403, messageMessages.childNotReachable, 'CHILD_NOT_REACHABLE');
  return { studentSide: studentId, aboutId: null };
}

/**
 * Opens (or continues) the conversation of a student and a tutor with a first message. A student
 * may write to any listed tutor (../platform/tutor-listing.ts); a tutor only to a student who has
 * booked them, and when a parent pays for that student, to the parent, about the student. Once
 * open, the conversation goes on through sendMessage, listed or not: a tutor who leaves the
 * listing still answers the students they already talk to.
 */
export async function startConversation(
  db: Kysely<DB>,
  user: { id: string; role: 'student' | 'tutor' | 'parent' },
  otherId: string,
  text: string,
  listing: Listing,
) {
  if (user.role === 'parent') throw new ApiError(403, messageMessages.parentStartsNone, 'FORBIDDEN');
  return db.transaction().execute(async (trx) => {
    let studentId: string;
    let tutorId: string;
    let aboutId: string | null = null;
    if (user.role === 'student') {
      const tutor = await trx
        .selectFrom('tutor_profiles as tp')
        .select('tp.user_id')
        .where('tp.user_id', '=', otherId)
        .where(listedTutor(listing))
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
      const to = await recipientOfTutor(trx, otherId);
      studentId = to.studentSide;
      aboutId = to.aboutId;
      tutorId = user.id;
    }
    await refuseBlocked(trx, user.id, user.role === 'student' ? otherId : studentId);
    const conversation = await conversationFor(trx, studentId, tutorId, aboutId);
    const message = await appendTo(trx, conversation, user.id, text);
    const about = aboutId === null ? null : await childRef(trx, aboutId);
    return {
      id: conversation.id,
      created: conversation.created,
      message,
      recipients: [studentId, tutorId],
      about,
    };
  });
}

/** A child by first name, as a conversation about them names them. */
async function childRef(db: Db, childId: string) {
  const child = await db
    .selectFrom('users')
    .select(['id', 'display_name'])
    .where('id', '=', childId)
    .executeTakeFirstOrThrow();
  return { id: child.id, firstName: child.display_name };
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

/**
 * A line about a lesson in its pair's conversation (made when they have none yet), written in
 * the lesson's own transaction. A child without a login reads nothing: their lessons' lines go to
 * the conversation of their paying parent and the tutor, about the child.
 */
export async function lessonLine(
  trx: Transaction<DB>,
  lesson: {
    studentId: string;
    tutorId: string;
    /** The parent who reads for a child without a login (null: nobody does), when the caller has read it. */
    readingParent?: string | null;
  },
  event: MessageEvent,
  body: string,
) {
  const parent =
    lesson.readingParent !== undefined
      ? lesson.readingParent === null
        ? undefined
        : { parent_id: lesson.readingParent }
      : await trx
          .selectFrom('family_links as f')
          .select('f.parent_id')
          .where('f.student_id', '=', lesson.studentId)
          .where((eb) => eb.not(hasLogin('f.student_id')))
          .executeTakeFirst();
  const studentSide = parent?.parent_id ?? lesson.studentId;
  const aboutId = parent ? lesson.studentId : null;
  // Most pairs have their conversation by their first lesson's line: one statement finds it and
  // writes there. A first one is made, then written to.
  const message =
    (await appendMessage(
      trx,
      sql`student_id = ${studentSide} and tutor_id = ${lesson.tutorId} and ${
        aboutId === null ? sql`about_student_id is null` : sql`about_student_id = ${aboutId}`
      }`,
      null,
      body,
      event,
    )) ??
    (await appendTo(
      trx,
      await conversationFor(trx, studentSide, lesson.tutorId, aboutId),
      null,
      body,
      event,
    ));
  return { message, recipients: [studentSide, lesson.tutorId] };
}
