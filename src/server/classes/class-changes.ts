/**
 * A class made and called off: a published tutor creates it with its sessions (which then keep
 * the tutor's time, as lessons do, the database refusing an overlap); the tutor or an admin may
 * cancel it at any time; and the minute job cancels one that a day before its first session has
 * fewer students than its minimum. Cancelling gives every hold back in full and tells everyone,
 * the waitlist too.
 */
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { z } from 'zod';
import { CLASS_DECISION_HOURS, type classSchema } from '../../shared/classes/class-schemas';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import type { LessonDeps } from '../lessons/lesson-announcements';
import { isOverlap } from '../lessons/lesson-changes/lesson-change';
import { expireDue } from '../lessons/lifecycle/answer-moves';
import { bookableTutor } from '../lessons/slots';
import { openClassConversation } from '../messages/class-conversations';
import type { Listing } from '../platform/tutor-listing';
import { requireCatalogSubject } from '../settings/subject-catalog';
import { classMessages } from './class-records';
import { type ClassDeps, ClassMails, leaveClosed } from './enrolment';
import { giveUpSeats, type LockedClass, lockClass } from './seats';

const HOUR = 60 * 60 * 1000;
type ClassInput = z.output<typeof classSchema>;

/** Creates the class and its sessions; answers its id. */
export async function createClass(
  deps: ClassDeps & { listing: Listing; conversations: LessonDeps['conversations'] },
  tutorId: string,
  input: ClassInput,
  now: number,
): Promise<string> {
  const tutor = await bookableTutor(deps.db, tutorId, deps.listing);
  if (!tutor || tutor.hourly_rate === null) throw new ApiError(403, classMessages.notPublished, 'FORBIDDEN');
  if (!tutor.availability.lessonMinutes.includes(input.minutes))
    throw new ApiError(
      400,
      { text: classMessages.notYourLength, values: { lengths: tutor.availability.lessonMinutes.join(', ') } },
      'VALIDATION_ERROR',
      { field: 'minutes' },
    );
  const profile = await deps.db
    .selectFrom('tutor_profiles')
    .select('languages')
    .where('user_id', '=', tutorId)
    .executeTakeFirstOrThrow();
  if (!profile.languages.includes(input.language))
    throw new ApiError(400, classMessages.notYourLanguage, 'VALIDATION_ERROR', { field: 'language' });
  await requireCatalogSubject(deps.db, input.subject, /*i18n*/ 'Please choose a subject from the list');
  const past = input.sessions.findIndex((start) => start <= now);
  if (past >= 0)
    throw new ApiError(400, classMessages.pastSession, 'VALIDATION_ERROR', { field: `sessions.${past}` });
  const id = randomUUID();
  const first = input.sessions[0] ?? now;
  const buffer = tutor.availability.bufferMinutes * 60_000;
  try {
    await deps.db.transaction().execute(async (trx) => {
      await expireDue({ ...deps, conversations: deps.conversations }, trx, now, [], [tutorId]);
      await trx
        .insertInto('classes')
        .values({
          id,
          tutor_id: tutorId,
          title: input.title,
          subject: input.subject,
          language: input.language,
          description: input.description,
          minutes: input.minutes,
          seats: input.seats,
          min_students: input.minStudents,
          price_cents: input.priceCents,
          currency: deps.payments.currency,
          // Made less than a day before it starts: there is no time to wait for students.
          decided_at: first - CLASS_DECISION_HOURS * HOUR <= now ? new Date(now) : null,
          created_at: new Date(now),
          updated_at: new Date(now),
        })
        .execute();
      await openClassConversation(trx, { id, tutorId }, now);
      await trx
        .insertInto('class_sessions')
        .values(
          input.sessions.map((start) => ({
            id: randomUUID(),
            class_id: id,
            tutor_id: tutorId,
            starts_at: new Date(start),
            ends_at: new Date(start + input.minutes * 60_000),
            blocked_until: new Date(start + input.minutes * 60_000 + buffer),
          })),
        )
        .execute();
    });
  } catch (error) {
    if (isOverlap(error)) throw new ApiError(409, classMessages.timeTaken, 'SLOT_UNAVAILABLE');
    throw error;
  }
  return id;
}

/**
 * Calls the locked class off: every seat ahead given back in full, the sessions ahead cancelled,
 * the waitlist closed, and everyone told (the one who cancelled it too, as a record).
 */
async function callOff(
  deps: ClassDeps,
  trx: Transaction<DB>,
  cls: LockedClass,
  by: { actorId: string | null; reason: string | null; tooFew: boolean; now: number },
) {
  const { now } = by;
  const mails = new ClassMails(deps);
  const people = await trx
    .selectFrom('class_enrolments')
    .select(['student_id', 'status'])
    .where('class_id', '=', cls.id)
    .where('status', 'in', ['enrolled', 'waitlisted'])
    .orderBy('student_id')
    .execute();
  const event = by.tooFew ? 'too-few' : 'cancelled';
  for (const person of people) {
    const { seats } =
      person.status === 'enrolled'
        ? await giveUpSeats(trx, cls.id, person.student_id, {
            actorId: by.actorId,
            reason: by.reason,
            policy: false,
            now,
          })
        : { seats: [] };
    mails.add(event, person.student_id, { seats, reason: by.reason });
  }
  const sessions = await trx
    .updateTable('class_sessions')
    .set({ status: 'cancelled' })
    .where('class_id', '=', cls.id)
    .where('status', '=', 'scheduled')
    .where('starts_at', '>', new Date(now))
    .returning(['id', 'starts_at', 'ends_at'])
    .execute();
  await trx
    .updateTable('class_enrolments')
    .set({ status: 'cancelled', position: null, updated_at: new Date(now) })
    .where('class_id', '=', cls.id)
    .where('status', 'in', ['enrolled', 'waitlisted'])
    .execute();
  await trx
    .updateTable('classes')
    .set({
      status: 'cancelled',
      cancelled_by: by.actorId,
      cancel_reason: by.reason,
      cancelled_at: new Date(now),
      updated_at: new Date(now),
    })
    .where('id', '=', cls.id)
    .execute();
  mails.add(event, cls.tutor_id, {
    seats: sessions.map((session) => ({
      lessonId: session.id,
      start: session.starts_at,
      end: session.ends_at,
      sequence: 1,
    })),
    reason: by.reason,
  });
  await mails.queue(trx, cls);
}

/** Its tutor, or an admin (audited in the same transaction), cancels the class, saying why. */
export async function cancelClass(
  deps: ClassDeps,
  classId: string,
  by: {
    actorId: string;
    byTutor: boolean;
    reason: string;
    now: number;
    audit: (trx: Transaction<DB>) => Promise<void>;
  },
) {
  await deps.db.transaction().execute(async (trx) => {
    const cls = await lockClass(trx, classId);
    if (!cls) throw new ApiError(404, classMessages.notFound, 'NOT_FOUND');
    if (cls.status === 'cancelled') throw new ApiError(409, classMessages.cancelled, 'CLASS_CANCELLED');
    // The school's own cancellations name no person on the seats, as a lesson's do.
    await callOff(deps, trx, cls, {
      actorId: by.byTutor ? by.actorId : null,
      reason: by.reason,
      tooFew: false,
      now: by.now,
    });
    if (!by.byTutor) await by.audit(trx);
  });
  deps.mailer.deliverSoon();
}

/**
 * The minute job's decisions: each class whose decision time (a day before its first session)
 * has come is held, or cancelled when it has fewer students than its minimum. Each is decided in
 * its own transaction holding its row, so with several servers each class is decided once.
 */
export async function decideClasses(
  deps: ClassDeps,
  now: number,
): Promise<{ held: number; cancelled: number }> {
  const due = await deps.db
    .selectFrom('classes as c')
    .select('c.id')
    .where('c.status', '=', 'scheduled')
    .where('c.decided_at', 'is', null)
    .where((eb) =>
      eb(
        eb
          .selectFrom('class_sessions as s')
          .select((inner) => inner.fn.min('s.starts_at').as('first'))
          .whereRef('s.class_id', '=', 'c.id')
          .where('s.status', '=', 'scheduled'),
        '<=',
        new Date(now + CLASS_DECISION_HOURS * HOUR),
      ),
    )
    .execute();
  let held = 0;
  let cancelled = 0;
  for (const { id } of due) {
    await deps.db.transaction().execute(async (trx) => {
      const cls = await lockClass(trx, id);
      if (cls?.status !== 'scheduled' || cls.decided_at !== null) return;
      if (cls.seats_taken < cls.min_students) {
        await callOff(deps, trx, cls, {
          actorId: null,
          reason: /*i18n*/ 'Too few students enrolled',
          tooFew: true,
          now,
        });
        cancelled += 1;
      } else {
        await trx
          .updateTable('classes')
          .set({ decided_at: new Date(now) })
          .where('id', '=', id)
          .execute();
        held += 1;
      }
    });
  }
  if (cancelled > 0) deps.mailer.deliverSoon();
  return { held, cancelled };
}

/**
 * A suspended or deleted account's classes, in that transaction: a tutor's classes ahead are
 * cancelled (everyone told, without the reason, which is the school's own business); a student
 * leaves every class they are in, their seats given back in full and the waitlist moving up.
 */
export async function closeClassesOf(deps: ClassDeps, trx: Transaction<DB>, userId: string, now: number) {
  const taught = await trx
    .selectFrom('classes')
    .select('id')
    .where('tutor_id', '=', userId)
    .where('status', '=', 'scheduled')
    .orderBy('id')
    .execute();
  for (const { id } of taught) {
    const cls = await lockClass(trx, id);
    if (cls) await callOff(deps, trx, cls, { actorId: null, reason: null, tooFew: false, now });
  }
  const joined = await trx
    .selectFrom('class_enrolments')
    .select('class_id')
    .where('student_id', '=', userId)
    .where('status', 'in', ['enrolled', 'waitlisted'])
    .orderBy('class_id')
    .execute();
  for (const { class_id } of joined) await leaveClosed(deps, trx, class_id, userId, now);
}
