/**
 * Tutor verification: a tutor with a complete profile asks for review; an admin approves or
 * declines it with a note the tutor gets by mail. Each step is one conditional UPDATE, so two
 * admins deciding at once, or a tutor asking twice, leave exactly one outcome. An approval keeps
 * the rate and subjects it saw: a profile edited later keeps its badge, and admins see what
 * changed since.
 */
import type { Kysely, Transaction } from 'kysely';
import type { VerificationStatus } from '../../shared/admin/admin-rules';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { type DefaultLanguage, mailLanguage } from '../mail/mail-language';
import type { Mailer } from '../mail/mailer';
import { type Actor, accountTarget, recordAudit } from '../platform/audit-log';
import { verificationDecisionMail } from './admin-mail';

export const verificationMessages = {
  tutorsOnly: /*i18n*/ 'Only tutors ask for verification',
  incomplete:
    /*i18n*/ 'Please complete your profile first: verification reviews a profile that students can see.',
  alreadyRequested: /*i18n*/ 'You have already asked for review. An administrator will answer by mail.',
  alreadyApproved: /*i18n*/ 'Your profile is already verified.',
  notFound: /*i18n*/ 'There is no such tutor',
  notRequested: /*i18n*/ 'This tutor has not asked for review.',
} as const;

export interface VerificationState {
  status: VerificationStatus;
  requestedAt: string | null;
  approvedAt: string | null;
  /** The latest decision's note, for the tutor to read. */
  lastNote: string | null;
}

export async function verificationState(db: Kysely<DB>, tutorId: string): Promise<VerificationState> {
  const [profile, last] = await Promise.all([
    db
      .selectFrom('tutor_profiles')
      .select(['verification_status', 'verification_requested_at', 'approved_at'])
      .where('user_id', '=', tutorId)
      .executeTakeFirst(),
    db
      .selectFrom('tutor_verifications')
      .select('note')
      .where('tutor_id', '=', tutorId)
      .where('event', 'in', ['approved', 'declined'])
      .orderBy('id', 'desc')
      .executeTakeFirst(),
  ]);
  return {
    status: profile?.verification_status ?? 'none',
    requestedAt: profile?.verification_requested_at?.toISOString() ?? null,
    approvedAt: profile?.approved_at?.toISOString() ?? null,
    lastNote: last?.note || null,
  };
}

/** A line of the tutor's verification history, with the rate and subjects it was about. */
async function addToHistory(
  trx: Transaction<DB>,
  tutorId: string,
  event: VerificationHistoryEntry['event'],
  profile: { hourly_rate: number | null; subjects: string[] },
  decided: { note: string; admin_name: string } | null = null,
) {
  await trx
    .insertInto('tutor_verifications')
    .values({
      tutor_id: tutorId,
      event,
      hourly_rate: profile.hourly_rate,
      subjects: profile.subjects,
      ...decided,
    })
    .execute();
}

/** The tutor asks for review: only a published (complete) profile, not already waiting or approved. */
export async function requestVerification(db: Kysely<DB>, tutorId: string): Promise<VerificationState> {
  await db.transaction().execute(async (trx) => {
    const asked = await trx
      .updateTable('tutor_profiles')
      .set({ verification_status: 'requested', verification_requested_at: new Date() })
      .where('user_id', '=', tutorId)
      .where('published', '=', true)
      .where('verification_status', 'in', ['none', 'declined'])
      .returning(['hourly_rate', 'subjects'])
      .executeTakeFirst();
    if (!asked) {
      const profile = await trx
        .selectFrom('tutor_profiles')
        .select(['published', 'verification_status'])
        .where('user_id', '=', tutorId)
        .executeTakeFirst();
      if (profile?.verification_status === 'requested')
        throw new ApiError(409, verificationMessages.alreadyRequested, 'ALREADY_REQUESTED');
      if (profile?.verification_status === 'approved')
        throw new ApiError(409, verificationMessages.alreadyApproved, 'ALREADY_APPROVED');
      throw new ApiError(409, verificationMessages.incomplete, 'PROFILE_INCOMPLETE');
    }
    await addToHistory(trx, tutorId, 'requested', asked);
  });
  return verificationState(db, tutorId);
}

export interface VerificationHistoryEntry {
  event: 'requested' | 'approved' | 'declined';
  note: string;
  admin: string | null;
  hourlyRate: number | null;
  subjects: string[];
  at: string;
}

export interface VerificationCase {
  tutorId: string;
  displayName: string;
  email: string;
  status: VerificationStatus;
  requestedAt: string | null;
  approvedAt: string | null;
  profile: {
    headline: string;
    about: string;
    subjects: string[];
    hourlyRate: number | null;
    languages: string[];
    yearsExperience: number | null;
    photoVersion: string | null;
    published: boolean;
  };
  /** Against what was approved: null when nothing changed, or for a tutor never approved. */
  changesSinceApproval: {
    hourlyRate: { before: number | null; after: number | null } | null;
    subjectsAdded: string[];
    subjectsRemoved: string[];
  } | null;
  history: VerificationHistoryEntry[];
}

const QUEUE_LIMIT = 100;

/**
 * What admins review: tutors waiting, oldest request first, and approved tutors whose rate or
 * subjects changed since their approval.
 */
export async function verificationQueue(db: Kysely<DB>) {
  const base = db
    .selectFrom('tutor_profiles as tp')
    .innerJoin('users as u', 'u.id', 'tp.user_id')
    .leftJoin('profile_photos as pp', 'pp.user_id', 'tp.user_id')
    .select([
      'tp.user_id',
      'u.display_name',
      'u.email',
      'tp.verification_status',
      'tp.verification_requested_at',
      'tp.approved_at',
      'tp.approved_rate',
      'tp.approved_subjects',
      'tp.headline',
      'tp.about',
      'tp.subjects',
      'tp.hourly_rate',
      'tp.languages',
      'tp.years_experience',
      'tp.has_photo',
      'tp.published',
      'pp.version',
    ]);
  const [waiting, changed] = await Promise.all([
    base
      .where('tp.verification_status', '=', 'requested')
      .orderBy('tp.verification_requested_at')
      .orderBy('tp.user_id')
      .limit(QUEUE_LIMIT)
      .execute(),
    base
      .where('tp.verification_status', '=', 'approved')
      .where((eb) =>
        eb.or([
          eb('tp.hourly_rate', 'is distinct from', eb.ref('tp.approved_rate')),
          // Same subjects in any order count as no change.
          eb.not(
            eb.and([
              eb('tp.subjects', '@>', eb.ref('tp.approved_subjects')),
              eb('tp.subjects', '<@', eb.ref('tp.approved_subjects')),
            ]),
          ),
        ]),
      )
      .orderBy('tp.updated_at')
      .limit(QUEUE_LIMIT)
      .execute(),
  ]);
  const ids = [...waiting, ...changed].map((row) => row.user_id);
  const history =
    ids.length === 0
      ? []
      : await db
          .selectFrom('tutor_verifications')
          .select(['tutor_id', 'event', 'note', 'admin_name', 'hourly_rate', 'subjects', 'created_at'])
          .where('tutor_id', 'in', ids)
          .orderBy('id')
          .execute();
  const toCase = (row: (typeof waiting)[number]): VerificationCase => {
    const approvedSubjects = row.approved_subjects ?? [];
    const added = row.subjects.filter((subject) => !approvedSubjects.includes(subject));
    const removed = approvedSubjects.filter((subject) => !row.subjects.includes(subject));
    const rateChanged = row.approved_rate !== row.hourly_rate;
    return {
      tutorId: row.user_id,
      displayName: row.display_name,
      email: row.email,
      status: row.verification_status,
      requestedAt: row.verification_requested_at?.toISOString() ?? null,
      approvedAt: row.approved_at?.toISOString() ?? null,
      profile: {
        headline: row.headline,
        about: row.about,
        subjects: row.subjects,
        hourlyRate: row.hourly_rate,
        languages: row.languages,
        yearsExperience: row.years_experience,
        photoVersion: row.has_photo ? (row.version ?? null) : null,
        published: row.published,
      },
      changesSinceApproval:
        row.approved_at && (rateChanged || added.length > 0 || removed.length > 0)
          ? {
              hourlyRate: rateChanged ? { before: row.approved_rate, after: row.hourly_rate } : null,
              subjectsAdded: added,
              subjectsRemoved: removed,
            }
          : null,
      history: history
        .filter((entry) => entry.tutor_id === row.user_id)
        .map((entry) => ({
          event: entry.event,
          note: entry.note,
          admin: entry.admin_name,
          hourlyRate: entry.hourly_rate,
          subjects: entry.subjects,
          at: entry.created_at.toISOString(),
        })),
    };
  };
  return { waiting: waiting.map(toCase), changedSinceApproval: changed.map(toCase) };
}

/**
 * An admin's decision. A waiting tutor may be approved or declined; an approved one approved again
 * (which takes the current rate and subjects as the new approved ones) or declined (which takes
 * the badge away). The tutor is mailed the note, in the same transaction.
 */
export async function decideVerification(
  deps: { db: Kysely<DB>; mailer: Mailer; appUrl: string; defaultLanguage?: DefaultLanguage },
  actor: Actor,
  tutorId: string,
  decision: 'approved' | 'declined',
  note: string,
) {
  const { db, mailer } = deps;
  await db.transaction().execute(async (trx) => {
    const now = new Date();
    const decided = await trx
      .updateTable('tutor_profiles')
      .set((eb) =>
        decision === 'approved'
          ? {
              verification_status: 'approved',
              approved_at: now,
              approved_rate: eb.ref('hourly_rate'),
              approved_subjects: eb.ref('subjects'),
            }
          : {
              verification_status: 'declined',
              approved_at: null,
              approved_rate: null,
              approved_subjects: null,
            },
      )
      .where('user_id', '=', tutorId)
      .where('verification_status', 'in', ['requested', 'approved'])
      .returning(['hourly_rate', 'subjects'])
      .executeTakeFirst();
    if (!decided) {
      const exists = await trx
        .selectFrom('tutor_profiles')
        .select('user_id')
        .where('user_id', '=', tutorId)
        .executeTakeFirst();
      if (!exists) throw new ApiError(404, verificationMessages.notFound, 'NOT_FOUND');
      throw new ApiError(409, verificationMessages.notRequested, 'NOT_REQUESTED');
    }
    const tutor = await trx
      .selectFrom('users')
      .select(['display_name', 'email', 'language'])
      .where('id', '=', tutorId)
      .executeTakeFirstOrThrow();
    await addToHistory(trx, tutorId, decision, decided, { note, admin_name: actor.label });
    await recordAudit(
      trx,
      actor,
      decision === 'approved' ? 'tutor.approved' : 'tutor.declined',
      accountTarget({ id: tutorId, display_name: tutor.display_name, email: tutor.email }),
      note,
    );
    await mailer.sendMail(
      {
        to: tutor.email,
        ...verificationDecisionMail({
          displayName: tutor.display_name,
          approved: decision === 'approved',
          note,
          appUrl: deps.appUrl,
          language: mailLanguage(tutor.language, deps.defaultLanguage),
        }),
      },
      trx,
    );
  });
  mailer.deliverSoon();
}
