/**
 * A reader's inbox: their conversations (unread first, people they blocked left out; the groups
 * of the classes they are in now; for a parent, their linked children's conversations with tutors,
 * to read only), how many messages wait unread, a page of one conversation, and marking it read.
 */
import { type Kysely, sql } from 'kysely';
import { inboxOrder } from '../../shared/inbox-order';
import type { DB, MessageEvent } from '../db/schema';
import {
  type ConversationSummary,
  conversationOf,
  type Db,
  type MessageView,
  messageColumns,
  NO_FAMILY,
  type Side,
  SUPPORT_SIDE,
  toMessage,
} from './conversations';
import { type Reader, seenBy } from './support';

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
  const [pairs, support, classes, children] = await Promise.all([
    pairConversations(db, reader.id),
    supportConversations(db, reader),
    classConversations(db, reader.id),
    childrenConversations(db, reader.id),
  ]);
  return [...pairs, ...support, ...classes, ...children].sort(inboxOrder);
}

/**
 * A parent's linked children's conversations with their tutors, to read only: each names the
 * child and the tutor. The parent has no read mark of their own there, so none counts as unread.
 */
async function childrenConversations(db: Kysely<DB>, userId: string): Promise<ConversationSummary[]> {
  const { rows } = await sql<
    LastMessageColumns & {
      last_activity_at: Date;
      child_id: string;
      child_name: string;
      other_id: string;
      other_name: string;
      photo_version: string | null;
    }
  >`
    select c.id, c.last_activity_at, k.id as child_id, k.display_name as child_name,
           o.id as other_id, o.display_name as other_name, pp.version as photo_version,
           m.id as message_id, m.sender_id, m.body, m.event, m.created_at as message_created_at,
           m.hidden_at as message_hidden_at, m.erased_at as message_erased_at
    from family_links f
    join conversations c on c.student_id = f.student_id and c.about_student_id is null
    join users k on k.id = f.student_id
    join users o on o.id = c.tutor_id
    left join profile_photos pp on pp.user_id = o.id
    left join messages m on m.id = c.last_message_id
    where f.parent_id = ${userId}`.execute(db);
  return rows.map((row) => ({
    id: row.id,
    support: false,
    class: null,
    other: {
      id: row.other_id,
      displayName: row.other_name,
      role: 'tutor' as const,
      photoVersion: row.photo_version,
    },
    lastMessage: lastMessageOf(row),
    unread: 0,
    lastActivityAt: new Date(row.last_activity_at).toISOString(),
    about: null,
    child: { id: row.child_id, firstName: row.child_name },
    readOnly: true,
    parentCanRead: true,
  }));
}

/**
 * The conversations of the classes the reader is in now (as their tutor or an enrolled student).
 * Unread: what the others wrote after the reader's own read mark; a block changes nothing here.
 */
async function classConversations(db: Kysely<DB>, userId: string): Promise<ConversationSummary[]> {
  const { rows } = await sql<
    LastMessageColumns & { last_activity_at: Date; class_id: string; title: string; unread: number }
  >`
    select c.id, c.last_activity_at, k.id as class_id, k.title,
           m.id as message_id, m.sender_id, m.body, m.event, m.created_at as message_created_at,
           m.hidden_at as message_hidden_at, m.erased_at as message_erased_at,
           (select count(*)::int from messages u
             where u.conversation_id = c.id and u.sender_id <> ${userId} and u.id > cm.read_id) as unread
    from conversation_members cm
    join conversations c on c.id = cm.conversation_id
    join classes k on k.id = c.class_id
    left join messages m on m.id = c.last_message_id
    where cm.user_id = ${userId} and cm.left_at is null`.execute(db);
  return rows.map((row) => ({
    id: row.id,
    support: false,
    class: { id: row.class_id, title: row.title },
    other: null,
    lastMessage: lastMessageOf(row),
    unread: Number(row.unread),
    lastActivityAt: new Date(row.last_activity_at).toISOString(),
    ...NO_FAMILY,
  }));
}

/**
 * The reader's pairs. A pair about a child names the child (a tutor's conversation with a parent);
 * a plain pair says whether the student's paying parent reads it.
 */
async function pairConversations(db: Kysely<DB>, userId: string): Promise<ConversationSummary[]> {
  const { rows } = await sql<{
    id: string;
    last_activity_at: Date;
    other_id: string;
    other_name: string;
    other_role: 'student' | 'tutor' | 'parent';
    photo_version: string | null;
    about_id: string | null;
    about_name: string | null;
    parent_can_read: boolean;
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
           a.id as about_id, a.display_name as about_name,
           (c.about_student_id is null
             and exists (select 1 from family_links fl where fl.student_id = c.student_id)) as parent_can_read,
           m.id as message_id, m.sender_id, m.body, m.event, m.created_at as message_created_at,
           m.hidden_at as message_hidden_at, m.erased_at as message_erased_at,
           (select count(*)::int from messages u
             where u.conversation_id = c.id and u.sender_id = o.id
               and u.id > case when c.student_id = ${userId} then c.student_read_id else c.tutor_read_id end
           ) as unread
    from conversations c
    join users o on o.id = case when c.student_id = ${userId} then c.tutor_id else c.student_id end
    left join profile_photos pp on pp.user_id = o.id
    left join users a on a.id = c.about_student_id
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
    class: null,
    other: {
      id: row.other_id,
      displayName: row.other_name,
      role: row.other_role,
      photoVersion: row.other_role === 'tutor' ? row.photo_version : null,
    },
    lastMessage: lastMessageOf(row),
    unread: Number(row.unread),
    lastActivityAt: new Date(row.last_activity_at).toISOString(),
    about: row.about_id === null ? null : { id: row.about_id, firstName: row.about_name ?? '' },
    child: null,
    readOnly: false,
    parentCanRead: Boolean(row.parent_can_read),
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
      requester_role: 'student' | 'tutor' | 'parent';
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
      class: null,
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
      ...NO_FAMILY,
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
    ) + (select count(*)::int from conversation_members cm join messages m on m.conversation_id = cm.conversation_id
          where cm.user_id = ${userId} and cm.left_at is null and m.sender_id <> ${userId} and m.id > cm.read_id
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
 * Marks everything in the conversation read for the reader's side (for an admin: for all of
 * support), and lets the next unread message be mailed.
 */
export async function markRead(db: Kysely<DB>, reader: Reader, conversationId: string) {
  const { me, row } = await conversationOf(db, reader, conversationId);
  if (me === 'member') {
    // A class's members each keep their own mark, on their member row.
    await db
      .updateTable('conversation_members')
      .set({ read_id: sql<number>`greatest(read_id, ${row.last_message_id})`, mailed: false })
      .where('conversation_id', '=', conversationId)
      .where('user_id', '=', reader.id)
      .execute();
    return { unreadTotal: await unreadTotal(db, reader), me, requesterId: null };
  }
  // A parent reading their child's conversation moves no mark: the child's and the tutor's are theirs.
  if (me === 'parent') return { unreadTotal: await unreadTotal(db, reader), me, requesterId: null };
  const read = (side: Exclude<Side, 'member' | 'parent'>) =>
    sql<number>`greatest(${sql.ref(`${side}_read_id`)}, last_message_id)`;
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
