/**
 * A person's own data, as a ZIP of JSON files they can read or take elsewhere: their profile,
 * lessons, group classes (taught, or enrolled in), messages (sent and received), reviews (written and received), lesson notes, goals,
 * wallet, the audit entries about them or by them, their family (a parent's children with their
 * lessons, notes and goals; a student's paying parent), and their photo. Of other people it names only
 * what the person saw of them already (a name beside a lesson or a message), never an address.
 */
import { strToU8, type Zippable, zipSync } from 'fflate';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { hasLogin, isChildAddress } from '../platform/family-links';
import { classesOf } from './classes-export';
import { messagesOf } from './messages-export';

/** The photo's file name in the archive, by its type. */
const PHOTO_EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);

async function profileOf(db: Kysely<DB>, userId: string) {
  const user = await db
    .selectFrom('users')
    .select([
      'id',
      'email',
      'display_name as displayName',
      'role',
      // A child's, as their parent gave it (null for everyone else).
      'birth_year as birthYear',
      'email_verified as emailVerified',
      'time_zone as timeZone',
      'learning_goals as learningGoals',
      'message_mails as messageMails',
      'reminder_day_before as reminderDayBefore',
      'reminder_hour_before as reminderHourBefore',
      'created_at as createdAt',
      'updated_at as updatedAt',
    ])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const tutorProfile = await db
    .selectFrom('tutor_profiles')
    .select([
      'headline',
      'about',
      'subjects',
      'categories',
      'languages',
      'hourly_rate as hourlyRate',
      'years_experience as yearsExperience',
      'published',
      'verification_status as verificationStatus',
      'rating_count as ratingCount',
      'rating_sum as ratingSum',
      'created_at as createdAt',
      'updated_at as updatedAt',
    ])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const availability = await db
    .selectFrom('tutor_availability')
    .select([
      'weekly',
      'overrides',
      'lesson_minutes as lessonMinutes',
      'slot_step_minutes as slotStepMinutes',
      'minimum_notice_hours as minimumNoticeHours',
      'booking_horizon_days as bookingHorizonDays',
      'buffer_minutes as bufferMinutes',
      'instant_booking as instantBooking',
      'trial_offered as trialOffered',
      'trial_price_cents as trialPriceCents',
    ])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const blocked = await db
    .selectFrom('blocks as b')
    .innerJoin('users as u', 'u.id', 'b.blocked_id')
    .select(['u.id', 'u.display_name as displayName', 'b.created_at as blockedAt'])
    .where('b.blocker_id', '=', userId)
    .execute();
  const contactMessages = await db
    .selectFrom('contact_messages')
    .select(['name', 'email', 'subject', 'message', 'created_at as sentAt'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return {
    user,
    tutorProfile: tutorProfile ?? null,
    availability: availability ?? null,
    blocked,
    contactMessages,
  };
}

async function lessonsOf(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('lessons as l')
    .innerJoin('users as t', 't.id', 'l.tutor_id')
    .innerJoin('users as s', 's.id', 'l.student_id')
    .select([
      'l.id',
      'l.subject',
      'l.status',
      'l.starts_at as startsAt',
      'l.ends_at as endsAt',
      'l.minutes',
      'l.price_cents as priceCents',
      'l.currency',
      'l.payment_status as paymentStatus',
      'l.trial',
      'l.note',
      'l.cancel_reason as cancelReason',
      'l.created_at as createdAt',
      // A seat in a group class's session (classes.json has the class).
      'l.class_session_id as classSessionId',
      // The parent whose wallet paid, when not the student (null: the student paid).
      'l.payer_id as payerId',
      't.id as tutorId',
      't.display_name as tutorName',
      's.id as studentId',
      's.display_name as studentName',
    ])
    .where((eb) => eb.or([eb('l.tutor_id', '=', userId), eb('l.student_id', '=', userId)]))
    .orderBy('l.starts_at')
    .execute();
}

/**
 * A parent's children (family.json), each with their lessons, lesson notes and goals, as the
 * parent follows them; and a student's paying parent, by name. Of a child it gives what the parent
 * gave or sees: first name, year of birth, whether they have a login (their address only when they
 * do: a child without one has a placeholder nobody reads).
 */
async function familyOf(db: Kysely<DB>, userId: string) {
  const children = await db
    .selectFrom('family_links as f')
    .innerJoin('users as u', 'u.id', 'f.student_id')
    .select([
      'u.id',
      'u.display_name as firstName',
      'u.email',
      'u.birth_year as birthYear',
      'f.added_by_parent as addedByParent',
      'f.monthly_limit_cents as monthlyLimitCents',
      'f.created_at as linkedAt',
    ])
    .select(hasLogin('u.id').as('hasLogin'))
    .where('f.parent_id', '=', userId)
    .where('u.deleted_at', 'is', null)
    .orderBy('f.created_at')
    .orderBy('u.id')
    .execute();
  const parents = await db
    .selectFrom('family_links as f')
    .innerJoin('users as u', 'u.id', 'f.parent_id')
    .select(['u.id', 'u.display_name as displayName', 'f.created_at as linkedAt'])
    .where('f.student_id', '=', userId)
    .where('u.deleted_at', 'is', null)
    .execute();
  return {
    children: await Promise.all(
      children.map(async ({ email, hasLogin, monthlyLimitCents, ...child }) => ({
        ...child,
        hasLogin: Boolean(hasLogin),
        email: hasLogin && !isChildAddress(email) ? email : null,
        monthlyLimitCents: monthlyLimitCents === null ? null : Number(monthlyLimitCents),
        lessons: await lessonsOf(db, child.id),
        notes: await notesOf(db, child.id),
        goals: await goalsOf(db, child.id),
      })),
    ),
    parents,
  };
}

async function reviewsOf(db: Kysely<DB>, userId: string) {
  const columns = [
    'r.id',
    'r.rating',
    'r.body',
    'r.answer',
    'r.created_at as createdAt',
    'r.edited_at as editedAt',
    'r.answered_at as answeredAt',
    'r.hidden_at as hiddenAt',
  ] as const;
  const written = await db
    .selectFrom('reviews as r')
    .innerJoin('users as t', 't.id', 'r.tutor_id')
    .select([...columns, 't.id as tutorId', 't.display_name as tutorName'])
    .where('r.student_id', '=', userId)
    .orderBy('r.created_at')
    .execute();
  const received = await db
    .selectFrom('reviews as r')
    .innerJoin('users as s', 's.id', 'r.student_id')
    .select([...columns, 's.id as studentId', 's.display_name as studentName'])
    .where('r.tutor_id', '=', userId)
    .orderBy('r.created_at')
    .execute();
  return { written, received };
}

async function notesOf(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('lesson_notes as n')
    .innerJoin('lessons as l', 'l.id', 'n.lesson_id')
    .select([
      'n.lesson_id as lessonId',
      'l.subject',
      'l.starts_at as lessonStartsAt',
      'n.covered',
      'n.homework',
      'n.created_at as createdAt',
      'n.updated_at as updatedAt',
    ])
    .where((eb) => eb.or([eb('l.tutor_id', '=', userId), eb('l.student_id', '=', userId)]))
    .orderBy('l.starts_at')
    .execute();
}

async function goalsOf(db: Kysely<DB>, userId: string) {
  const goals = await db
    .selectFrom('goals')
    .select([
      'id',
      'subject',
      'title',
      'target_date as targetDate',
      'completed_at as completedAt',
      'created_at as createdAt',
    ])
    .where('student_id', '=', userId)
    .orderBy('created_at')
    .execute();
  const milestones = goals.length
    ? await db
        .selectFrom('goal_milestones')
        .select(['goal_id', 'title', 'done_at as doneAt', 'created_at as createdAt'])
        .where(
          'goal_id',
          'in',
          goals.map((goal) => goal.id),
        )
        .orderBy('created_at')
        .execute()
    : [];
  return goals.map((goal) => ({
    ...goal,
    milestones: milestones.filter((m) => m.goal_id === goal.id).map(({ goal_id: _, ...m }) => m),
  }));
}

async function walletOf(db: Kysely<DB>, userId: string) {
  const accountRows = await db
    .selectFrom('ledger_accounts')
    .select(['id', 'kind', 'currency'])
    .where('user_id', '=', userId)
    .execute();
  const entries = accountRows.length
    ? await db
        .selectFrom('ledger_entries as e')
        .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
        .select([
          'e.account_id',
          'e.amount_cents as amountCents',
          'e.balance_after_cents as balanceAfterCents',
          't.id as transactionId',
          't.kind',
          't.memo',
          't.lesson_id as lessonId',
          't.created_at as at',
        ])
        .where(
          'e.account_id',
          'in',
          accountRows.map((a) => a.id),
        )
        .orderBy('e.account_id')
        .orderBy('e.account_seq')
        .execute()
    : [];
  const topUps = await db
    .selectFrom('top_ups')
    .select([
      'id',
      'amount_cents as amountCents',
      'currency',
      'method',
      'status',
      'reference',
      'note',
      'created_at as createdAt',
      'settled_at as settledAt',
    ])
    .where('student_id', '=', userId)
    .orderBy('created_at')
    .execute();
  return {
    accounts: accountRows.map((account) => ({
      kind: account.kind,
      currency: account.currency,
      entries: entries
        .filter((entry) => entry.account_id === account.id)
        .map(({ account_id: _, ...entry }) => ({ ...entry, transactionId: Number(entry.transactionId) })),
    })),
    topUps,
  };
}

/** A label as the audit log writes a person (`Name <email>`, at its end), without the address. */
const withoutAddress = (label: string) => label.replace(/\s*<[^<>]*>$/, '');

async function auditOf(db: Kysely<DB>, userId: string) {
  return db
    .selectFrom('audit_log')
    .select(['id', 'action', 'actor', 'actor_id', 'target', 'target_id', 'reason', 'created_at as at'])
    .where((eb) => eb.or([eb('actor_id', '=', userId), eb('target_id', '=', userId)]))
    .orderBy('id')
    .execute()
    .then((rows) =>
      rows.map(({ actor_id, target_id, ...entry }) => ({
        ...entry,
        id: Number(entry.id),
        // The log keeps everyone's address; the export keeps only the person's own. An admin who
        // acted on them, and the people an admin acted on, are named without theirs.
        actor: actor_id === userId ? entry.actor : withoutAddress(entry.actor),
        target: target_id === userId ? entry.target : withoutAddress(entry.target),
      })),
    );
}

/** The archive's files, by name: JSON, and the photo when there is one. */
export async function exportFiles(db: Kysely<DB>, userId: string): Promise<Zippable> {
  const [profile, lessons, classes, messages, reviews, notes, goals, wallet, audit, family, photo] =
    await Promise.all([
      profileOf(db, userId),
      lessonsOf(db, userId),
      classesOf(db, userId),
      messagesOf(db, userId),
      reviewsOf(db, userId),
      notesOf(db, userId),
      goalsOf(db, userId),
      walletOf(db, userId),
      auditOf(db, userId),
      familyOf(db, userId),
      db
        .selectFrom('profile_photos')
        .select(['image', 'content_type'])
        .where('user_id', '=', userId)
        .executeTakeFirst(),
    ]);
  const photoName = photo ? `photo.${PHOTO_EXTENSIONS[photo.content_type] ?? 'img'}` : null;
  const files: Zippable = {
    'profile.json': json({ ...profile, photo: photoName }),
    'lessons.json': json(lessons),
    'classes.json': json(classes),
    'messages.json': json(messages),
    'reviews.json': json(reviews),
    'notes.json': json(notes),
    'goals.json': json(goals),
    'wallet.json': json(wallet),
    'audit.json': json(audit),
    'family.json': json(family),
  };
  // A photo is compressed already: stored as it is.
  if (photo && photoName) files[photoName] = [new Uint8Array(photo.image), { level: 0 }];
  return files;
}

/** The archive itself: small enough (text, one photo) to build in memory. */
export async function exportArchive(db: Kysely<DB>, userId: string): Promise<Uint8Array> {
  return zipSync(await exportFiles(db, userId));
}
