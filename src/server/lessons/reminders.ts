/**
 * The reminders' minute job: each person of a confirmed lesson is mailed 24 hours and 1 hour
 * before it starts (see ./reminders-rules.ts for which is due when), in their own zone.
 *
 * Each reminder goes out once, whatever number of servers run this job on one database and
 * however often they restart: its row in lesson_reminders, keyed by lesson, person, kind and the
 * lesson's start, is inserted in the transaction that queues its mail, and a key already there is
 * skipped (`on conflict do nothing`), so only the transaction that wrote the row queues the mail.
 *
 * The lessons are read in batches, each in one transaction with its rows locked for share: a
 * cancellation or a move in progress is skipped (its lesson is looked at again next minute), and
 * one that starts after the read waits for the batch to commit, so a reminder is never queued for
 * a lesson that was no longer confirmed at its start.
 *
 * A student's seat in a group class is a lesson, so each student is reminded per seat; the class's
 * tutor, who is the tutor of every seat, is reminded once per session. Their reminder's row is
 * written against whichever seat carried it, and a seat whose session already has the tutor's
 * row of that kind at that start carries none. The check and the insert are made under a
 * transaction lock per session and kind, so two servers, or two batches holding seats of one
 * session, never both send it, even when the seats changed between their reads.
 *
 * Families: a student's paying parent is reminded too, as a person of the lesson with a row of
 * their own (so each is reminded once), and a child without a login is not (nobody reads their
 * address); the parent then stands for them. The parent's own reminder preferences apply.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { Logger } from '../logging/logger';
import type { Mailer } from '../mail/mailer';
import { type MinuteJobObserver, startMinuteJob } from '../platform/minute-job';
import type { MailLesson, MailPerson, MailSettings } from './lesson-mail';
import { type ReminderClass, reminderMail } from './reminders-mail';
import { dueReminder, REMINDER_OFFSET_MS, type ReminderKind } from './reminders-rules';

export interface ReminderDeps {
  db: Kysely<DB>;
  mailer: Mailer;
  mail: MailSettings;
}

/** Lessons read, and reminders written, per transaction. */
const BATCH_SIZE = 500;

interface Candidate {
  id: string;
  starts_at: Date;
  ends_at: Date;
  updated_at: Date;
  subject: string;
  note: string;
  price_cents: number;
  currency: string;
  sequence: number;
  tutor_id: string;
  tutor_name: string;
  tutor_email: string;
  tutor_zone: string | null;
  tutor_language: string | null;
  tutor_day: boolean;
  tutor_hour: boolean;
  student_id: string;
  student_name: string;
  student_email: string;
  student_zone: string | null;
  student_language: string | null;
  student_day: boolean;
  student_hour: boolean;
  /** Whether the student has a login of their own (false: a child their parent acts for). */
  student_login: boolean;
  /** The student's paying parent, when one pays for them (all null otherwise). */
  parent_id: string | null;
  parent_name: string | null;
  parent_email: string | null;
  parent_zone: string | null;
  parent_language: string | null;
  parent_day: boolean | null;
  parent_hour: boolean | null;
  /** The class session this lesson is a seat in, or null for a one-to-one lesson. */
  class_session_id: string | null;
  class_id: string | null;
  class_title: string | null;
  /** The seats held in that session now. */
  class_students: string | number | null;
  /** Whether the tutor was already reminded of that session, of the kind due now, via any seat. */
  tutor_reminded: boolean | null;
}

/**
 * The next batch of confirmed lessons that may have a reminder due, after `after` in start order.
 * The database narrows the list (the window, the time it was confirmed at, not both people already
 * reminded); ./reminders-rules.ts decides for each person.
 */
function candidates(trx: Transaction<DB>, now: number, after: { start: Date; id: string } | undefined) {
  const hourAhead = new Date(now + REMINDER_OFFSET_MS.hour);
  const dayAhead = new Date(now + REMINDER_OFFSET_MS.day);
  // The kind whose window the lesson is in now, as SQL.
  const windowKind = sql<ReminderKind>`case when l.starts_at <= ${hourAhead} then 'hour' else 'day' end`;
  let query = trx
    .selectFrom('lessons as l')
    .innerJoin('users as t', 't.id', 'l.tutor_id')
    .innerJoin('users as s', 's.id', 'l.student_id')
    .leftJoin('family_links as f', 'f.student_id', 'l.student_id')
    .leftJoin('users as p', 'p.id', 'f.parent_id')
    .leftJoin('class_sessions as cs', 'cs.id', 'l.class_session_id')
    .leftJoin('classes as cl', 'cl.id', 'cs.class_id')
    .select([
      'l.id',
      'l.starts_at',
      'l.ends_at',
      'l.updated_at',
      'l.subject',
      'l.note',
      'l.price_cents',
      'l.currency',
      'l.sequence',
      't.id as tutor_id',
      't.display_name as tutor_name',
      't.email as tutor_email',
      't.time_zone as tutor_zone',
      't.language as tutor_language',
      't.reminder_day_before as tutor_day',
      't.reminder_hour_before as tutor_hour',
      's.id as student_id',
      's.display_name as student_name',
      's.email as student_email',
      's.time_zone as student_zone',
      's.language as student_language',
      's.reminder_day_before as student_day',
      's.reminder_hour_before as student_hour',
      sql<boolean>`exists (select 1 from accounts a
        where a.user_id = l.student_id and a.provider_id = 'credential')`.as('student_login'),
      'p.id as parent_id',
      'p.display_name as parent_name',
      'p.email as parent_email',
      'p.time_zone as parent_zone',
      'p.language as parent_language',
      'p.reminder_day_before as parent_day',
      'p.reminder_hour_before as parent_hour',
      'l.class_session_id',
      'cl.id as class_id',
      'cl.title as class_title',
      sql<string>`(select count(*) from lessons seat
        where seat.class_session_id = l.class_session_id and seat.status = 'confirmed')`.as('class_students'),
      sql<boolean>`exists (select 1 from lesson_reminders r join lessons seat on seat.id = r.lesson_id
        where seat.class_session_id = l.class_session_id and r.user_id = l.tutor_id
          and r.kind = ${windowKind} and r.starts_at = l.starts_at)`.as('tutor_reminded'),
    ])
    .where('l.status', '=', 'confirmed')
    .where('l.starts_at', '>', new Date(now))
    .where('l.starts_at', '<=', dayAhead)
    // Confirmed at this start before the moment of the reminder now due (the rules say why).
    .where(
      sql<boolean>`l.updated_at <= l.starts_at - case when l.starts_at <= ${hourAhead} then interval '1 hour' else interval '24 hours' end`,
    )
    // Not every person already reminded: two, or three with a parent and a child who has a login.
    .where(
      sql<boolean>`(select count(*) from lesson_reminders r
        where r.lesson_id = l.id and r.starts_at = l.starts_at and r.kind = ${windowKind})
        < case when p.id is not null and exists (select 1 from accounts a
                 where a.user_id = l.student_id and a.provider_id = 'credential') then 3 else 2 end`,
    );
  if (after)
    query = query.where((eb) => eb(eb.refTuple('l.starts_at', 'l.id'), '>', eb.tuple(after.start, after.id)));
  return (
    query
      .orderBy('l.starts_at')
      .orderBy('l.id')
      .limit(BATCH_SIZE)
      // Only the lessons' rows: a lesson being changed right now is skipped, not waited for.
      .forShare('l')
      .skipLocked()
      .execute() as Promise<Candidate[]>
  );
}

/** The people a lesson's reminders go to. */
type Who = 'tutor' | 'student' | 'parent';

const person = (row: Candidate, who: Who): MailPerson =>
  who === 'parent'
    ? {
        id: row.parent_id ?? '',
        displayName: row.parent_name ?? '',
        email: row.parent_email ?? '',
        timeZone: row.parent_zone,
        language: row.parent_language,
      }
    : who === 'tutor'
      ? {
          id: row.tutor_id,
          displayName: row.tutor_name,
          email: row.tutor_email,
          timeZone: row.tutor_zone,
          language: row.tutor_language,
        }
      : {
          id: row.student_id,
          displayName: row.student_name,
          email: row.student_email,
          timeZone: row.student_zone,
          language: row.student_language,
        };

const mailLesson = (row: Candidate): MailLesson => ({
  id: row.id,
  subject: row.subject,
  note: row.note,
  start: row.starts_at,
  end: row.ends_at,
  priceCents: row.price_cents,
  currency: row.currency,
  sequence: row.sequence,
  tutor: person(row, 'tutor'),
  student: person(row, 'student'),
  parent: row.parent_id === null ? null : person(row, 'parent'),
  studentHasLogin: Boolean(row.student_login),
});

/** Who is reminded of a lesson: its tutor, its student unless a child without a login, its parent. */
const remindedOf = (row: Candidate): Who[] => [
  'tutor',
  ...(row.parent_id === null || row.student_login ? (['student'] as const) : []),
  ...(row.parent_id === null ? [] : (['parent'] as const)),
];

const preferencesOf = (row: Candidate, who: Who) =>
  who === 'tutor'
    ? { dayBefore: row.tutor_day, hourBefore: row.tutor_hour }
    : who === 'student'
      ? { dayBefore: row.student_day, hourBefore: row.student_hour }
      : { dayBefore: row.parent_day ?? true, hourBefore: row.parent_hour ?? true };

interface Due {
  row: Candidate;
  reader: MailPerson;
  kind: ReminderKind;
}

const groupOf = (row: Candidate): ReminderClass | null =>
  row.class_session_id === null
    ? null
    : {
        classId: row.class_id ?? '',
        sessionId: row.class_session_id,
        title: row.class_title ?? row.subject,
        students: Number(row.class_students ?? 0),
      };

/**
 * The reminders due now among a batch's lessons, for each of their two people; a class session's
 * tutor once, on its first seat in the batch, unless a seat's reminder already reached them.
 */
function dueIn(rows: Candidate[], now: number): Due[] {
  const due: Due[] = [];
  const sessionsTold = new Set<string>();
  for (const row of rows) {
    for (const who of remindedOf(row)) {
      if (who === 'tutor' && row.class_session_id !== null) {
        if (row.tutor_reminded || sessionsTold.has(row.class_session_id)) continue;
      }
      const kind = dueReminder({
        start: row.starts_at.getTime(),
        confirmedSince: row.updated_at.getTime(),
        now,
        preferences: preferencesOf(row, who),
      });
      if (!kind) continue;
      if (who === 'tutor' && row.class_session_id !== null) sessionsTold.add(row.class_session_id);
      due.push({ row, reader: person(row, who), kind });
    }
  }
  return due;
}

const tutorOfSession = ({ row, reader }: Due) => row.class_session_id !== null && reader.id === row.tutor_id;

/**
 * Of the class tutors' reminders due, those no other transaction has written: each session's is
 * checked under a lock of its own (taken in one order, so two batches never wait on each other in
 * a circle), which holds until this transaction commits its row.
 */
async function unsentToTutors(trx: Transaction<DB>, due: Due[]): Promise<Due[]> {
  const sorted = due
    .filter(tutorOfSession)
    .sort((a, b) => (a.row.class_session_id ?? '').localeCompare(b.row.class_session_id ?? ''));
  const unsent: Due[] = [];
  for (const item of sorted) {
    const key = `class-reminder:${item.row.class_session_id}:${item.kind}`;
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
    const sent = await trx
      .selectFrom('lesson_reminders as r')
      .innerJoin('lessons as seat', 'seat.id', 'r.lesson_id')
      .select('r.lesson_id')
      .where('seat.class_session_id', '=', item.row.class_session_id)
      .where('r.user_id', '=', item.reader.id)
      .where('r.kind', '=', item.kind)
      .where('r.starts_at', '=', item.row.starts_at)
      .executeTakeFirst();
    if (!sent) unsent.push(item);
  }
  return unsent;
}

/** One batch in one transaction: the reminders this server is first to write are mailed. */
async function remindBatch(
  deps: ReminderDeps,
  trx: Transaction<DB>,
  now: number,
  after: { start: Date; id: string } | undefined,
): Promise<{ read: Candidate[]; sent: number }> {
  const read = await candidates(trx, now, after);
  const found = dueIn(read, now);
  const tutors = await unsentToTutors(trx, found);
  const due = found.filter((item) => !tutorOfSession(item) || tutors.includes(item));
  if (due.length === 0) return { read, sent: 0 };
  const written = await trx
    .insertInto('lesson_reminders')
    .values(
      due.map(({ row, reader, kind }) => ({
        lesson_id: row.id,
        user_id: reader.id,
        kind,
        starts_at: row.starts_at,
        sent_at: new Date(now),
      })),
    )
    .onConflict((oc) => oc.columns(['lesson_id', 'user_id', 'kind', 'starts_at']).doNothing())
    .returning(['lesson_id', 'user_id', 'kind'])
    .execute();
  const mine = new Set(written.map((w) => `${w.lesson_id}|${w.user_id}|${w.kind}`));
  const mails = due
    .filter(({ row, reader, kind }) => mine.has(`${row.id}|${reader.id}|${kind}`))
    .map(({ row, reader, kind }) =>
      reminderMail(kind, mailLesson(row), reader, deps.mail, now, groupOf(row)),
    );
  await deps.mailer.sendMails(mails, trx);
  return { read, sent: mails.length };
}

/** Sends every reminder due at `now` that no server has sent yet; answers how many this one sent. */
export async function runReminders(deps: ReminderDeps, now = Date.now()): Promise<{ sent: number }> {
  let sent = 0;
  let after: { start: Date; id: string } | undefined;
  for (;;) {
    const batch = await deps.db.transaction().execute((trx) => remindBatch(deps, trx, now, after));
    sent += batch.sent;
    if (batch.sent > 0) deps.mailer.deliverSoon();
    const last = batch.read.at(-1);
    if (!last || batch.read.length < BATCH_SIZE) break;
    after = { start: last.starts_at, id: last.id };
  }
  return { sent };
}

export const startReminders = (
  deps: ReminderDeps,
  logger: Logger,
  everyMs?: number,
  observe?: MinuteJobObserver,
) =>
  startMinuteJob(
    {
      run: () => runReminders(deps),
      done: ({ sent }, log) => {
        if (sent) log.info({ sent }, 'lesson reminders queued');
      },
      failure: 'lesson reminders failed',
      name: 'reminders',
    },
    logger,
    everyMs,
    observe,
  );
