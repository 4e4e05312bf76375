/**
 * Conversations in the database: between a student and a tutor, or between a person and the
 * school's support (support.ts). Who may start one, who may read it (its two sides; anyone else
 * finds nothing), messages numbered by the database, what each side has read, blocks, reports,
 * and the lines lessons write into their pair's conversation.
 *
 * A block hides the blocked person from the blocker: their messages and new conversations are
 * refused with an answer that does not say why, the conversation leaves the blocker's inbox, and
 * nothing tells the blocked person. Unblocking brings both back.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { DELETED_MESSAGE_TEXT } from '../../shared/account-data';
import { HIDDEN_MESSAGE_TEXT } from '../../shared/admin/admin-rules';
import { SUPPORT_ID, SUPPORT_NAME } from '../../shared/constants';
import type { ConversationsTable, DB, MessageEvent, MessagesTable } from '../db/schema';
import { ApiError } from '../http/api-error';
import { type Listing, listedTutor } from '../platform/tutor-listing';
import { adminIds, type Reader, seenBy } from './support';

export const messageMessages = {
  notFound: 'This conversation does not exist',
  messageNotFound: 'This message does not exist',
  refused: 'This message could not be sent.',
  noColdOutreach: 'You can write to a student once they have booked a lesson with you.',
  tutorNotFound: 'This tutor profile does not exist or is not public',
  notYourself: 'You cannot block yourself',
  youBlocked: 'You blocked this person. Unblock them to write to them.',
  tooFast: 'You are sending messages too quickly: at most 30 a minute. Please wait a moment.',
  tooManyReports: 'You have sent many reports: at most 20 an hour. Please try again later.',
  tooManyConversations: 'You can start at most 10 new conversations a day. Please try again tomorrow.',
  userNotFound: 'There is no such person',
} as const;

type Db = Kysely<DB> | Transaction<DB>;
type ConversationRow = Selectable<ConversationsTable>;
type Parties = Pick<ConversationRow, 'id' | 'student_id' | 'tutor_id' | 'requester_id'>;

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
  /** Its writer deleted their account: `text` says so; what it said is gone from the database. */
  deleted: boolean;
}

/** The other side as a reader sees it: a person, or (to the person who asked) Support. */
export interface OtherSide {
  id: string;
  displayName: string;
  role: 'student' | 'tutor' | 'support';
  photoVersion: string | null;
}

export interface ConversationSummary {
  id: string;
  /** A conversation with the school's support rather than between a student and a tutor. */
  support: boolean;
  other: OtherSide;
  lastMessage: MessageView | null;
  unread: number;
  lastActivityAt: string;
}

/** Support, as the person who asked sees it: the team, never one admin. */
export const SUPPORT_SIDE: OtherSide = {
  id: SUPPORT_ID,
  displayName: SUPPORT_NAME,
  role: 'support',
  photoVersion: null,
};

/** A person as the other side of a conversation: their name, role and (a tutor's) photo. */
export async function personSide(db: Db, userId: string): Promise<OtherSide> {
  const person = await db
    .selectFrom('users as u')
    .leftJoin('profile_photos as pp', 'pp.user_id', 'u.id')
    .select(['u.id', 'u.display_name', 'u.role', 'pp.version'])
    .where('u.id', '=', userId)
    .executeTakeFirstOrThrow();
  return {
    id: person.id,
    displayName: person.display_name,
    role: person.role,
    photoVersion: person.role === 'tutor' ? (person.version ?? null) : null,
  };
}

type MessageRow = Pick<
  Selectable<MessagesTable>,
  'id' | 'conversation_id' | 'sender_id' | 'body' | 'event' | 'created_at'
> &
  Partial<Pick<Selectable<MessagesTable>, 'hidden_at' | 'erased_at'>>;

export const toMessage = (row: MessageRow): MessageView => ({
  id: Number(row.id),
  conversationId: row.conversation_id,
  senderId: row.sender_id,
  text: row.erased_at ? DELETED_MESSAGE_TEXT : row.hidden_at ? HIDDEN_MESSAGE_TEXT : row.body,
  event: row.event,
  createdAt: row.created_at.toISOString(),
  hidden: Boolean(row.hidden_at),
  deleted: Boolean(row.erased_at),
});

const messageColumns = [
  'id',
  'conversation_id',
  'sender_id',
  'body',
  'event',
  'created_at',
  'hidden_at',
  'erased_at',
] as const;

/** The side a reader is on: one of a pair, the person who asked support, or support (an admin). */
export type Side = 'student' | 'tutor' | 'requester' | 'support';

/**
 * The reader's side in a conversation row and the other side's person (null: Support), or null
 * when it is not theirs. The person who asked is on their own side even when they are an admin.
 */
function sideOf(row: Parties, reader: Reader): { me: Side; otherId: string | null } | null {
  if (row.requester_id !== null) {
    if (row.requester_id === reader.id) return { me: 'requester', otherId: null };
    return reader.isAdmin ? { me: 'support', otherId: row.requester_id } : null;
  }
  if (row.student_id === reader.id) return { me: 'student', otherId: row.tutor_id };
  if (row.tutor_id === reader.id) return { me: 'tutor', otherId: row.student_id };
  return null;
}

/** A conversation of the reader's (every support conversation, for an admin), or 404 for anyone else. */
export async function conversationOf(db: Db, reader: Reader, id: string) {
  const row = await db
    .selectFrom('conversations')
    .selectAll()
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('student_id', '=', reader.id),
        eb('tutor_id', '=', reader.id),
        eb('requester_id', '=', reader.id),
        ...(reader.isAdmin ? [eb('requester_id', 'is not', null)] : []),
      ]),
    )
    .executeTakeFirst();
  const side = row && sideOf(row, reader);
  if (!row || !side) throw new ApiError(404, messageMessages.notFound, 'NOT_FOUND');
  return { row, ...side };
}

/**
 * Who hears of a conversation's messages: its pair, or the person who asked and everyone who
 * answers support now (`requireTwoFactor`: ADMIN_TWO_FACTOR is required).
 */
export async function audienceOf(db: Db, row: Parties, requireTwoFactor: boolean) {
  if (row.requester_id === null)
    return { recipients: [row.student_id, row.tutor_id].filter((id) => id !== null), requesterId: null };
  return {
    recipients: [...new Set([row.requester_id, ...(await adminIds(db, requireTwoFactor))])],
    requesterId: row.requester_id,
  };
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

/** Unread first, then the latest activity first. */
const inboxOrder = (a: ConversationSummary, b: ConversationSummary) =>
  Number(b.unread > 0) - Number(a.unread > 0) || Date.parse(b.lastActivityAt) - Date.parse(a.lastActivityAt);

interface LastMessageColumns {
  id: string;
  message_id: number | null;
  sender_id: string | null;
  body: string | null;
  event: MessageEvent | null;
  message_created_at: Date | null;
  message_hidden_at: Date | null;
  message_erased_at: Date | null;
}

const lastMessageOf = (row: LastMessageColumns): MessageView | null =>
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
        erased_at: row.message_erased_at,
      });

/**
 * The reader's inbox: unread first, then by last activity; people the reader blocked are left out.
 * It holds their own support conversation, and for an admin every support conversation someone
 * has written in, named after its person.
 */
export async function listConversations(db: Kysely<DB>, reader: Reader): Promise<ConversationSummary[]> {
  const [pairs, support] = await Promise.all([
    pairConversations(db, reader.id),
    supportConversations(db, reader),
  ]);
  return [...pairs, ...support].sort(inboxOrder);
}

async function pairConversations(db: Kysely<DB>, userId: string): Promise<ConversationSummary[]> {
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
    message_erased_at: Date | null;
    unread: number;
  }>`
    select c.id, c.last_activity_at,
           o.id as other_id, o.display_name as other_name, o.role as other_role,
           pp.version as photo_version,
           m.id as message_id, m.sender_id, m.body, m.event, m.created_at as message_created_at,
           m.hidden_at as message_hidden_at, m.erased_at as message_erased_at,
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
    support: false,
    other: {
      id: row.other_id,
      displayName: row.other_name,
      role: row.other_role,
      photoVersion: row.other_role === 'tutor' ? row.photo_version : null,
    },
    lastMessage: lastMessageOf(row),
    unread: Number(row.unread),
    lastActivityAt: new Date(row.last_activity_at).toISOString(),
  }));
}

/**
 * The reader's own support conversation (even before its first message: they opened it), and
 * for an admin every other one that has a message. Unread, for the person: what support wrote
 * after their read mark; for admins: what the person wrote after support's shared one.
 */
async function supportConversations(db: Kysely<DB>, reader: Reader): Promise<ConversationSummary[]> {
  const mine = sql`c.requester_id = ${reader.id}`;
  const { rows } = await sql<
    LastMessageColumns & {
      last_activity_at: Date;
      requester_id: string;
      requester_name: string;
      requester_role: 'student' | 'tutor';
      photo_version: string | null;
      unread: number;
    }
  >`
    select c.id, c.last_activity_at, c.requester_id,
           o.display_name as requester_name, o.role as requester_role, pp.version as photo_version,
           m.id as message_id, m.sender_id, m.body, m.event, m.created_at as message_created_at,
           m.hidden_at as message_hidden_at, m.erased_at as message_erased_at,
           (select count(*)::int from messages u
             where u.conversation_id = c.id
               and case when ${mine}
                     then u.sender_id <> c.requester_id and u.id > c.requester_read_id
                     else u.sender_id = c.requester_id and u.id > c.support_read_id end
           ) as unread
    from conversations c
    join users o on o.id = c.requester_id
    left join profile_photos pp on pp.user_id = o.id
    left join messages m on m.id = c.last_message_id
    where c.requester_id is not null
      and (${reader.isAdmin ? sql`${mine} or c.last_message_id > 0` : mine})`.execute(db);
  return rows.map((row) => {
    const asked = row.requester_id === reader.id;
    const last = lastMessageOf(row);
    return {
      id: row.id,
      support: true,
      other: asked
        ? SUPPORT_SIDE
        : {
            id: row.requester_id,
            displayName: row.requester_name,
            role: row.requester_role,
            photoVersion: row.requester_role === 'tutor' ? row.photo_version : null,
          },
      lastMessage: last && seenBy(reader.id, last, row.requester_id),
      unread: Number(row.unread),
      lastActivityAt: new Date(row.last_activity_at).toISOString(),
    };
  });
}

/** How many messages from the other side wait unread, over the reader's whole inbox. */
export async function unreadTotal(db: Db, reader: Reader): Promise<number> {
  const userId = reader.id;
  // Support's side counts for admins only, and not in a conversation they asked themselves.
  const forSupport = reader.isAdmin
    ? sql`(select count(*)::int from conversations c join messages m on m.conversation_id = c.id
            where c.requester_id <> ${userId} and m.sender_id = c.requester_id and m.id > c.support_read_id)`
    : sql`0`;
  const { rows } = await sql<{ n: number }>`
    select (select count(*)::int
      from conversations c
      join messages m on m.conversation_id = c.id
      where (c.student_id = ${userId} and m.sender_id = c.tutor_id and m.id > c.student_read_id
             and not exists (select 1 from blocks b where b.blocker_id = ${userId} and b.blocked_id = c.tutor_id))
         or (c.tutor_id = ${userId} and m.sender_id = c.student_id and m.id > c.tutor_read_id
             and not exists (select 1 from blocks b where b.blocker_id = ${userId} and b.blocked_id = c.student_id))
    ) + (select count(*)::int from conversations c join messages m on m.conversation_id = c.id
          where c.requester_id = ${userId} and m.sender_id <> ${userId} and m.id > c.requester_read_id
    ) + ${forSupport} as n`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** A page of a conversation: after `after` (oldest first), else the latest `limit`. */
export async function listMessages(
  db: Kysely<DB>,
  reader: Reader,
  conversationId: string,
  page: { after?: number | undefined; before?: number | undefined; limit: number },
) {
  const { row: conversation } = await conversationOf(db, reader, conversationId);
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
    messages: ordered.map((row) => seenBy(reader.id, toMessage(row), conversation.requester_id)),
    // With `after`: more newer ones wait; otherwise: older ones exist.
    ...(page.after !== undefined ? { hasMore: more } : { hasOlder: more }),
  };
}

/**
 * The conversation's columns a new message moves, as SET expressions for an update `from m` (the
 * inserted message): its activity, and the read mark of the sender's side (writing in a
 * conversation means having read it), which also lets their next unread message be mailed. An
 * admin answering a support conversation someone else asked moves support's shared mark.
 */
function movedByMessage(senderId: string | null) {
  const sender = sql`${senderId}::text`;
  const pair = sql`conversations.requester_id is null`;
  const side = (column: string, whose: ReturnType<typeof sql>) => {
    const ref = sql.ref(`conversations.${column}`);
    return sql`${sql.ref(column)} = case when ${whose} then ${column.endsWith('_read_id') ? sql`m.id` : sql`false`} else ${ref} end`;
  };
  const sides = (suffix: string) => [
    side(`student${suffix}`, sql`${pair} and conversations.student_id = ${sender}`),
    side(`tutor${suffix}`, sql`${pair} and conversations.tutor_id = ${sender}`),
    side(`requester${suffix}`, sql`conversations.requester_id = ${sender}`),
    side(`support${suffix}`, sql`conversations.requester_id <> ${sender}`),
  ];
  return sql.join([
    sql`last_message_id = m.id`,
    sql`last_activity_at = m.created_at`,
    ...sides('_read_id'),
    ...sides('_mailed'),
  ]);
}

const returnedMessage = sql`m.id, m.conversation_id, m.sender_id, m.body, m.event, m.created_at, m.hidden_at`;

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
 * Appends a message; the conversation's activity, and the sender's own reading, move with it. One
 * statement, one round trip to the database: a send is the busiest write there is.
 */
async function appendMessage(
  trx: Transaction<DB>,
  conversation: Parties,
  senderId: string | null,
  body: string,
  event: MessageEvent | null = null,
): Promise<MessageView> {
  // One writer per conversation at a time, from before its id is drawn until it commits (the lock
  // of `c` is taken before the insert draws the id): so a conversation's messages become visible
  // in id order, and a client that has every message up to some id can never miss a smaller one
  // committed later.
  const { rows } = await sql<ReturnedMessage>`
    with c as (select id from conversations where id = ${conversation.id} for update),
    m as (
      insert into messages (conversation_id, sender_id, body, event)
      select c.id, ${senderId}, ${body}, ${event ? JSON.stringify(event) : null}::jsonb from c
      returning id, conversation_id, sender_id, body, event, created_at, hidden_at
    ),
    u as (update conversations set ${movedByMessage(senderId)} from m where conversations.id = m.conversation_id)
    select ${returnedMessage} from m`.execute(trx);
  const row = rows[0];
  if (!row) throw new Error(`conversation ${conversation.id} vanished while a message was added`);
  return toMessage({ ...row, id: Number(row.id) });
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
 * One statement: it finds the conversation among the reader's (as conversationOf does), locks it,
 * looks for a block either way, and only when there is none inserts the message and moves the
 * conversation (as appendMessage does). A statement is its own transaction, so this is one round
 * trip to the database instead of eight (begin, the conversation, two blocks, the lock, the
 * insert, the update, commit): on the embedded store, which does one thing at a time, that is
 * what bounds how many messages a second a server takes.
 */
export async function sendMessage(
  db: Kysely<DB>,
  reader: Reader,
  conversationId: string,
  text: string,
  requireTwoFactor: boolean,
) {
  const me = sql`${reader.id}::text`;
  const other = sql`case when c.student_id = ${me} then c.tutor_id else c.student_id end`;
  const blockedBy = (blocker: ReturnType<typeof sql>, blocked: ReturnType<typeof sql>) =>
    sql`c.requester_id is null and exists (select 1 from blocks b where b.blocker_id = ${blocker} and b.blocked_id = ${blocked})`;
  const { rows } = await sql<
    Parties & { blocked_me: boolean; i_blocked: boolean } & {
      [K in keyof ReturnedMessage as `m_${K}`]: ReturnedMessage[K] | null;
    }
  >`
    with c as (
      select id, student_id, tutor_id, requester_id from conversations
      where id = ${conversationId}
        and (student_id = ${me} or tutor_id = ${me} or requester_id = ${me}
             ${reader.isAdmin ? sql`or requester_id is not null` : sql``})
      for update
    ),
    checked as (
      select c.*, ${blockedBy(other, me)} as blocked_me, ${blockedBy(me, other)} as i_blocked from c
    ),
    m as (
      insert into messages (conversation_id, sender_id, body)
      select id, ${me}, ${text} from checked where not blocked_me and not i_blocked
      returning id, conversation_id, sender_id, body, event, created_at, hidden_at
    ),
    u as (update conversations set ${movedByMessage(reader.id)} from m where conversations.id = m.conversation_id)
    select checked.*, m.id as m_id, m.conversation_id as m_conversation_id, m.sender_id as m_sender_id,
           m.body as m_body, m.event as m_event, m.created_at as m_created_at, m.hidden_at as m_hidden_at
    from checked left join m on true`.execute(db);
  const row = rows[0];
  if (!row || !sideOf(row, reader)) throw new ApiError(404, messageMessages.notFound, 'NOT_FOUND');
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
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The pair's conversation, made when it does not exist yet (safe when two requests race: the
 * unique pair decides); `created` says whether this call made it.
 */
async function conversationFor(trx: Transaction<DB>, studentId: string, tutorId: string) {
  const find = () =>
    trx
      .selectFrom('conversations')
      .selectAll()
      .where('student_id', '=', studentId)
      .where('tutor_id', '=', tutorId)
      .executeTakeFirst();
  // Most pairs have theirs already: one read. A first one is made, and should another request
  // make it at the same moment, the unique pair keeps one and both continue it.
  const existing = await find();
  if (existing) return { ...existing, created: false };
  const inserted = await trx
    .insertInto('conversations')
    .values({ id: randomUUID(), student_id: studentId, tutor_id: tutorId })
    .onConflict((oc) => oc.columns(['student_id', 'tutor_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return { ...inserted, created: true };
  const raced = await find();
  if (!raced) throw new Error('a conversation made at the same moment is not there');
  return { ...raced, created: false };
}

/**
 * Opens (or continues) the conversation of a student and a tutor with a first message. A student
 * may write to any listed tutor (../tutors/tutor-listing.ts); a tutor only to a student who has
 * booked them. Once open, the conversation goes on through sendMessage, listed or not: a tutor
 * who leaves the listing still answers the students they already talk to.
 */
export async function startConversation(
  db: Kysely<DB>,
  user: { id: string; role: 'student' | 'tutor' },
  otherId: string,
  text: string,
  listing: Listing,
) {
  return db.transaction().execute(async (trx) => {
    let studentId: string;
    let tutorId: string;
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
      studentId = otherId;
      tutorId = user.id;
    }
    await refuseBlocked(trx, user.id, otherId);
    const conversation = await conversationFor(trx, studentId, tutorId);
    const message = await appendMessage(trx, conversation, user.id, text);
    return { id: conversation.id, created: conversation.created, message, recipients: [studentId, tutorId] };
  });
}

/**
 * Marks everything in the conversation read for the reader's side (for an admin: for all of
 * support), and lets the next unread message be mailed.
 */
export async function markRead(db: Kysely<DB>, reader: Reader, conversationId: string) {
  const { me, row } = await conversationOf(db, reader, conversationId);
  const read = (side: Side) => sql<number>`greatest(${sql.ref(`${side}_read_id`)}, last_message_id)`;
  // One statement, and never backwards: a message sent meanwhile is either read here or stays unread.
  await db
    .updateTable('conversations')
    .set(
      me === 'student'
        ? { student_read_id: read(me), student_mailed: false }
        : me === 'tutor'
          ? { tutor_read_id: read(me), tutor_mailed: false }
          : me === 'requester'
            ? { requester_read_id: read(me), requester_mailed: false }
            : { support_read_id: read(me), support_mailed: false },
    )
    .where('id', '=', conversationId)
    .execute();
  return { unreadTotal: await unreadTotal(db, reader), me, requesterId: row.requester_id };
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
 * Keeps a report of a message the reader can read, with a copy of its text, for moderation. In a
 * support conversation only support's side reports, and only what the person wrote: it puts abuse
 * of support into the moderation queue like any other. The person does not report support's
 * answers to the very admins who wrote them; they write to the school's address instead.
 */
export async function reportMessage(db: Kysely<DB>, reader: Reader, messageId: number, reason: string) {
  const userId = reader.id;
  const message = await db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .select(['m.id', 'm.body', 'm.sender_id'])
    .where('m.id', '=', messageId)
    .where((eb) =>
      eb.or([
        eb('c.student_id', '=', userId),
        eb('c.tutor_id', '=', userId),
        ...(reader.isAdmin
          ? [eb.and([eb('c.requester_id', '<>', userId), eb('m.sender_id', '=', eb.ref('c.requester_id'))])]
          : []),
      ]),
    )
    .executeTakeFirst();
  // Only a message someone else wrote can be reported; anything else is no message of theirs.
  if (!message || message.sender_id === null || message.sender_id === userId)
    throw new ApiError(404, messageMessages.messageNotFound, 'NOT_FOUND');
  // One open report per reporter and message, kept by a unique index: a second one while the
  // first waits for a moderator is the same report (the first reason stands), however many race.
  // Should the open one be settled between the insert and the look, it reports anew (a moderator
  // settling the same report three times over within milliseconds is no person's doing).
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const made = await db
      .insertInto('message_reports')
      .values({ message_id: messageId, reporter_id: userId, reason, message_text: message.body })
      .onConflict((oc) =>
        oc.columns(['message_id', 'reporter_id']).where('resolved_at', 'is', null).doNothing(),
      )
      .returning('id')
      .executeTakeFirst();
    if (made) return { id: Number(made.id), created: true };
    const open = await db
      .selectFrom('message_reports')
      .select('id')
      .where('message_id', '=', messageId)
      .where('reporter_id', '=', userId)
      .where('resolved_at', 'is', null)
      .executeTakeFirst();
    if (open) return { id: Number(open.id), created: false };
  }
  throw new Error('a report of this message was settled each time it was looked for');
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
