/**
 * Reports of messages, kept for moderation with a copy of what the message said.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { messageMessages } from './conversations';
import type { Reader } from './support';

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
        // A class's members report what the others wrote there, as a pair does.
        eb.exists(
          eb
            .selectFrom('conversation_members as cm')
            .select('cm.user_id')
            .whereRef('cm.conversation_id', '=', 'c.id')
            .where('cm.user_id', '=', userId)
            .where('cm.left_at', 'is', null),
        ),
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
