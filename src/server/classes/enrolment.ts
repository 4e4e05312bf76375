/**
 * Enrolling in a class, waiting for a seat, leaving, and being removed. Each runs in one
 * transaction holding the class's row, so of students enrolling at once each sees the seats the
 * others left; the seat count is also checked by the database (classes_seats_taken). A seat that
 * frees up goes, in the same transaction, to the first student on the waitlist whose balance
 * covers it; one who cannot pay keeps their place and is told.
 */
import type { Transaction } from 'kysely';
import type { ClassEnrolmentStatus, DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { type KnownPeople, type LessonDeps, mailPersonOf } from '../lessons/lesson-announcements';
import { lockPeople } from '../lessons/lesson-changes/lesson-change';
import type { MailPerson } from '../lessons/lesson-invitation';
import type { TemplatedMail } from '../mail/mailer';
import { joinClassConversation, leaveClassConversation } from '../messages/class-conversations';
import { isBelowZero, missingFor } from '../money/booking-hold';
import { type Booker, bookerOf, checkFamilyLimit, payingParentOf } from '../money/family-payer';
import { checkBalanceCovers, insufficientBalance } from '../money/lesson-payments';
import { hasLogin } from '../platform/family-links';
import type { ClassEvent, ClassMailFacts, MailClass } from './class-mail';
import { classMailToQueue } from './class-mail-template';
import { classMessages } from './class-records';
import {
  balanceCovers,
  giveUpSeats,
  joinWaitlist,
  type LockedClass,
  lockClass,
  seatStudent,
  sessionsAhead,
  studentBusyAt,
  takeSeats,
} from './seats';

export type ClassDeps = Pick<LessonDeps, 'db' | 'mailer' | 'mail' | 'payments'>;

export interface Standing {
  status: 'enrolled' | 'waitlisted';
  position: number | null;
}

/** What a mail says, its other person named by id. */
type Facts = Omit<ClassMailFacts, 'student'> & { studentId?: string };

/** Everyone named, with whoever reads for them (their paying parent too, or instead), in one read. */
async function readPeople(trx: Transaction<DB>, named: string[], tutorId: string) {
  const rows = await trx
    .selectFrom('users as u')
    .leftJoin('family_links as f', 'f.student_id', 'u.id')
    .leftJoin('users as p', 'p.id', 'f.parent_id')
    .select(['u.id', 'u.display_name', 'u.email', 'u.time_zone', 'u.language', 'f.parent_id'])
    .select([
      'p.display_name as parent_name',
      'p.email as parent_email',
      'p.time_zone as parent_time_zone',
      'p.language as parent_language',
    ])
    .select(hasLogin('u.id').as('has_login'))
    .where('u.id', 'in', [...new Set(named)])
    .execute();
  const people = new Map<string, MailPerson>();
  const readers = new Map<string, string[]>();
  for (const row of rows) {
    people.set(row.id, mailPersonOf(row));
    if (row.parent_id && row.parent_email !== null)
      people.set(row.parent_id, {
        id: row.parent_id,
        displayName: row.parent_name ?? '',
        email: row.parent_email,
        timeZone: row.parent_time_zone,
        language: row.parent_language,
      });
    if (row.id !== tutorId)
      readers.set(
        row.id,
        row.parent_id ? (row.has_login ? [row.id, row.parent_id] : [row.parent_id]) : [row.id],
      );
  }
  return { people, readers };
}

/** Mails about one class, written once the change knows who gets what. */
export class ClassMails {
  private readonly wanted: { event: ClassEvent; to: string; facts: Facts }[] = [];
  /**
   * @param known the people the change locked (the tutor, one student and their paying parent,
   * with the student's family): mails to them alone read nobody again.
   */
  constructor(
    private readonly deps: ClassDeps,
    private readonly known?: { studentId: string; people: KnownPeople },
  ) {}

  add(event: ClassEvent, to: string, facts: Facts) {
    this.wanted.push({ event, to, facts });
  }

  /** Who is named and who reads for each, from the people the change locked, when it read them all. */
  private fromKnown(named: string[]) {
    if (!this.known) return undefined;
    const { studentId, people: known } = this.known;
    const { parentId, studentHasLogin } = known;
    if (parentId !== null && !known.people.has(parentId)) return undefined;
    if (!named.every((id) => known.people.has(id))) return undefined;
    const readers = new Map([
      [studentId, parentId ? (studentHasLogin ? [studentId, parentId] : [parentId]) : [studentId]],
    ]);
    return { people: known.people, readers };
  }

  async queue(trx: Transaction<DB>, cls: LockedClass) {
    if (this.wanted.length === 0) return;
    // What is told to a student with a paying parent is told to the parent too, and to the parent
    // alone for a child without a login (whose address nobody reads), as a lesson's mails are.
    // Everyone named, their paying parent and whether they have a login, in one statement.
    const named = [
      cls.tutor_id,
      ...this.wanted.flatMap((mail) => [mail.to, mail.facts.studentId ?? mail.to]),
    ];
    const { people, readers } = this.fromKnown(named) ?? (await readPeople(trx, named, cls.tutor_id));
    const readersOf = (to: string) => readers.get(to) ?? [to];
    const tutor = people.get(cls.tutor_id);
    if (!tutor) return;
    const about: MailClass = {
      id: cls.id,
      title: cls.title,
      subject: cls.subject,
      minStudents: cls.min_students,
      priceCents: cls.price_cents,
      currency: cls.currency,
      tutor,
    };
    const mails: TemplatedMail[] = [];
    for (const { event, to, facts } of this.wanted) {
      const { studentId, ...rest } = facts;
      const student = studentId === undefined ? undefined : people.get(studentId);
      for (const id of readersOf(to)) {
        const reader = people.get(id);
        if (reader)
          mails.push(classMailToQueue(event, about, reader, { ...rest, ...(student ? { student } : {}) }));
      }
    }
    await this.deps.mailer.sendMails(mails, trx);
  }
}

/** Closes the gap a student leaving the waitlist at `position` leaves behind them. */
async function closeGap(trx: Transaction<DB>, classId: string, position: number) {
  await trx
    .updateTable('class_enrolments')
    .set((eb) => ({ position: eb('position', '-', 1) }))
    .where('class_id', '=', classId)
    .where('status', '=', 'waitlisted')
    .where('position', '>', position)
    .execute();
}

async function setStanding(
  trx: Transaction<DB>,
  classId: string,
  studentId: string,
  standing: { status: ClassEnrolmentStatus; position: number | null; key?: string | null },
  now: number,
) {
  await trx
    .insertInto('class_enrolments')
    .values({
      class_id: classId,
      student_id: studentId,
      status: standing.status,
      position: standing.position,
      idempotency_key: standing.key ?? null,
      enrolled_at: standing.status === 'enrolled' ? new Date(now) : null,
      created_at: new Date(now),
      updated_at: new Date(now),
    })
    .onConflict((oc) =>
      oc.columns(['class_id', 'student_id']).doUpdateSet({
        status: standing.status,
        position: standing.position,
        ...(standing.status === 'enrolled' ? { enrolled_at: new Date(now) } : {}),
        updated_at: new Date(now),
      }),
    )
    .execute();
}

async function countSeat(trx: Transaction<DB>, cls: LockedClass, change: 1 | -1) {
  const row = await trx
    .updateTable('classes')
    .set((eb) => ({ seats_taken: eb('seats_taken', '+', change), updated_at: new Date() }))
    .where('id', '=', cls.id)
    .returning('seats_taken')
    .executeTakeFirstOrThrow();
  cls.seats_taken = row.seats_taken;
}

/**
 * Gives free seats to the waitlist, first come first served: each student whose balance covers
 * the sessions ahead (and who is free at their times) is enrolled and mailed; the others keep
 * their place and are told a seat was free.
 */
export async function fillFreeSeats(
  deps: ClassDeps,
  trx: Transaction<DB>,
  cls: LockedClass,
  mails: ClassMails,
  now: number,
) {
  if (cls.status !== 'scheduled' || cls.seats_taken >= cls.seats) return;
  const sessions = await sessionsAhead(trx, cls.id, now);
  if (sessions.length === 0) return;
  const total = cls.price_cents * sessions.length;
  const waiting = await trx
    .selectFrom('class_enrolments')
    .select(['student_id', 'position'])
    .where('class_id', '=', cls.id)
    .where('status', '=', 'waitlisted')
    .orderBy('position')
    .execute();
  let promoted = 0;
  for (const entry of waiting) {
    if (cls.seats_taken >= cls.seats) break;
    const position = (entry.position ?? 0) - promoted;
    const booker = await bookerOf(trx, entry.student_id);
    if (
      !(await balanceCovers(trx, deps.payments, booker, total, now)) ||
      (await studentBusyAt(trx, entry.student_id, sessions))
    ) {
      mails.add('seat-free', entry.student_id, { seats: [], total });
      continue;
    }
    const seats = await takeSeats(trx, deps.payments, cls, booker, sessions, now);
    await seatStudent(trx, cls, entry.student_id, null, now);
    await joinClassConversation(trx, cls.id, entry.student_id, now);
    await closeGap(trx, cls.id, position);
    promoted += 1;
    mails.add('promoted', entry.student_id, { seats });
    mails.add('joined', cls.tutor_id, { seats: [], studentId: entry.student_id });
  }
}

/** Where the student stands in the class, if anywhere; its row locked until the change commits. */
const standingOf = (trx: Transaction<DB>, classId: string, studentId: string) =>
  trx
    .selectFrom('class_enrolments')
    .select(['status', 'position'])
    .where('class_id', '=', classId)
    .where('student_id', '=', studentId)
    .forUpdate()
    .executeTakeFirst();

/**
 * A change to one student's place, in one transaction: the people's rows first (and the paying
 * parent's), then the class's
 * (the order a booking takes before any money), then the student's standing. 404 for no class.
 */
async function withClassLocked<T>(
  deps: ClassDeps,
  classId: string,
  studentId: string,
  /** The paying parent's id when the caller knows it already (null: none), else looked up. */
  payerParentId: string | null | undefined,
  work: (
    trx: Transaction<DB>,
    cls: LockedClass,
    place: Awaited<ReturnType<typeof standingOf>>,
    people: KnownPeople,
  ) => Promise<T>,
): Promise<T> {
  const found = await deps.db
    .selectFrom('classes')
    .select('tutor_id')
    .where('id', '=', classId)
    .executeTakeFirst();
  if (!found) throw new ApiError(404, classMessages.notFound, 'NOT_FOUND');
  // The parent whose money a seat moves is locked with the people, as a booking locks them.
  const parentId =
    payerParentId === undefined ? (await payingParentOf(deps.db, studentId))?.parentId : payerParentId;
  return deps.db.transaction().execute(async (trx) => {
    const people = await lockPeople(trx, found.tutor_id, studentId, parentId ?? undefined);
    const cls = await lockClass(trx, classId);
    if (!cls) throw new ApiError(404, classMessages.notFound, 'NOT_FOUND');
    return work(trx, cls, await standingOf(trx, classId, studentId), people);
  });
}

/**
 * Enrols the student, or puts them on the waitlist when no seat is left. The seats' holds take
 * the payer's balance without reading it first, as a booking's does: the database refuses one
 * that would take it below zero, and the student is told what is missing (or, when the balance
 * has come to cover it meanwhile, enrolled carefully, the balance locked and read first). A
 * parent's monthly limit always takes the careful path, since it is settled like the balance.
 */
export async function enrol(
  deps: ClassDeps,
  classId: string,
  booker: Booker,
  key: string | undefined,
  now: number,
): Promise<{ standing: Standing; created: boolean }> {
  const { studentId } = booker;
  // The booker was read with its paying parent: the parent's row is locked with the people.
  const parentId = booker.payerId === studentId ? null : booker.payerId;
  const limited = deps.payments.on && booker.parent?.monthlyLimitCents != null;
  /** What the last attempt's seats take from the payer's balance. */
  let total = 0;
  const attempt = (careful: boolean) =>
    withClassLocked(deps, classId, studentId, parentId, async (trx, cls, place, people) => {
      const mails = new ClassMails(deps, { studentId, people });
      if (place?.status === 'enrolled' || place?.status === 'waitlisted')
        return {
          standing: { status: place.status as Standing['status'], position: place.position },
          created: false,
        };
      const sessions = await sessionsAhead(trx, classId, now);
      if (cls.status !== 'scheduled' || sessions.length === 0)
        throw new ApiError(409, classMessages.closed, 'CLASS_CLOSED');
      if (cls.seats_taken >= cls.seats) {
        const position = await joinWaitlist(trx, classId, studentId, key, now);
        return { standing: { status: 'waitlisted' as const, position }, created: true };
      }
      if (await studentBusyAt(trx, studentId, sessions))
        throw new ApiError(409, classMessages.studentBusy, 'SLOT_UNAVAILABLE');
      total = cls.price_cents * sessions.length;
      if (careful || limited) {
        await checkBalanceCovers(trx, deps.payments, booker.payerId, total);
        if (deps.payments.on) await checkFamilyLimit(trx, booker, total, deps.payments.currency, now);
      }
      const seats = await takeSeats(trx, deps.payments, cls, booker, sessions, now);
      await seatStudent(trx, cls, studentId, key, now);
      await joinClassConversation(trx, classId, studentId, now);
      mails.add('enrolled', studentId, { seats });
      mails.add('joined', cls.tutor_id, { seats: [], studentId: studentId });
      await mails.queue(trx, cls);
      return { standing: { status: 'enrolled' as const, position: null }, created: true };
    });
  let result: Awaited<ReturnType<typeof attempt>>;
  try {
    result = await attempt(false);
  } catch (error) {
    if (!isBelowZero(error)) throw error;
    const missing = await missingFor(deps.db, booker.payerId, total);
    if (missing > 0) throw insufficientBalance(missing, deps.payments.currency);
    result = await attempt(true);
  }
  if (result.created) deps.mailer.deliverSoon();
  return result;
}

/**
 * Takes the student out of the class: off the waitlist, or out of their seats (as `by` says: the
 * student leaving under the policy, or an admin removing them, everything given back). The seat
 * goes to the waitlist at once.
 */
export async function takeOut(
  deps: ClassDeps,
  classId: string,
  studentId: string,
  by: {
    actorId: string;
    admin: boolean;
    reason: string | null;
    now: number;
    /** An admin's removal, audited in its transaction. */
    audit?: (trx: Transaction<DB>) => Promise<void>;
  },
): Promise<void> {
  const { now } = by;
  await withClassLocked(deps, classId, studentId, undefined, async (trx, cls, place, people) => {
    // Leaving tells the student and the tutor, whom the change locked; a seat given on tells others.
    const mails = new ClassMails(deps, { studentId, people });
    if (place?.status !== 'enrolled' && place?.status !== 'waitlisted')
      throw new ApiError(409, by.admin ? classMessages.notAStudent : classMessages.notIn, 'NOT_ENROLLED');
    const leftAs = by.admin ? 'removed' : 'left';
    await setStanding(trx, classId, studentId, { status: leftAs, position: null }, now);
    await leaveClassConversation(trx, classId, studentId, now);
    if (place.status === 'waitlisted') {
      await closeGap(trx, classId, place.position ?? 0);
      if (by.admin) mails.add('removed', studentId, { seats: [], reason: by.reason });
    } else {
      const { seats, fee } = await giveUpSeats(trx, classId, studentId, {
        actorId: by.admin ? null : studentId,
        reason: by.reason,
        policy: !by.admin,
        now,
      });
      await countSeat(trx, cls, -1);
      mails.add(leftAs, studentId, { seats, fee, reason: by.reason });
      mails.add('student-left', cls.tutor_id, { seats: [], studentId: studentId });
      await fillFreeSeats(deps, trx, cls, mails, now);
    }
    await mails.queue(trx, cls);
    await by.audit?.(trx);
  });
  deps.mailer.deliverSoon();
}

/** A closed account's place in a class, given up without mail to them; the seat goes on. */
export async function leaveClosed(
  deps: ClassDeps,
  trx: Transaction<DB>,
  classId: string,
  studentId: string,
  now: number,
) {
  const cls = await lockClass(trx, classId);
  if (!cls) return;
  const place = await standingOf(trx, classId, studentId);
  await setStanding(trx, classId, studentId, { status: 'cancelled', position: null }, now);
  await leaveClassConversation(trx, classId, studentId, now);
  const mails = new ClassMails(deps);
  if (place?.status === 'waitlisted') await closeGap(trx, classId, place.position ?? 0);
  else if (place?.status === 'enrolled') {
    await giveUpSeats(trx, classId, studentId, { actorId: null, reason: null, policy: false, now });
    await countSeat(trx, cls, -1);
    await fillFreeSeats(deps, trx, cls, mails, now);
  }
  await mails.queue(trx, cls);
}
