/**
 * What deleting an account erases, in the deleting transaction: the users row emptied to "Deleted
 * user", their classes and upcoming lessons closed, their writing, reviews, sign-in and counters
 * gone, and their name and address taken out of the outbox and the audit log. A person's own
 * deletion (./account-deletion.ts) runs it after the checks; so does the end of a family link for
 * a child without a login (./family-unlink.ts), who has no account of their own to delete
 * and nobody left to act for them. docs/security.md, "A person's own data", lists each table's fate.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import { DELETED_USER_NAME } from '../../shared/account-data';
import { closeClassesOf } from '../classes/class-changes';
import type { DB } from '../db/schema';
import type { LessonDeps, Lines } from '../lessons/lesson-announcements';
import { cancelLessonsOfSuspended } from '../lessons/suspension';
import { recount } from '../reviews/reviews';
import { eraseFromAuditLog, eraseFromOutbox, type NamedPerson } from './erase-mentions';

/** An email column's stand-in for a deleted account: unique, and no address anyone can receive. */
export const placeholderEmail = () => `deleted-${randomUUID()}`;

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
  // Invitations they sent or were sent in a family: each holds an address, and none can be used now.
  await trx
    .deleteFrom('family_invitations')
    .where((eb) => eb.or([eb('parent_id', '=', userId), eb('student_id', '=', userId)]))
    .execute();
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
 * The users row emptied and marked deleted, then their classes and upcoming lessons closed as a
 * deleted account's are. Renamed first, so the mails and lines about their lessons already say
 * "Deleted user".
 */
export async function closeAccountIn(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lines: Lines,
  userId: string,
  placeholder: string,
  now: number,
) {
  await trx
    .updateTable('users')
    .set({
      display_name: DELETED_USER_NAME,
      email: placeholder,
      email_verified: false,
      image: null,
      learning_goals: '',
      time_zone: null,
      birth_year: null,
      message_mails: false,
      reminder_day_before: false,
      reminder_hour_before: false,
      suspension_reason: null,
      deleted_at: new Date(now),
      updated_at: new Date(now),
    })
    .where('id', '=', userId)
    .execute();
  await closeClassesOf(deps, trx, userId, now);
  await cancelLessonsOfSuspended(deps, trx, userId, now, lines, 'deleted');
}

/**
 * Everything else of theirs: reviews, writing, sign-in, the outbox and the audit log's words, the
 * counters keyed by their address. `person` is as they were named before `closeAccountIn`.
 * `namedOnlyTo` keeps the outbox's name matching to the mails to those addresses: a child is named
 * by a first name alone, which mails about other people may hold too.
 */
export async function eraseTracesIn(
  trx: Transaction<DB>,
  person: NamedPerson,
  placeholder: string,
  now: number,
  namedOnlyTo?: string[],
) {
  await eraseReviews(trx, person.id);
  await eraseWriting(trx, person.id, new Date(now));
  await eraseAccount(trx, person.id, person.email);
  await eraseFromOutbox(trx, person, placeholder, namedOnlyTo);
  await eraseFromAuditLog(trx, person);
  await eraseCounters(trx, person.email);
}
