/**
 * A person deletes their own account. Everything the database holds of them changes in one
 * transaction: their sessions end (cached copies too, once it commits), their upcoming lessons
 * are called off for the other person (holds given back), what others still see of them reads
 * "Deleted user" and "Message deleted", where they are named in words (the audit log, the mail
 * outbox) they read "Deleted user" too, and what is theirs alone is erased. What the school must
 * keep (the ledger, receipts, top-ups) stays, tied to a users row that no longer holds a name or
 * an address. docs/security.md, "A person's own data", lists each table's fate.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import { accountDataMessages, DELETED_USER_NAME } from '../../shared/account-data';
import { closeClassesOf } from '../classes/class-changes';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { type LessonDeps, type Lines, pushLines } from '../lessons/lesson-announcements';
import { cancelLessonsOfSuspended } from '../lessons/suspension';
import type { LiveHub } from '../messages/live';
import { accounts, balanceOf } from '../money/ledger';
import { refuseWhileMoneyLeft } from '../money/money-left';
import { recordAudit } from '../platform/audit-log';
import type { RateLimiters } from '../rate-limit/rate-limits';
import { recount } from '../reviews/reviews';
import { eraseFromAuditLog, eraseFromOutbox } from './erase-mentions';

export interface AccountDeletionDeps {
  db: Kysely<DB>;
  lessons: LessonDeps;
  live: Pick<LiveHub, 'sessionEnded' | 'accountEnded'>;
  limiters: Pick<RateLimiters, 'forgetKeysHolding'>;
  /** Checks a password against a stored hash (argon2id, as Better Auth stores it). */
  verifyPassword(data: { hash: string; password: string }): Promise<boolean>;
}

/** An email column's stand-in for a deleted account: unique, and no address anyone can receive. */
const placeholderEmail = () => `deleted-${randomUUID()}`;

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

/** Their reviews (written, and on their own page) go; each tutor they reviewed is recounted. */
async function eraseReviews(trx: Transaction<DB>, userId: string) {
  const written = await trx
    .deleteFrom('reviews')
    .where('student_id', '=', userId)
    .returning('tutor_id')
    .execute();
  await trx.deleteFrom('reviews').where('tutor_id', '=', userId).execute();
  const tutorIds = [...new Set(written.map((row) => row.tutor_id))].sort();
  for (const tutorId of tutorIds) {
    await trx
      .selectFrom('tutor_profiles')
      .select('user_id')
      .where('user_id', '=', tutorId)
      .forUpdate()
      .execute();
    await recount(trx, tutorId);
  }
}

/** What they wrote to others stays a marked gap; what nobody else reads goes. */
async function eraseWriting(trx: Transaction<DB>, userId: string, now: Date) {
  // Their support conversation has nobody left to answer.
  await trx.deleteFrom('conversations').where('requester_id', '=', userId).execute();
  const theirMessages = trx.selectFrom('messages').select('id').where('sender_id', '=', userId);
  // A report quotes the reported text; reports they made give their reasons.
  await trx.deleteFrom('message_reports').where('message_id', 'in', theirMessages).execute();
  await trx.deleteFrom('message_reports').where('reporter_id', '=', userId).execute();
  await trx.deleteFrom('review_reports').where('reporter_id', '=', userId).execute();
  await trx
    .updateTable('messages')
    .set({ body: '', erased_at: now })
    .where('sender_id', '=', userId)
    .where('erased_at', 'is', null)
    .execute();
  await trx.deleteFrom('lesson_chat').where('sender_id', '=', userId).execute();
  // Lesson notes are written by the lesson's tutor.
  await trx
    .deleteFrom('lesson_notes')
    .where('lesson_id', 'in', trx.selectFrom('lessons').select('id').where('tutor_id', '=', userId))
    .execute();
  // The words they left on lessons: a booking's note, a proposal's, a cancellation's reason.
  await trx.updateTable('lessons').set({ note: '' }).where('student_id', '=', userId).execute();
  await trx
    .updateTable('lessons')
    .set({ proposed_start: null, proposed_end: null, proposal_note: null, proposed_at: null })
    .where('tutor_id', '=', userId)
    .execute();
  await trx.updateTable('lessons').set({ cancel_reason: null }).where('cancelled_by', '=', userId).execute();
  await trx.deleteFrom('goals').where('student_id', '=', userId).execute();
}

/** Their profile and everything that lets anyone sign in as them or reach them. */
async function eraseAccount(trx: Transaction<DB>, userId: string, email: string) {
  for (const table of [
    'accounts',
    'email_verification_tokens',
    'calendar_feeds',
    'profile_photos',
    'tutor_availability',
    'tutor_profiles',
  ] as const)
    await trx.deleteFrom(table).where('user_id', '=', userId).execute();
  await trx.deleteFrom('tutor_verifications').where('tutor_id', '=', userId).execute();
  await trx
    .deleteFrom('blocks')
    .where((eb) => eb.or([eb('blocker_id', '=', userId), eb('blocked_id', '=', userId)]))
    .execute();
  await trx
    .deleteFrom('verifications')
    .where((eb) =>
      eb.or([
        eb('value', '=', userId),
        sql<boolean>`strpos(lower(identifier || ' ' || value), ${email}) > 0`,
      ]),
    )
    .execute();
  await trx
    .deleteFrom('contact_messages')
    .where((eb) => eb.or([eb('user_id', '=', userId), sql<boolean>`lower(email) = ${email}`]))
    .execute();
}

/** Counters keyed by their address. */
async function eraseCounters(trx: Transaction<DB>, email: string) {
  await trx.deleteFrom('rate_limits').where(sql<boolean>`strpos(lower(key), ${email}) > 0`).execute();
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
  const now = new Date(nowMs);
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
    // Renamed first, so the mails and lines about their lessons already say "Deleted user".
    await trx
      .updateTable('users')
      .set({
        display_name: DELETED_USER_NAME,
        email: placeholder,
        email_verified: false,
        image: null,
        learning_goals: '',
        time_zone: null,
        message_mails: false,
        reminder_day_before: false,
        reminder_hour_before: false,
        suspension_reason: null,
        deleted_at: now,
        updated_at: now,
      })
      .where('id', '=', userId)
      .execute();
    await closeClassesOf(deps.lessons, trx, userId, nowMs);
    await cancelLessonsOfSuspended(deps.lessons, trx, userId, nowMs, lines, 'deleted');
    await eraseReviews(trx, userId);
    await eraseWriting(trx, userId, now);
    await eraseAccount(trx, userId, email);
    const named = { id: userId, email, name: user.display_name };
    await eraseFromOutbox(trx, named, placeholder);
    await eraseFromAuditLog(trx, named);
    await eraseCounters(trx, email);
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
