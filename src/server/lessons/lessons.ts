/**
 * Lessons in the database: a tutor's availability, the slots it offers, and every change a lesson
 * goes through (booked, accepted, declined, cancelled, moved, expired, completed), each in one
 * transaction with the mails it sends, so a mail exists exactly when its change does.
 *
 * The rules themselves are plain functions in src/shared/lessons/availability.ts; what is added
 * here is what only the database can settle. Two requests for one time both see it free and both
 * insert: the exclusion constraints of the lessons table refuse the second (23P01), which is
 * answered 409, never 500.
 *
 * Statuses are stored as they were last written, and read as they are now: a pending request
 * whose deadline has passed reads `expired`, a confirmed lesson whose end has passed reads
 * `completed`, before the minute job (expireDue, completeDue) writes it.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import {
  type Availability,
  type BookingSettings,
  canChange,
  changeableUntil,
  type Interval,
  lessonPriceCents,
  offeredSlots,
  requestExpiresAt,
} from '../../shared/lessons/availability';
import { DEFAULT_BOOKING_SETTINGS, type LessonStatus } from '../../shared/lessons/lesson-schemas';
import type { DB, MessageEvent } from '../db/schema';
import { ApiError } from '../http/api-error';
import type { Mailer, OutgoingMail } from '../mail/mailer';
import type { LiveHub } from '../messages/live';
import { lessonLine } from '../messages/messages';
import type { Listing } from '../tutors/tutor-search';
import {
  type LessonEvent,
  lessonMail,
  type MailLesson,
  type MailPerson,
  type MailSettings,
} from './lesson-mail';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * A lesson that took place by `now`: completed, or confirmed with its end passed (the minute job
 * marks those completed, but a reader must not wait for it). `table` names the lessons' alias.
 */
export function tookPlace(now: number, table?: string) {
  const column = (name: string) => sql.ref(table ? `${table}.${name}` : name);
  return sql<boolean>`(${column('status')} = 'completed' or (${column('status')} = 'confirmed' and ${column('ends_at')} <= ${new Date(now)}))`;
}

export const lessonMessages = {
  notFound: 'This lesson does not exist',
  tutorNotFound: 'This tutor profile does not exist or is not public',
  slotTaken: 'This time is no longer available. Please choose another time.',
  cutoff: 'Lessons can be cancelled or rescheduled up to 24 hours before they start.',
  studentsBook: 'Only students can book lessons',
  tutorsOffer: 'Only tutors have availability',
  tutorAnswers: 'Only the tutor can accept or decline a request',
  studentMoves: 'Only the student can reschedule a lesson',
  notPending: 'This request is no longer waiting for an answer',
  requestExpired: 'This request has expired',
  notActive: 'This lesson is no longer planned',
  sameTime: 'The lesson already starts at that time',
} as const;

/**
 * Who called a lesson off: one of its two people, or Tutorlane itself when the other person's
 * account was suspended.
 */
export type CancelledBy = 'tutor' | 'student' | 'tutorlane';

/** What is kept of a cancellation, for the lesson's two people to read. */
export interface Cancellation {
  by: CancelledBy;
  /** ISO 8601 UTC. */
  at: string;
  /** The words the person gave, or null (always null when Tutorlane cancelled). */
  reason: string | null;
}

/** Stored with lessons cancelled by a suspension, for the record; never shown as a reason. */
const SUSPENSION_CANCEL_REASON = 'account suspended';

/** A lesson as the API gives it (docs/api.md). All instants are ISO 8601 UTC. */
export interface LessonView {
  id: string;
  start: string;
  end: string;
  minutes: number;
  status: LessonStatus;
  subject: string;
  note: string;
  price: { amountCents: number; currency: string };
  tutor: { id: string; displayName: string };
  student: { id: string; displayName: string };
  /** Until when it may be cancelled or rescheduled; null once it is no longer planned. */
  changeableUntil: string | null;
  /** Who cancelled it, when and why; null unless it is cancelled. */
  cancellation: Cancellation | null;
}

/** A tutor's availability and settings as the API gives and takes them. */
export interface AvailabilityView extends Availability, BookingSettings {}

interface LessonRow {
  id: string;
  tutor_id: string;
  student_id: string;
  subject: string;
  note: string;
  starts_at: Date;
  ends_at: Date;
  minutes: number;
  price_cents: number;
  currency: string;
  status: LessonStatus;
  expires_at: Date | null;
  sequence: number;
  cancelled_by: string | null;
  cancel_reason: string | null;
  updated_at: Date;
}

/** What a stored status reads as at `now`. */
export function statusAt(
  row: Pick<LessonRow, 'status' | 'expires_at' | 'ends_at'>,
  now: number,
): LessonStatus {
  if (row.status === 'pending' && row.expires_at && row.expires_at.getTime() <= now) return 'expired';
  if (row.status === 'confirmed' && row.ends_at.getTime() <= now) return 'completed';
  return row.status;
}

const isPlanned = (status: LessonStatus) => status === 'pending' || status === 'confirmed';

/**
 * A cancelled lesson's cancellation. Nothing changes a lesson once it is cancelled, so the last
 * update is the moment it was.
 */
function cancellationOf(row: LessonRow): Cancellation | null {
  if (row.status !== 'cancelled') return null;
  const by: CancelledBy =
    row.cancelled_by === null ? 'tutorlane' : row.cancelled_by === row.tutor_id ? 'tutor' : 'student';
  return {
    by,
    at: row.updated_at.toISOString(),
    reason: by === 'tutorlane' ? null : row.cancel_reason,
  };
}

function toView(row: LessonRow & { tutor_name: string; student_name: string }, now: number): LessonView {
  const status = statusAt(row, now);
  return {
    id: row.id,
    start: row.starts_at.toISOString(),
    end: row.ends_at.toISOString(),
    minutes: row.minutes,
    status,
    subject: row.subject,
    note: row.note,
    price: { amountCents: row.price_cents, currency: row.currency },
    tutor: { id: row.tutor_id, displayName: row.tutor_name },
    student: { id: row.student_id, displayName: row.student_name },
    changeableUntil: isPlanned(status)
      ? new Date(changeableUntil(row.starts_at.getTime())).toISOString()
      : null,
    cancellation: cancellationOf(row),
  };
}

type Db = Kysely<DB> | Transaction<DB>;

const lessonColumns = [
  'l.id',
  'l.tutor_id',
  'l.student_id',
  'l.subject',
  'l.note',
  'l.starts_at',
  'l.ends_at',
  'l.minutes',
  'l.price_cents',
  'l.currency',
  'l.status',
  'l.expires_at',
  'l.sequence',
  'l.cancelled_by',
  'l.cancel_reason',
  'l.updated_at',
] as const;

function lessonsWithNames(db: Db) {
  return db
    .selectFrom('lessons as l')
    .innerJoin('users as t', 't.id', 'l.tutor_id')
    .innerJoin('users as s', 's.id', 'l.student_id')
    .select([...lessonColumns, 't.display_name as tutor_name', 's.display_name as student_name']);
}

/** The tutor's notes on a lesson that took place, as lists of lessons carry them. */
export interface NotesSummary {
  covered: string;
  homework: string;
  updatedAt: string;
}

/** A lesson in a list: with its notes, which only its two participants ever list. */
export type ListedLesson = LessonView & { notes: NotesSummary | null };

function listedLessons(db: Db) {
  return lessonsWithNames(db)
    .leftJoin('lesson_notes as n', 'n.lesson_id', 'l.id')
    .select(['n.covered', 'n.homework', 'n.updated_at as notes_updated_at']);
}

type ListedRow = Awaited<ReturnType<ReturnType<typeof listedLessons>['execute']>>[number];

const toListed = (row: ListedRow, now: number): ListedLesson => ({
  ...toView(row, now),
  notes:
    row.notes_updated_at === null
      ? null
      : {
          covered: row.covered ?? '',
          homework: row.homework ?? '',
          updatedAt: row.notes_updated_at.toISOString(),
        },
});

/** The user's lessons (as tutor or student) that overlap [from, to), by start. */
export async function listLessons(
  db: Kysely<DB>,
  userId: string,
  from: number,
  to: number,
  now: number,
): Promise<ListedLesson[]> {
  const rows = await listedLessons(db)
    .where((eb) => eb.or([eb('l.tutor_id', '=', userId), eb('l.student_id', '=', userId)]))
    .where('l.starts_at', '<', new Date(to))
    .where('l.ends_at', '>', new Date(from))
    .orderBy('l.starts_at')
    .orderBy('l.id')
    .execute();
  return rows.map((row) => toListed(row, now));
}

/** The lessons between the user and one other person, either way round, newest first. */
export async function lessonsBetween(
  db: Kysely<DB>,
  userId: string,
  otherId: string,
  now: number,
  limit: number,
): Promise<ListedLesson[]> {
  const rows = await listedLessons(db)
    .where((eb) =>
      eb.or([
        eb.and([eb('l.tutor_id', '=', userId), eb('l.student_id', '=', otherId)]),
        eb.and([eb('l.student_id', '=', userId), eb('l.tutor_id', '=', otherId)]),
      ]),
    )
    .orderBy('l.starts_at', 'desc')
    .orderBy('l.id')
    .limit(limit)
    .execute();
  return rows.map((row) => toListed(row, now));
}

/** One lesson of the user's, or 404: another user's lesson does not exist for them. */
export async function findLesson(db: Db, userId: string, id: string, now: number): Promise<LessonView> {
  const row = await lessonsWithNames(db)
    .where('l.id', '=', id)
    .where((eb) => eb.or([eb('l.tutor_id', '=', userId), eb('l.student_id', '=', userId)]))
    .executeTakeFirst();
  if (!row) throw new ApiError(404, lessonMessages.notFound, 'NOT_FOUND');
  return toView(row, now);
}

// ---------------------------------------------------------------------------------------------
// Availability

/** A tutor's availability; a tutor who never saved one has no windows and the default settings. */
export async function readAvailability(db: Db, tutorId: string): Promise<AvailabilityView> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('tutor_availability as a', 'a.user_id', 'u.id')
    .select([
      'u.time_zone',
      'a.weekly',
      'a.overrides',
      'a.lesson_minutes',
      'a.slot_step_minutes',
      'a.minimum_notice_hours',
      'a.booking_horizon_days',
      'a.buffer_minutes',
      'a.instant_booking',
    ])
    .where('u.id', '=', tutorId)
    .executeTakeFirst();
  const defaults = DEFAULT_BOOKING_SETTINGS;
  return {
    timeZone: row?.time_zone ?? 'UTC',
    weekly: row?.weekly ?? [],
    overrides: row?.overrides ?? [],
    lessonMinutes: row?.lesson_minutes ?? [...defaults.lessonMinutes],
    slotStepMinutes: row?.slot_step_minutes ?? defaults.slotStepMinutes,
    minimumNoticeHours: row?.minimum_notice_hours ?? defaults.minimumNoticeHours,
    bookingHorizonDays: row?.booking_horizon_days ?? defaults.bookingHorizonDays,
    bufferMinutes: row?.buffer_minutes ?? defaults.bufferMinutes,
    instantBooking: row?.instant_booking ?? defaults.instantBooking,
  };
}

/** Saves a tutor's availability; its time zone is the profile's. Checked by availabilitySchema before. */
export async function saveAvailability(
  db: Kysely<DB>,
  tutorId: string,
  input: AvailabilityView,
): Promise<void> {
  const row = {
    weekly: JSON.stringify(
      [...input.weekly].sort((a, b) => a.weekday - b.weekday || a.start.localeCompare(b.start)),
    ),
    overrides: JSON.stringify([...input.overrides].sort((a, b) => a.date.localeCompare(b.date))),
    lesson_minutes: input.lessonMinutes,
    slot_step_minutes: input.slotStepMinutes,
    minimum_notice_hours: input.minimumNoticeHours,
    booking_horizon_days: input.bookingHorizonDays,
    buffer_minutes: input.bufferMinutes,
    instant_booking: input.instantBooking,
    updated_at: new Date(),
  };
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ time_zone: input.timeZone, updated_at: new Date() })
      .where('id', '=', tutorId)
      .execute();
    await trx
      .insertInto('tutor_availability')
      .values({ user_id: tutorId, ...row })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
      .execute();
  });
}

// ---------------------------------------------------------------------------------------------
// Slots

/**
 * What the tutor's planned lessons keep busy around [from, to). Each lesson is stretched by what
 * it stored as its own buffer beyond today's, so a slot offered here is one the database accepts
 * (the constraint compares the buffers the lessons were booked with).
 */
async function tutorBusy(
  db: Db,
  tutorId: string,
  from: number,
  to: number,
  now: number,
  bufferMinutes: number,
  except?: string,
) {
  let query = db
    .selectFrom('lessons')
    .select(['starts_at', 'ends_at', 'blocked_until'])
    .where('tutor_id', '=', tutorId)
    .where('status', 'in', ['pending', 'confirmed'])
    .where((eb) => eb.or([eb('status', '=', 'confirmed'), eb('expires_at', '>', new Date(now))]))
    .where('starts_at', '<', new Date(to + 2 * HOUR + bufferMinutes * 60_000))
    .where('blocked_until', '>', new Date(from - 2 * HOUR - bufferMinutes * 60_000));
  if (except) query = query.where('id', '<>', except);
  const rows = await query.execute();
  const buffer = bufferMinutes * 60_000;
  return rows.map(
    (row): Interval => ({
      start: row.starts_at.getTime(),
      end: Math.max(row.ends_at.getTime(), row.blocked_until.getTime() - buffer),
    }),
  );
}

async function studentBusy(
  db: Db,
  studentId: string,
  from: number,
  to: number,
  now: number,
  except?: string,
) {
  let query = db
    .selectFrom('lessons')
    .select(['starts_at', 'ends_at'])
    .where('student_id', '=', studentId)
    .where('status', 'in', ['pending', 'confirmed'])
    .where((eb) => eb.or([eb('status', '=', 'confirmed'), eb('expires_at', '>', new Date(now))]))
    .where('starts_at', '<', new Date(to))
    .where('ends_at', '>', new Date(from));
  if (except) query = query.where('id', '<>', except);
  const rows = await query.execute();
  return rows.map((row): Interval => ({ start: row.starts_at.getTime(), end: row.ends_at.getTime() }));
}

/** A published tutor's booking facts, or null: only a tutor in the search can be booked. */
/** A tutor students may book: published, and approved where the listing asks for it. */
async function bookableTutor(db: Db, tutorId: string, listing: Listing = {}) {
  let query = db
    .selectFrom('tutor_profiles as tp')
    .innerJoin('users as u', 'u.id', 'tp.user_id')
    .select(['u.id', 'u.display_name', 'u.email', 'u.time_zone', 'tp.subjects', 'tp.hourly_rate'])
    .where('tp.user_id', '=', tutorId)
    .where('tp.published', '=', true);
  if (listing.approvedOnly) query = query.where('tp.verification_status', '=', 'approved');
  const tutor = await query.executeTakeFirst();
  if (!tutor) return null;
  return { ...tutor, availability: await readAvailability(db, tutorId) };
}

export interface SlotRequest {
  tutorId: string;
  from: number;
  to: number;
  minutes: number;
  /** A signed-in student: their own lessons are not offered over. */
  studentId?: string | undefined;
  now: number;
}

function checkLength(availability: AvailabilityView, minutes: number) {
  if (!availability.lessonMinutes.includes(minutes)) {
    throw new ApiError(
      400,
      `minutes must be one of this tutor's lesson lengths: ${availability.lessonMinutes.join(', ')}`,
      'VALIDATION_ERROR',
    );
  }
}

/** The times a published tutor offers in [from, to) for lessons of `minutes`. */
export async function findSlots(
  db: Kysely<DB>,
  request: SlotRequest,
  listing: Listing = {},
): Promise<Interval[]> {
  const tutor = await bookableTutor(db, request.tutorId, listing);
  if (!tutor) throw new ApiError(404, lessonMessages.tutorNotFound, 'NOT_FOUND');
  checkLength(tutor.availability, request.minutes);
  return slotsOf(db, tutor.availability, request);
}

async function slotsOf(
  db: Db,
  availability: AvailabilityView,
  request: SlotRequest & { except?: string },
): Promise<Interval[]> {
  const { from, to, now } = request;
  const [tutorLessons, studentLessons] = await Promise.all([
    tutorBusy(db, request.tutorId, from, to, now, availability.bufferMinutes, request.except),
    request.studentId ? studentBusy(db, request.studentId, from, to + DAY, now, request.except) : [],
  ]);
  return offeredSlots({
    availability,
    settings: availability,
    minutes: request.minutes,
    from,
    to,
    now,
    tutorLessons,
    studentLessons,
  });
}

// ---------------------------------------------------------------------------------------------
// Changes

export interface LessonDeps {
  db: Kysely<DB>;
  mailer: Mailer;
  mail: MailSettings;
  /** Where the lines lessons write into their pair's conversation are pushed live. */
  live?: Pick<LiveHub, 'messageSent'> | undefined;
  /** Which tutors are listed, and so bookable (only approved ones, where approval is required). */
  listing?: Listing | undefined;
}

/** Lines written into conversations during a transaction, pushed live once it has committed. */
export type Lines = Awaited<ReturnType<typeof lessonLine>>[];

export async function pushLines(deps: LessonDeps, lines: Lines) {
  for (const line of lines) await deps.live?.messageSent(line.message, line.recipients);
}

const LINE_EVENT: Record<LessonEvent, MessageEvent['event']> = {
  requested: 'requested',
  confirmed: 'confirmed',
  declined: 'declined',
  expired: 'expired',
  cancelled: 'cancelled',
  rescheduled: 'rescheduled',
  'request-moved': 'rescheduled',
};
const LINE_VERB: Record<MessageEvent['event'], string> = {
  requested: 'requested',
  confirmed: 'confirmed',
  declined: 'declined',
  expired: 'request expired',
  cancelled: 'cancelled',
  rescheduled: 'moved',
};

/** 23P01 (exclusion_violation): the time was taken by a request that got there first. */
const isOverlap = (error: unknown) => (error as { code?: string } | null)?.code === '23P01';
const isIdempotencyReplay = (error: unknown) => {
  const failure = error as { code?: string; constraint?: string } | null;
  return failure?.code === '23505' && failure.constraint === 'lessons_student_idempotency_key';
};

async function people(db: Db, ids: string[]): Promise<Map<string, MailPerson>> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'display_name', 'email', 'time_zone'])
    .where('id', 'in', ids)
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      { id: row.id, displayName: row.display_name, email: row.email, timeZone: row.time_zone },
    ]),
  );
}

async function mailLesson(db: Db, row: LessonRow): Promise<MailLesson> {
  const found = await people(db, [row.tutor_id, row.student_id]);
  const tutor = found.get(row.tutor_id);
  const student = found.get(row.student_id);
  if (!tutor || !student) throw new Error(`lesson ${row.id} has lost a participant`);
  return {
    id: row.id,
    subject: row.subject,
    note: row.note,
    start: row.starts_at,
    end: row.ends_at,
    priceCents: row.price_cents,
    currency: row.currency,
    sequence: row.sequence,
    tutor,
    student,
  };
}

type Recipients = 'tutor' | 'student' | 'both';

/**
 * Tells of a change, in its transaction: mails to `to`, and a line in the pair's conversation
 * (each reader's screen words it in their own zone from its facts; the text is for anything else).
 */
async function announce(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lines: Lines,
  row: LessonRow,
  event: LessonEvent,
  to: Recipients,
  extra: Parameters<typeof lessonMail>[4] = {},
) {
  const lesson = await mailLesson(trx, row);
  const readers =
    to === 'both' ? [lesson.tutor, lesson.student] : [to === 'tutor' ? lesson.tutor : lesson.student];
  const mails: OutgoingMail[] = readers.map((reader) => lessonMail(event, lesson, reader, deps.mail, extra));
  for (const mail of mails) await deps.mailer.sendMail(mail, trx);
  const facts: MessageEvent = {
    event: LINE_EVENT[event],
    lessonId: row.id,
    start: row.starts_at.toISOString(),
    end: row.ends_at.toISOString(),
    subject: row.subject,
  };
  const when = `${facts.start.slice(0, 16).replace('T', ' ')} UTC`;
  lines.push(
    await lessonLine(
      trx,
      { studentId: row.student_id, tutorId: row.tutor_id },
      facts,
      `${row.subject} lesson ${LINE_VERB[facts.event]}: ${when}`,
    ),
  );
}

const lessonRowColumns = [
  'id',
  'tutor_id',
  'student_id',
  'subject',
  'note',
  'starts_at',
  'ends_at',
  'minutes',
  'price_cents',
  'currency',
  'status',
  'expires_at',
  'sequence',
  'cancelled_by',
  'cancel_reason',
  'updated_at',
] as const;

/**
 * Marks every request whose deadline has passed as expired and mails both sides, once: with
 * several servers on one database, each row is updated (and mailed) by whichever gets it first;
 * the others find it no longer pending. `among` limits it to the lessons of some users.
 */
export async function expireDue(
  deps: LessonDeps,
  trx: Transaction<DB>,
  now: number,
  lines: Lines,
  among?: string[],
) {
  let update = trx
    .updateTable('lessons')
    .set({ status: 'expired', updated_at: new Date(now) })
    .where('status', '=', 'pending')
    .where('expires_at', '<=', new Date(now));
  if (among?.length)
    update = update.where((eb) => eb.or([eb('tutor_id', 'in', among), eb('student_id', 'in', among)]));
  const expired = await update.returning(lessonRowColumns).execute();
  for (const row of expired) await announce(deps, trx, lines, row, 'expired', 'both');
  return expired.length;
}

/**
 * Marks confirmed lessons that have ended as completed, and returns them: the one UPDATE decides
 * which server saw each one complete, so what follows from it (a mail) happens once.
 */
export async function completeDue(db: Kysely<DB>, now: number) {
  return db
    .updateTable('lessons')
    .set({ status: 'completed', updated_at: new Date(now) })
    .where('status', '=', 'confirmed')
    .where('ends_at', '<=', new Date(now))
    .returning(['id', 'tutor_id', 'student_id'])
    .execute();
}

export interface BookingRequest {
  studentId: string;
  tutorId: string;
  start: number;
  minutes: number;
  subject: string;
  note?: string | undefined;
  idempotencyKey?: string | undefined;
  now: number;
}

async function replayed(db: Db, studentId: string, key: string | undefined, now: number) {
  if (!key) return undefined;
  const found = await db
    .selectFrom('lessons')
    .select('id')
    .where('student_id', '=', studentId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return found ? findLesson(db, studentId, found.id, now) : undefined;
}

/** Books a lesson: `created` is false when an earlier request with the same key made it. */
export async function bookLesson(
  deps: LessonDeps,
  request: BookingRequest,
): Promise<{ lesson: LessonView; created: boolean }> {
  const { db } = deps;
  const { now } = request;
  const earlier = await replayed(db, request.studentId, request.idempotencyKey, now);
  if (earlier) return { lesson: earlier, created: false };

  const tutor = await bookableTutor(db, request.tutorId, deps.listing);
  if (!tutor) throw new ApiError(404, lessonMessages.tutorNotFound, 'NOT_FOUND');
  checkLength(tutor.availability, request.minutes);
  if (!tutor.subjects.includes(request.subject))
    throw new ApiError(400, `Please choose a subject ${tutor.display_name} teaches`, 'VALIDATION_ERROR');
  if (tutor.hourly_rate === null) throw new ApiError(404, lessonMessages.tutorNotFound, 'NOT_FOUND');
  const hourlyRate = tutor.hourly_rate;

  const id = randomUUID();
  const lines: Lines = [];
  try {
    await db.transaction().execute(async (trx) => {
      await expireDue(deps, trx, now, lines, [request.tutorId, request.studentId]);
      const offered = await slotsOf(trx, tutor.availability, {
        tutorId: request.tutorId,
        studentId: request.studentId,
        from: request.start,
        to: request.start + 1,
        minutes: request.minutes,
        now,
      });
      if (!offered.some((slot) => slot.start === request.start))
        throw new ApiError(409, lessonMessages.slotTaken, 'SLOT_UNAVAILABLE');
      const instant = tutor.availability.instantBooking;
      const end = request.start + request.minutes * 60_000;
      const row = await trx
        .insertInto('lessons')
        .values({
          id,
          tutor_id: request.tutorId,
          student_id: request.studentId,
          subject: request.subject,
          note: request.note ?? '',
          starts_at: new Date(request.start),
          ends_at: new Date(end),
          minutes: request.minutes,
          blocked_until: new Date(end + tutor.availability.bufferMinutes * 60_000),
          price_cents: lessonPriceCents(hourlyRate, request.minutes),
          status: instant ? 'confirmed' : 'pending',
          expires_at: instant ? null : new Date(requestExpiresAt(now, request.start)),
          idempotency_key: request.idempotencyKey ?? null,
          created_at: new Date(now),
          updated_at: new Date(now),
        })
        .returning(lessonRowColumns)
        .executeTakeFirstOrThrow();
      if (instant) await announce(deps, trx, lines, row, 'confirmed', 'both', { invitation: 'REQUEST' });
      else await announce(deps, trx, lines, row, 'requested', 'tutor');
    });
  } catch (error) {
    // A retry that raced its own first attempt finds the time taken, by the lesson it asked for.
    const refused = isOverlap(error) || isIdempotencyReplay(error) || error instanceof ApiError;
    const made = refused ? await replayed(db, request.studentId, request.idempotencyKey, now) : undefined;
    if (made) return { lesson: made, created: false };
    if (isOverlap(error)) throw new ApiError(409, lessonMessages.slotTaken, 'SLOT_UNAVAILABLE');
    throw error;
  }
  deps.mailer.deliverSoon();
  await pushLines(deps, lines);
  return { lesson: await findLesson(db, request.studentId, id, now), created: true };
}

/** The lesson locked for a change by one of its participants, or 404. */
async function lockLesson(trx: Transaction<DB>, userId: string, id: string): Promise<LessonRow> {
  const row = await trx
    .selectFrom('lessons')
    .select(lessonRowColumns)
    .where('id', '=', id)
    .where((eb) => eb.or([eb('tutor_id', '=', userId), eb('student_id', '=', userId)]))
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new ApiError(404, lessonMessages.notFound, 'NOT_FOUND');
  return row;
}

/** Runs a change in a transaction, then hands the mails to the worker and reads the lesson back. */
async function change(
  deps: LessonDeps,
  userId: string,
  id: string,
  now: number,
  work: (trx: Transaction<DB>, row: LessonRow, lines: Lines) => Promise<void>,
): Promise<LessonView> {
  const lines: Lines = [];
  try {
    await deps.db.transaction().execute(async (trx) => work(trx, await lockLesson(trx, userId, id), lines));
  } catch (error) {
    if (isOverlap(error)) throw new ApiError(409, lessonMessages.slotTaken, 'SLOT_UNAVAILABLE');
    throw error;
  }
  deps.mailer.deliverSoon();
  await pushLines(deps, lines);
  return findLesson(deps.db, userId, id, now);
}

/** The tutor's answer to a request. */
export function answerRequest(
  deps: LessonDeps,
  userId: string,
  id: string,
  answer: 'accept' | 'decline',
  now: number,
): Promise<LessonView> {
  return change(deps, userId, id, now, async (trx, row, lines) => {
    if (row.tutor_id !== userId) throw new ApiError(403, lessonMessages.tutorAnswers, 'FORBIDDEN');
    const status = statusAt(row, now);
    if (status === 'expired') throw new ApiError(409, lessonMessages.requestExpired, 'REQUEST_EXPIRED');
    if (status !== 'pending') throw new ApiError(409, lessonMessages.notPending, 'NOT_PENDING');
    const updated = await trx
      .updateTable('lessons')
      .set({
        status: answer === 'accept' ? 'confirmed' : 'declined',
        expires_at: null,
        updated_at: new Date(now),
      })
      .where('id', '=', row.id)
      .returning(lessonRowColumns)
      .executeTakeFirstOrThrow();
    if (answer === 'accept')
      await announce(deps, trx, lines, updated, 'confirmed', 'both', { invitation: 'REQUEST' });
    else await announce(deps, trx, lines, updated, 'declined', 'both');
  });
}

function checkChangeable(row: LessonRow, now: number) {
  const status = statusAt(row, now);
  if (!isPlanned(status)) throw new ApiError(409, lessonMessages.notActive, 'NOT_PLANNED');
  if (!canChange(row.starts_at.getTime(), now)) throw new ApiError(409, lessonMessages.cutoff, 'TOO_LATE');
  return status;
}

/** Either participant cancels, more than 24 hours before the start. */
export function cancelLesson(
  deps: LessonDeps,
  userId: string,
  id: string,
  reason: string | undefined,
  now: number,
): Promise<LessonView> {
  return change(deps, userId, id, now, async (trx, row, lines) => {
    const status = checkChangeable(row, now);
    const updated = await trx
      .updateTable('lessons')
      .set((eb) => ({
        status: 'cancelled',
        cancelled_by: userId,
        cancel_reason: reason || null,
        sequence: eb('sequence', '+', 1),
        updated_at: new Date(now),
      }))
      .where('id', '=', row.id)
      .returning(lessonRowColumns)
      .executeTakeFirstOrThrow();
    await announce(deps, trx, lines, updated, 'cancelled', 'both', {
      reason: reason ?? null,
      cancelledBy: userId,
      // A request was never in anyone's calendar; a confirmed lesson is taken out of it.
      ...(status === 'confirmed' ? { invitation: 'CANCEL' as const } : {}),
    });
  });
}

/**
 * The student moves a lesson to another time the tutor offers, of the same length, more than 24
 * hours before its current start. It stays the same lesson (its id, its calendar UID); its own
 * current time does not count as taken.
 */
export function rescheduleLesson(
  deps: LessonDeps,
  userId: string,
  id: string,
  start: number,
  now: number,
): Promise<LessonView> {
  return change(deps, userId, id, now, async (trx, row, lines) => {
    if (row.student_id !== userId) throw new ApiError(403, lessonMessages.studentMoves, 'FORBIDDEN');
    const status = checkChangeable(row, now);
    if (row.starts_at.getTime() === start)
      throw new ApiError(400, lessonMessages.sameTime, 'VALIDATION_ERROR');
    const availability = await readAvailability(trx, row.tutor_id);
    const offered = await slotsOf(trx, availability, {
      tutorId: row.tutor_id,
      studentId: row.student_id,
      from: start,
      to: start + 1,
      minutes: row.minutes,
      now,
      except: row.id,
    });
    if (!offered.some((slot) => slot.start === start))
      throw new ApiError(409, lessonMessages.slotTaken, 'SLOT_UNAVAILABLE');
    const end = start + row.minutes * 60_000;
    const created = await trx
      .selectFrom('lessons')
      .select('created_at')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    const updated = await trx
      .updateTable('lessons')
      .set((eb) => ({
        starts_at: new Date(start),
        ends_at: new Date(end),
        blocked_until: new Date(end + availability.bufferMinutes * 60_000),
        sequence: eb('sequence', '+', 1),
        expires_at:
          status === 'pending' ? new Date(requestExpiresAt(created.created_at.getTime(), start)) : null,
        updated_at: new Date(now),
      }))
      .where('id', '=', row.id)
      .returning(lessonRowColumns)
      .executeTakeFirstOrThrow();
    if (status === 'confirmed')
      await announce(deps, trx, lines, updated, 'rescheduled', 'both', {
        previousStart: row.starts_at,
        invitation: 'REQUEST',
      });
    else await announce(deps, trx, lines, updated, 'request-moved', 'both', { previousStart: row.starts_at });
  });
}

/**
 * A suspended user's upcoming lessons (not yet started, and not expired), cancelled in the
 * suspension's transaction: the other person of each is mailed (a confirmed lesson's invitation
 * withdrawn) and a line goes into their conversation; the suspended user is not mailed about each.
 */
export async function cancelLessonsOfSuspended(
  deps: LessonDeps,
  trx: Transaction<DB>,
  userId: string,
  now: number,
  lines: Lines,
): Promise<number> {
  // A request whose time to answer has run out is expired, not cancelled, even if no job has
  // written it yet: it is marked so first, with its own mail, as a booking does.
  await expireDue(deps, trx, now, lines, [userId]);
  const upcoming = await trx
    .selectFrom('lessons')
    .select(['id', 'status'])
    .where((eb) => eb.or([eb('tutor_id', '=', userId), eb('student_id', '=', userId)]))
    .where('status', 'in', ['pending', 'confirmed'])
    .where('starts_at', '>', new Date(now))
    .forUpdate()
    .execute();
  if (upcoming.length === 0) return 0;
  const cancelled = await trx
    .updateTable('lessons')
    .set((eb) => ({
      status: 'cancelled',
      // Neither of the lesson's people called it off: Tutorlane did.
      cancelled_by: null,
      cancel_reason: SUSPENSION_CANCEL_REASON,
      sequence: eb('sequence', '+', 1),
      updated_at: new Date(now),
    }))
    .where(
      'id',
      'in',
      upcoming.map((lesson) => lesson.id),
    )
    .returning(lessonRowColumns)
    .execute();
  const wasConfirmed = new Set(upcoming.filter((lesson) => lesson.status === 'confirmed').map((l) => l.id));
  for (const row of cancelled) {
    await announce(deps, trx, lines, row, 'cancelled', row.tutor_id === userId ? 'student' : 'tutor', {
      cancelledBy: userId,
      suspended: true,
      // A request was never in anyone's calendar; a confirmed lesson is taken out of it.
      ...(wasConfirmed.has(row.id) ? { invitation: 'CANCEL' as const } : {}),
    });
  }
  return cancelled.length;
}
