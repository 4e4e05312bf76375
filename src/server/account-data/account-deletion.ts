/**
 * A person deletes their own account. Everything the database holds of them changes in one
 * transaction: their sessions end (cached copies too, once it commits), their upcoming lessons
 * are called off for the other person (holds given back), their family links end (a parent's
 * children without a login erased with them), what others still see of them reads
 * "Deleted user" and "Message deleted", where they are named in words (the audit log, the mail
 * outbox) they read "Deleted user" too, and what is theirs alone is erased. What the school must
 * keep (the ledger, receipts, top-ups) stays, tied to a users row that no longer holds a name or
 * an address. docs/security.md, "A person's own data", lists each table's fate.
 */
import type { Kysely, Transaction } from 'kysely';
import { accountDataMessages, DELETED_USER_NAME } from '../../shared/account-data';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { type LessonDeps, type Lines, pushLines } from '../lessons/lesson-announcements';
import type { LiveHub } from '../messages/live';
import { accounts, balanceOf } from '../money/ledger';
import { refuseWhileMoneyLeft } from '../money/money-left';
import { recordAudit } from '../platform/audit-log';
import type { RateLimiters } from '../rate-limit/rate-limits';
import { closeAccountIn, eraseTracesIn, placeholderEmail } from './account-erasure';
import { endFamilyOf } from './family-unlink';

export interface AccountDeletionDeps {
  db: Kysely<DB>;
  lessons: LessonDeps;
  live: Pick<LiveHub, 'sessionEnded' | 'accountEnded'>;
  limiters: Pick<RateLimiters, 'forgetKeysHolding'>;
  /** Checks a password against a stored hash (argon2id, as Better Auth stores it). */
  verifyPassword(data: { hash: string; password: string }): Promise<boolean>;
}

/**
 * A ledger account's balance, read with its row locked so no booking or top-up moves it until
 * the deletion commits. An account that was never opened holds nothing (and is not opened here).
 */
async function lockedBalance(trx: Transaction<DB>, accountId: string): Promise<number> {
  const row = await trx
    .selectFrom('ledger_accounts')
    .select('id')
    .where('id', '=', accountId)
    .forUpdate()
    .executeTakeFirst();
  return row ? balanceOf(trx, accountId) : 0;
}

/** Refuses, in words the person can act on, an account that cannot be deleted yet. */
async function refuseWhatMustBeSettled(
  trx: Transaction<DB>,
  userId: string,
  isAdmin: boolean,
  currency: string,
) {
  if (isAdmin) throw new ApiError(409, accountDataMessages.revokeAdminFirst, 'REVOKE_ADMIN_FIRST');
  if ((await lockedBalance(trx, accounts.payable(userId).id)) > 0)
    throw new ApiError(409, accountDataMessages.payoutFirst, 'PAYOUT_FIRST');
  // Any money of theirs, held for upcoming lessons and in packages too: released by calling those
  // lessons off, it would land on an account nobody can sign in to claim it (docs/decisions/0025).
  await refuseWhileMoneyLeft(trx, userId, currency);
}

/**
 * Deletes the signed-in person's account once their password is confirmed. Refused with 403 for a
 * wrong password, 409 for an admin, a tutor still owed money or anyone with money left anywhere:
 * their balance, lessons' holds, packages or top-ups waiting.
 */
export async function deleteAccount(deps: AccountDeletionDeps, userId: string, password: string) {
  const credential = await deps.db
    .selectFrom('accounts')
    .select('password')
    .where('user_id', '=', userId)
    .where('provider_id', '=', 'credential')
    .executeTakeFirst();
  // The hash is checked before the transaction: it takes a while, and holds no lock meanwhile.
  const right = credential?.password
    ? await deps.verifyPassword({ hash: credential.password, password })
    : false;
  if (!right) throw new ApiError(403, accountDataMessages.wrongPassword, 'WRONG_PASSWORD');

  const lines: Lines = [];
  const nowMs = Date.now();
  const placeholder = placeholderEmail();
  const { tokens, email } = await deps.db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select(['email', 'display_name', 'is_admin'])
      .where('id', '=', userId)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
    if (!user) throw new ApiError(401, accountDataMessages.wrongPassword, 'UNAUTHORIZED');
    await refuseWhatMustBeSettled(trx, userId, user.is_admin, deps.lessons.payments.currency);
    const email = user.email.toLowerCase();
    const ended = await trx.deleteFrom('sessions').where('user_id', '=', userId).returning('token').execute();
    await closeAccountIn(deps.lessons, trx, lines, userId, placeholder, nowMs);
    // A parent's children are let go, and a student's own link ends (their parent's packages for
    // them given back); before their sign-in is erased, as a link to a child without one ends in
    // that child's erasure.
    await endFamilyOf(deps.lessons, trx, lines, userId, nowMs);
    await eraseTracesIn(trx, { id: userId, email, name: user.display_name }, placeholder, nowMs);
    await recordAudit(trx, { id: userId, label: DELETED_USER_NAME }, 'account.deleted', {
      id: userId,
      label: DELETED_USER_NAME,
    });
    return { tokens: ended.map((row) => row.token), email };
  });
  // First: from now on no server believes a cached copy of their sessions.
  await deps.live.accountEnded(userId);
  deps.lessons.mailer.deliverSoon();
  // Their open tabs lose their live channel, as after a sign-out.
  for (const token of tokens) await deps.live.sessionEnded(token);
  await pushLines(deps.lessons, lines);
  // Counters kept in this process's memory are outside the transaction.
  await deps.limiters.forgetKeysHolding(email);
}
