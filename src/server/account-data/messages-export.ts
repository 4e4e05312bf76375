/**
 * A person's conversations for their data export (./account-export.ts): every conversation they
 * are in, each with its messages, sent and received, as they saw them (a hidden or deleted
 * message as its notice, never its text).
 */
import type { Kysely } from 'kysely';
import { DELETED_MESSAGE_TEXT } from '../../shared/account-data';
import { HIDDEN_MESSAGE_TEXT } from '../../shared/admin/admin-rules';
import type { DB } from '../db/schema';

export async function messagesOf(db: Kysely<DB>, userId: string) {
  const conversations = await db
    .selectFrom('conversations as c')
    .leftJoin('users as o', (join) =>
      join.on((eb) =>
        eb(
          'o.id',
          '=',
          eb
            .case()
            .when('c.student_id', '=', userId)
            .then(eb.ref('c.tutor_id'))
            .when('c.tutor_id', '=', userId)
            .then(eb.ref('c.student_id'))
            .else(null)
            .end(),
        ),
      ),
    )
    // A class's group, for its members and former members (these keep only what they wrote).
    .leftJoin('classes as k', 'k.id', 'c.class_id')
    .leftJoin('conversation_members as cm', (join) =>
      join.onRef('cm.conversation_id', '=', 'c.id').on('cm.user_id', '=', userId),
    )
    .select(['c.id', 'c.requester_id', 'o.id as otherId', 'o.display_name as otherName', 'c.created_at'])
    .select(['k.title as classTitle', 'cm.user_id as memberId', 'cm.left_at as leftAt'])
    .where((eb) =>
      eb.or([
        eb('c.student_id', '=', userId),
        eb('c.tutor_id', '=', userId),
        eb('c.requester_id', '=', userId),
        eb('cm.user_id', '=', userId),
      ]),
    )
    .orderBy('c.created_at')
    .execute();
  const ids = conversations.map((c) => c.id);
  const rows = ids.length
    ? await db
        .selectFrom('messages as m')
        .leftJoin('users as s', 's.id', 'm.sender_id')
        .select([
          'm.id',
          'm.conversation_id',
          'm.sender_id',
          'm.body',
          'm.event',
          'm.created_at',
          'm.hidden_at',
          'm.erased_at',
          's.display_name as senderName',
        ])
        .where('m.conversation_id', 'in', ids)
        .orderBy('m.id')
        .execute()
    : [];
  const lessonChat = await db
    .selectFrom('lesson_chat')
    .select(['lesson_id as lessonId', 'body', 'created_at as sentAt'])
    .where('sender_id', '=', userId)
    .orderBy('id')
    .execute();
  return {
    conversations: conversations.map((c) => ({
      id: c.id,
      with:
        c.classTitle !== null
          ? { class: c.classTitle }
          : c.requester_id !== null
            ? 'Support'
            : { id: c.otherId, displayName: c.otherName },
      startedAt: c.created_at,
      messages: rows
        .filter((m) => m.conversation_id === c.id && (c.leftAt === null || m.sender_id === userId))
        .map((m) => ({
          id: Number(m.id),
          from: m.sender_id === userId ? 'me' : m.event ? 'Tutorlane' : 'them',
          // In a group, who of "them" wrote it, as the conversation showed it.
          ...(c.classTitle !== null && m.sender_id !== userId ? { fromName: m.senderName } : {}),
          // A moderator's removal of someone else's message keeps its words from them here too.
          text: m.erased_at
            ? DELETED_MESSAGE_TEXT
            : m.hidden_at && m.sender_id !== userId
              ? HIDDEN_MESSAGE_TEXT
              : m.body,
          hidden: m.hidden_at !== null,
          sentAt: m.created_at,
        })),
    })),
    lessonChatSent: lessonChat,
  };
}
