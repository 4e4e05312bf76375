/**
 * How a change to a lesson is told, in its transaction: mails to the lesson's people, and a line
 * in their conversation, pushed live once the transaction has committed. So a mail exists exactly
 * when its change does.
 *
 * Families: what is told to a lesson's student is told to their paying parent too, and only to the
 * parent when the student is a child without a login (whose address nobody reads); a request a
 * linked child makes is told to the parent as well. What the tutor gets names the child by first
 * name, and never the parent's address (./lesson-invitation.ts).
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB, MessageEvent } from '../db/schema';
import type { Mailer } from '../mail/mailer';
import { tutorShare } from '../money/ledger';
import type { PaymentRules } from '../money/lesson-payments';
import { hasLogin } from '../platform/family-links';
import type { Listing } from '../platform/tutor-listing';
import type { LessonEvent, lessonMail, MailLesson, MailPerson, MailSettings } from './lesson-mail';
import { lessonMailToQueue } from './lesson-mail-template';
import type { Db, LessonRow } from './lesson-records';
import { type SeriesEvent, seriesMail } from './series-mail';

/** A line written about a lesson into its pair's conversation, for whom it is to be pushed to. */
export interface ConversationLine {
  message: object;
  recipients: string[];
}

/**
 * What lessons need of the conversations (src/server/messages): a line about a lesson, written in
 * the lesson's own transaction. Passed in, as the live hub is, so the conversations may read
 * lessons without the two features importing each other.
 */
export interface LessonConversations {
  lessonLine(
    trx: Transaction<DB>,
    pair: { studentId: string; tutorId: string; readingParent?: string | null },
    facts: MessageEvent,
    text: string,
  ): Promise<ConversationLine>;
}

export interface LessonDeps {
  db: Kysely<DB>;
  mailer: Mailer;
  mail: MailSettings;
  /** Where lessons write their lines. */
  conversations: LessonConversations;
  /**
   * Where the lines lessons write into their pair's conversation are pushed live (the live hub;
   * it takes the message the conversations made).
   */
  live?:
    | { messageSent(message: ConversationLine['message'], recipients: string[]): Promise<void> }
    | undefined;
  /** Which tutors are listed, and so bookable (only approved ones, where approval is required). */
  listing?: Listing | undefined;
  /** Whether a booking holds its price, in what currency, and the school's commission. */
  payments: PaymentRules;
}

/** Lines written into conversations during a transaction, pushed live once it has committed. */
export type Lines = ConversationLine[];

export async function pushLines(deps: LessonDeps, lines: Lines) {
  for (const line of lines) await deps.live?.messageSent(line.message, line.recipients);
}

/** The line each event writes into the conversation; none for a proposal, which is only mailed. */
const LINE_EVENT: Record<LessonEvent, MessageEvent['event'] | null> = {
  requested: 'requested',
  confirmed: 'confirmed',
  declined: 'declined',
  expired: 'expired',
  cancelled: 'cancelled',
  rescheduled: 'rescheduled',
  'request-moved': 'rescheduled',
  proposed: null,
  'proposal-declined': null,
};
const LINE_VERB: Record<MessageEvent['event'], string> = {
  requested: 'requested',
  confirmed: 'confirmed',
  declined: 'declined',
  expired: 'request expired',
  cancelled: 'cancelled',
  rescheduled: 'moved',
};

/** The people mails go to, by id: their name, address, zone and language. */
export async function mailPeople(db: Db, ids: string[]): Promise<Map<string, MailPerson>> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'display_name', 'email', 'time_zone', 'language'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [row.id, mailPersonOf(row)]));
}

/** A user's row as their mails need it. */
export const mailPersonOf = (row: {
  id: string;
  display_name: string;
  email: string;
  time_zone: string | null;
  language: string | null;
}): MailPerson => ({
  id: row.id,
  displayName: row.display_name,
  email: row.email,
  timeZone: row.time_zone,
  language: row.language,
});

/** A student's paying parent, and whether the student has a login of their own. */
export async function familyOfStudent(db: Db, studentId: string) {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('family_links as f', 'f.student_id', 'u.id')
    .select('f.parent_id')
    .select(hasLogin('u.id').as('has_login'))
    .where('u.id', '=', studentId)
    .executeTakeFirst();
  return { parentId: row?.parent_id ?? null, hasLogin: Boolean(row?.has_login) };
}

/**
 * A lesson as its mails need it, in one statement: its tutor, its student and the student's paying
 * parent (name, address, zone, language), whether the student has a login of their own, and what
 * the tutor is paid for it while its price is held: the price less the commission stored on the
 * lesson when it was held, split by the settlement's own rule. Nothing is paid when nothing is held
 * (booked while payments were off, or free): the school then pays the tutor nothing through Tutorlane.
 */
async function mailLesson(db: Db, row: LessonRow): Promise<MailLesson> {
  const found = await db
    .selectFrom('lessons as l')
    .leftJoin('family_links as f', 'f.student_id', 'l.student_id')
    .innerJoin('users as u', (join) =>
      join.on((eb) =>
        eb.or([
          eb('u.id', '=', eb.ref('l.tutor_id')),
          eb('u.id', '=', eb.ref('l.student_id')),
          eb('u.id', '=', eb.ref('f.parent_id')),
        ]),
      ),
    )
    .select(['u.id', 'u.display_name', 'u.email', 'u.time_zone', 'u.language'])
    .select(['f.parent_id', 'l.payment_status', 'l.commission_percent'])
    .select(hasLogin('l.student_id').as('has_login'))
    .where('l.id', '=', row.id)
    .execute();
  const people = new Map(
    found.map((person): [string, MailPerson] => [
      person.id,
      {
        id: person.id,
        displayName: person.display_name,
        email: person.email,
        timeZone: person.time_zone,
        language: person.language,
      },
    ]),
  );
  const tutor = people.get(row.tutor_id);
  const student = people.get(row.student_id);
  const [facts] = found;
  if (!tutor || !student || !facts) throw new Error(`lesson ${row.id} has lost a participant`);
  const commission = facts.payment_status === 'held' ? facts.commission_percent : null;
  const parent = facts.parent_id ? (people.get(facts.parent_id) ?? null) : null;
  return mailLessonOf(row, { tutor, student, parent }, Boolean(facts.has_login), commission);
}

/** A lesson as its mails say it, given its people and the commission its held price was taken at. */
function mailLessonOf(
  row: LessonRow,
  people: { tutor: MailPerson; student: MailPerson; parent: MailPerson | null },
  studentHasLogin: boolean,
  commission: number | null,
): MailLesson {
  return {
    parent: people.parent,
    studentHasLogin,
    tutorEarnings:
      commission === null
        ? null
        : { amountCents: tutorShare(row.price_cents, commission), commissionPercent: commission },
    id: row.id,
    subject: row.subject,
    note: row.note,
    start: row.starts_at,
    end: row.ends_at,
    priceCents: row.price_cents,
    currency: row.currency,
    sequence: row.sequence,
    tutor: people.tutor,
    student: people.student,
  };
}

/**
 * A new lesson's people as its booking read them (lockPeople): by id, with the student's parent
 * (by the family link) and whether the student has a login of their own.
 */
export interface KnownPeople {
  people: Map<string, MailPerson>;
  parentId: string | null;
  studentHasLogin: boolean;
}

/**
 * A just-booked lesson as its mails need it, from the people its booking read and what its row
 * holds (it was written with its payment): undefined when someone it needs was not read.
 */
function mailLessonFrom(row: LessonRow, known: KnownPeople, commissionPercent: number | null) {
  const tutor = known.people.get(row.tutor_id);
  const student = known.people.get(row.student_id);
  const parent = known.parentId === null ? null : known.people.get(known.parentId);
  if (!tutor || !student || parent === undefined) return undefined;
  const commission = row.payment_status === 'held' ? commissionPercent : null;
  return mailLessonOf(row, { tutor, student, parent }, known.studentHasLogin, commission);
}

type Recipients = 'tutor' | 'student' | 'both';

/** The parent who reads for a child without a login, whose conversation a lesson's lines go to. */
const readingParentOf = (lesson: MailLesson) =>
  lesson.parent && !lesson.studentHasLogin ? lesson.parent.id : null;

/**
 * Who reads what is told to a lesson's student: the student, their paying parent as well, or the
 * parent alone for a child without a login.
 */
const studentSide = (lesson: MailLesson): MailPerson[] =>
  lesson.parent
    ? lesson.studentHasLogin
      ? [lesson.student, lesson.parent]
      : [lesson.parent]
    : [lesson.student];

/**
 * The readers of an event told to `to`; a request the student made themselves is told to their
 * paying parent as well ("Emma booked a lesson"), whose wallet it holds.
 */
function readersOf(lesson: MailLesson, to: Recipients, event: string, bookedBy: string | null | undefined) {
  const readers =
    to === 'both'
      ? [lesson.tutor, ...studentSide(lesson)]
      : to === 'tutor'
        ? [lesson.tutor]
        : studentSide(lesson);
  if (
    event === 'requested' &&
    lesson.parent &&
    bookedBy === lesson.student.id &&
    !readers.some((reader) => reader.id === lesson.parent?.id)
  )
    readers.push(lesson.parent);
  return readers;
}

/**
 * Tells of a change, in its transaction: mails to `to`, and a line in the pair's conversation
 * (each reader's screen words it in their own zone from its facts; the text is for anything else).
 */
export async function announce(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lines: Lines,
  row: LessonRow,
  event: LessonEvent,
  to: Recipients,
  extra: Parameters<typeof lessonMail>[4] = {},
  /** A new lesson's people, as its booking read them: its mails then read nothing more. */
  known?: { people: KnownPeople; commissionPercent: number | null },
) {
  const lesson =
    (known && mailLessonFrom(row, known.people, known.commissionPercent)) ?? (await mailLesson(trx, row));
  const readers = readersOf(lesson, to, event, extra.bookedBy);
  // Queued as their facts: the mail worker writes them once the change has committed.
  await deps.mailer.sendMails(
    readers.map((reader) => lessonMailToQueue(event, lesson, reader, extra)),
    trx,
  );
  const lineEvent = LINE_EVENT[event];
  if (lineEvent === null) return;
  const facts: MessageEvent = {
    event: lineEvent,
    lessonId: row.id,
    start: row.starts_at.toISOString(),
    end: row.ends_at.toISOString(),
    subject: row.subject,
  };
  const when = `${facts.start.slice(0, 16).replace('T', ' ')} UTC`;
  lines.push(
    await deps.conversations.lessonLine(
      trx,
      // Who reads a child's lines was read with the lesson's people: not read again.
      { studentId: row.student_id, tutorId: row.tutor_id, readingParent: readingParentOf(lesson) },
      facts,
      `${row.subject} lesson ${LINE_VERB[facts.event]}: ${when}`,
    ),
  );
}

/**
 * Tells of a weekly series booked or answered as a whole: one mail to each reader in `to` for all
 * its weeks, and one line in the pair's conversation, about its first week (a line per week would
 * bury the conversation).
 */
export async function announceSeries(
  deps: LessonDeps,
  trx: Transaction<DB>,
  lines: Lines,
  rows: LessonRow[],
  event: SeriesEvent,
  to: Recipients,
  skipped: Date[] = [],
  /** Who booked it, when it is being booked. */
  bookedBy: string | null = null,
) {
  const [first] = rows;
  if (!first) return;
  const lessons = await Promise.all(rows.map((row) => mailLesson(trx, row)));
  const [lesson] = lessons;
  if (!lesson) return;
  const readers = readersOf(lesson, to, event, bookedBy);
  await deps.mailer.sendMails(
    readers.map((reader) => seriesMail(event, lessons, reader, deps.mail, skipped, bookedBy)),
    trx,
  );
  const facts: MessageEvent = {
    event,
    lessonId: first.id,
    start: first.starts_at.toISOString(),
    end: first.ends_at.toISOString(),
    subject: first.subject,
  };
  const when = `${facts.start.slice(0, 16).replace('T', ' ')} UTC`;
  lines.push(
    await deps.conversations.lessonLine(
      trx,
      { studentId: first.student_id, tutorId: first.tutor_id },
      facts,
      `Weekly ${first.subject} lessons ${LINE_VERB[event]} (${rows.length}), from ${when}`,
    ),
  );
}
