/**
 * Conversations with the school's support: each person (a student or a tutor) has at most one,
 * and every admin answers it as "Support" (with two-factor on, where the school requires it for
 * admins). The person never learns which admin answered: what reaches them names `SUPPORT_ID`
 * as the sender. Blocks, reports, lesson lines and next lessons are about two people, so none of
 * them applies here.
 */
import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder, Kysely, Transaction } from 'kysely';
import { SUPPORT_ID } from '../../shared/constants';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import type { MessageView } from './conversations';

export const supportMessages = {
  adminIsSupport:
    /*i18n*/ 'You are on the support team: conversations with Support are in your messages, under each person’s name.',
} as const;

type Db = Kysely<DB> | Transaction<DB>;

/**
 * Who reads a conversation. `isAdmin` says whether they answer support for this request (see
 * `answersSupport`), not merely whether they hold the role.
 */
export interface Reader {
  id: string;
  isAdmin: boolean;
}

/**
 * Support conversations are read and answered by the school's admins; where ADMIN_TWO_FACTOR is
 * required, only by those who sign in with a second factor, in a session that proved it
 * (`secondFactorProved`). People write to support what they would tell no one else, so an admin
 * the console refuses is refused their conversations too.
 */
export function answersSupport(
  user: { isAdmin: boolean; twoFactorEnabled: boolean },
  requireTwoFactor: boolean,
  secondFactorProved: boolean,
): boolean {
  return user.isAdmin && (!requireTwoFactor || (user.twoFactorEnabled && secondFactorProved));
}

/** A signed-in person, in a session that proved a second factor or not, as a reader of conversations. */
export const readerOf = (
  user: { id: string; isAdmin: boolean; twoFactorEnabled: boolean },
  requireTwoFactor: boolean,
  secondFactorProved: boolean,
): Reader => ({ id: user.id, isAdmin: answersSupport(user, requireTwoFactor, secondFactorProved) });

/** `answersSupport` as a condition on the users table, for the queries that find support's people. */
export const answersSupportWhere = (requireTwoFactor: boolean) => (eb: ExpressionBuilder<DB, 'users'>) =>
  eb.and([eb('is_admin', '=', true), ...(requireTwoFactor ? [eb('two_factor_enabled', '=', true)] : [])]);

/** Everyone who answers support now (`answersSupport`, as the database holds it). */
export async function adminIds(db: Db, requireTwoFactor: boolean): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where(answersSupportWhere(requireTwoFactor))
    .execute();
  return rows.map((row) => row.id);
}

/**
 * A message as `readerId` sees it: the person who asked support sees every answer as from
 * Support; everyone else sees it as written.
 */
export function seenBy(readerId: string, message: MessageView, requesterId: string | null): MessageView {
  if (requesterId === null || readerId !== requesterId) return message;
  if (message.senderId === null || message.senderId === requesterId) return message;
  return { ...message, senderId: SUPPORT_ID };
}

/**
 * The person's support conversation, made on first use; `created` says whether this call made
 * it. Two requests at once make one: the unique requester decides. An admin is support, so opens
 * none; one they had before the role was given stays theirs.
 */
export async function openSupportConversation(db: Kysely<DB>, reader: Reader) {
  const existing = await db
    .selectFrom('conversations')
    .select('id')
    .where('requester_id', '=', reader.id)
    .executeTakeFirst();
  if (existing) return { id: existing.id, created: false };
  if (reader.isAdmin) throw new ApiError(409, supportMessages.adminIsSupport, 'IS_ADMIN');
  const inserted = await db
    .insertInto('conversations')
    .values({ id: randomUUID(), requester_id: reader.id })
    .onConflict((oc) => oc.column('requester_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, created: true };
  const row = await db
    .selectFrom('conversations')
    .select('id')
    .where('requester_id', '=', reader.id)
    .executeTakeFirstOrThrow();
  return { id: row.id, created: false };
}
