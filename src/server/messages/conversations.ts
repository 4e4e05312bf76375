/**
 * A conversation as its readers see it: between a student and a tutor, between a person and the
 * school's support (support.ts), or a group class's (class-conversations.ts: its tutor and the
 * students enrolled now). What a message and an inbox line look like, which side a reader is on,
 * who may read a conversation (its two sides, or a class's members; anyone else finds nothing)
 * and who hears of its messages. Sending is in ./messages.ts, the inbox in ./inbox.ts.
 *
 * Families (migration 0039): a tutor writes to a child's paying parent, in a pair whose student
 * side is the parent and whose `about_student_id` is the child. A linked student's own
 * conversations with their tutors are also read by that parent, who may not write in them: the
 * parent is then on the 'parent' side, which reads and marks nothing of its own.
 */
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { DELETED_MESSAGE_TEXT } from '../../shared/account-data';
import { HIDDEN_MESSAGE_TEXT } from '../../shared/admin/admin-rules';
import { SUPPORT_ID, SUPPORT_NAME } from '../../shared/constants';
import type { ConversationsTable, DB, MessageEvent, MessagesTable } from '../db/schema';
import { ApiError } from '../http/api-error';
import { adminIds, type Reader } from './support';

export const messageMessages = {
  notFound: /*i18n*/ 'This conversation does not exist',
  messageNotFound: /*i18n*/ 'This message does not exist',
  refused: /*i18n*/ 'This message could not be sent.',
  noColdOutreach: /*i18n*/ 'You can write to a student once they have booked a lesson with you.',
  tutorNotFound: /*i18n*/ 'This tutor profile does not exist or is not public',
  notYourself: /*i18n*/ 'You cannot block yourself',
  youBlocked: /*i18n*/ 'You blocked this person. Unblock them to write to them.',
  tooFast: /*i18n*/ 'You are sending messages too quickly: at most 30 a minute. Please wait a moment.',
  tooManyReports: /*i18n*/ 'You have sent many reports: at most 20 an hour. Please try again later.',
  tooManyConversations:
    /*i18n*/ 'You can start at most 10 new conversations a day. Please try again tomorrow.',
  userNotFound: /*i18n*/ 'There is no such person',
  childNotReachable:
    /*i18n*/ 'You cannot write to a child under 13 or without a login of their own: write to their parent.',
  parentReadOnly:
    /*i18n*/ "You can read your child's conversations with their tutors, but not write in them.",
  parentStartsNone:
    /*i18n*/ 'A tutor opens the conversation about your child: you answer it from your messages.',
} as const;

export type Db = Kysely<DB> | Transaction<DB>;
type ConversationRow = Selectable<ConversationsTable>;
export type Parties = Pick<
  ConversationRow,
  'id' | 'student_id' | 'tutor_id' | 'requester_id' | 'class_id'
> & {
  /** For a class conversation: whether the reader is one of its members now. */
  is_member?: boolean | null;
  /** For a pair: the child it is about, when its student side is that child's parent. */
  about_student_id?: string | null;
  /** For a plain pair: whether the reader is the paying parent of its student, who only reads it. */
  parent_reads?: boolean | null;
};

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
  role: 'student' | 'tutor' | 'parent' | 'support';
  photoVersion: string | null;
}

/** The class a group conversation belongs to; its title is the class's. */
export interface ClassRef {
  id: string;
  title: string;
}

/** A child as a conversation names them to a tutor or a parent: their first name, nothing else. */
export interface ChildRef {
  id: string;
  firstName: string;
}

/** What a conversation says of a family, for its readers (all empty for anyone else's). */
export interface FamilyFacts {
  /** A tutor's conversation with a parent: the child it is about. */
  about: ChildRef | null;
  /** Read by a parent in their child's conversation: the child whose it is. */
  child: ChildRef | null;
  /** The reader may read but not write (a parent in their child's conversation). */
  readOnly: boolean;
  /** The student's paying parent reads this conversation too: both sides are told so. */
  parentCanRead: boolean;
}

export const NO_FAMILY: FamilyFacts = { about: null, child: null, readOnly: false, parentCanRead: false };

export interface ConversationSummary extends FamilyFacts {
  id: string;
  /** A conversation with the school's support rather than between a student and a tutor. */
  support: boolean;
  /** A group class's conversation: the class. Null for any other. */
  class: ClassRef | null;
  /** Null in a class conversation, which has members rather than another side. */
  other: OtherSide | null;
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

export const messageColumns = [
  'id',
  'conversation_id',
  'sender_id',
  'body',
  'event',
  'created_at',
  'hidden_at',
  'erased_at',
] as const;

/**
 * The side a reader is on: one of a pair, the person who asked support, support (an admin), or a
 * member of a class's group.
 */
export type Side = 'student' | 'tutor' | 'requester' | 'support' | 'member' | 'parent';

/**
 * The reader's side in a conversation row and the other side's person (null: Support, or a
 * class's group), or null when it is not theirs. The person who asked is on their own side even
 * when they are an admin. A class conversation is read by its members now, and by nobody else:
 * not an admin, whose moderation goes through reports. A student's paying parent reads the
 * student's pair from the 'parent' side, the tutor being the other side they see.
 */
export function sideOf(row: Parties, reader: Reader): { me: Side; otherId: string | null } | null {
  if (row.class_id !== null) return row.is_member ? { me: 'member', otherId: null } : null;
  if (row.requester_id !== null) {
    if (row.requester_id === reader.id) return { me: 'requester', otherId: null };
    return reader.isAdmin ? { me: 'support', otherId: row.requester_id } : null;
  }
  if (row.student_id === reader.id) return { me: 'student', otherId: row.tutor_id };
  if (row.tutor_id === reader.id) return { me: 'tutor', otherId: row.student_id };
  if (row.parent_reads && !row.about_student_id) return { me: 'parent', otherId: row.tutor_id };
  return null;
}

/**
 * Whether `userId` is the paying parent of a plain pair's student, as a condition on
 * `conversations`: they read it, never write in it.
 */
export const parentReadsNow = (userId: string) =>
  sql<boolean>`(conversations.about_student_id is null and conversations.requester_id is null
    and conversations.class_id is null and exists (select 1 from family_links fl
      where fl.student_id = conversations.student_id and fl.parent_id = ${userId}))`;

/**
 * What a pair says of a family to the reader: the child it is about (a parent's conversation), the
 * child whose conversation a parent reads, and whether a parent reads it. Nothing for a class's or
 * support's conversation. Names only: a child's year of birth or address is never in it.
 */
export async function familyFactsOf(db: Db, row: Parties, me: Side): Promise<FamilyFacts> {
  if (row.class_id !== null || row.requester_id !== null || row.student_id === null) return NO_FAMILY;
  const childId = row.about_student_id ?? (me === 'parent' ? row.student_id : null);
  const [child, linked] = await Promise.all([
    childId === null
      ? undefined
      : db.selectFrom('users').select(['id', 'display_name']).where('id', '=', childId).executeTakeFirst(),
    row.about_student_id
      ? undefined
      : db
          .selectFrom('family_links')
          .select('parent_id')
          .where('student_id', '=', row.student_id)
          .executeTakeFirst(),
  ]);
  const ref = child ? { id: child.id, firstName: child.display_name } : null;
  return {
    about: row.about_student_id ? ref : null,
    child: me === 'parent' ? ref : null,
    readOnly: me === 'parent',
    parentCanRead: Boolean(linked),
  };
}

/** Whether `userId` is one of a class conversation's members now, as a condition on `conversations`. */
export const memberNow = (userId: string) =>
  sql<boolean>`exists (select 1 from conversation_members cm
    where cm.conversation_id = conversations.id and cm.user_id = ${userId} and cm.left_at is null)`;

/**
 * A conversation of the reader's (every support conversation, for an admin; a class's while they
 * are in it; a linked child's pair, for their paying parent), or 404 for anyone else.
 */
export async function conversationOf(db: Db, reader: Reader, id: string) {
  const row = await db
    .selectFrom('conversations')
    .selectAll()
    .select(memberNow(reader.id).as('is_member'))
    .select(parentReadsNow(reader.id).as('parent_reads'))
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('student_id', '=', reader.id),
        eb('tutor_id', '=', reader.id),
        eb('requester_id', '=', reader.id),
        ...(reader.isAdmin ? [eb('requester_id', 'is not', null)] : []),
        memberNow(reader.id),
        parentReadsNow(reader.id),
      ]),
    )
    .executeTakeFirst();
  const side = row && sideOf(row, reader);
  if (!row || !side) throw new ApiError(404, messageMessages.notFound, 'NOT_FOUND');
  return { row, ...side };
}

/** A class conversation's members now: the tutor and the students enrolled. */
export async function memberIds(db: Db, conversationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('conversation_members')
    .select('user_id')
    .where('conversation_id', '=', conversationId)
    .where('left_at', 'is', null)
    .execute();
  return rows.map((row) => row.user_id);
}

/**
 * Who hears of a conversation's messages: its pair, a class's members now, or the person who
 * asked and everyone who answers support now (`requireTwoFactor`: ADMIN_TWO_FACTOR is required).
 */
export async function audienceOf(db: Db, row: Parties, requireTwoFactor: boolean) {
  if (row.class_id !== null) return { recipients: await memberIds(db, row.id), requesterId: null };
  if (row.requester_id === null)
    return { recipients: [row.student_id, row.tutor_id].filter((id) => id !== null), requesterId: null };
  return {
    recipients: [...new Set([row.requester_id, ...(await adminIds(db, requireTwoFactor))])],
    requesterId: row.requester_id,
  };
}
