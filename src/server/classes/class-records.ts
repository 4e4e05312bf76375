/**
 * A group class as the API shows it (docs/api.md, "Group classes"), read for one viewer: the
 * sessions, the seats taken, the length of the waitlist, and where the viewer stands.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import { CLASSES_PAGE_SIZE, type ClassStatus } from '../../shared/classes/class-schemas';
import type { DB } from '../db/schema';

export type Db = Kysely<DB> | Transaction<DB>;

export const classMessages = {
  notFound: /*i18n*/ 'This class does not exist',
  tutorsOnly: /*i18n*/ 'Only tutors create classes',
  studentsOnly: /*i18n*/ 'Only students enrol in classes',
  notPublished: /*i18n*/ 'Publish your profile (and have it verified) before you create a class',
  closed: /*i18n*/ 'This class is no longer open: it was cancelled or its sessions have started',
  notIn: /*i18n*/ 'You are not in this class',
  cancelled: /*i18n*/ 'This class is cancelled already',
  timeTaken: /*i18n*/ 'You teach a lesson or another class at one of these times',
  studentBusy: /*i18n*/ 'You have a lesson at the time of one of its sessions',
  pastSession: /*i18n*/ 'A session must start in the future',
  notYourLanguage: /*i18n*/ 'Please choose one of the languages on your profile',
  notYourLength: /*i18n*/ 'minutes must be one of your lesson lengths: {lengths}',
  notAStudent: /*i18n*/ 'This student is not in this class',
} as const;

export interface SessionView {
  id: string;
  start: string;
  end: string;
  status: 'scheduled' | 'cancelled' | 'ended';
}

export interface ClassView {
  id: string;
  title: string;
  subject: string;
  language: string;
  description: string;
  tutor: { id: string; displayName: string };
  minutes: number;
  seats: number;
  seatsTaken: number;
  waitlist: number;
  minStudents: number;
  price: { amountCents: number; currency: string };
  sessions: SessionView[];
  status: ClassStatus;
  cancelReason: string | null;
  you: { status: 'enrolled' | 'waitlisted' | null; position: number | null } | null;
}

const classColumns = [
  'c.id',
  'c.title',
  'c.subject',
  'c.language',
  'c.description',
  'c.tutor_id',
  'c.minutes',
  'c.seats',
  'c.seats_taken',
  'c.min_students',
  'c.price_cents',
  'c.currency',
  'c.status',
  'c.decided_at',
  'c.cancel_reason',
  'u.display_name',
] as const;

/** The classes with these ids, in this order, as `viewerId` (null: signed out) sees them. */
export async function classViews(
  db: Db,
  ids: string[],
  viewerId: string | null,
  now: number,
): Promise<ClassView[]> {
  if (ids.length === 0) return [];
  const [rows, sessions, waiting, mine] = await Promise.all([
    db
      .selectFrom('classes as c')
      .innerJoin('users as u', 'u.id', 'c.tutor_id')
      .select(classColumns)
      .where('c.id', 'in', ids)
      .execute(),
    db
      .selectFrom('class_sessions')
      .select(['id', 'class_id', 'starts_at', 'ends_at', 'status'])
      .where('class_id', 'in', ids)
      .orderBy('starts_at')
      .execute(),
    db
      .selectFrom('class_enrolments')
      .select(['class_id', (eb) => eb.fn.countAll<string>().as('count')])
      .where('class_id', 'in', ids)
      .where('status', '=', 'waitlisted')
      .groupBy('class_id')
      .execute(),
    viewerId === null
      ? Promise.resolve([])
      : db
          .selectFrom('class_enrolments')
          .select(['class_id', 'status', 'position'])
          .where('class_id', 'in', ids)
          .where('student_id', '=', viewerId)
          .execute(),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const own = sessions.filter((session) => session.class_id === id);
    const views = own.map(
      (session): SessionView => ({
        id: session.id,
        start: session.starts_at.toISOString(),
        end: session.ends_at.toISOString(),
        status:
          session.status === 'cancelled'
            ? 'cancelled'
            : session.ends_at.getTime() <= now
              ? 'ended'
              : 'scheduled',
      }),
    );
    const live = views.filter((session) => session.status !== 'cancelled');
    const status: ClassStatus =
      row.status === 'cancelled'
        ? 'cancelled'
        : live.every((session) => session.status === 'ended')
          ? 'ended'
          : row.decided_at
            ? 'held'
            : 'scheduled';
    const place = mine.find((entry) => entry.class_id === id);
    const standing =
      place?.status === 'enrolled' || place?.status === 'waitlisted'
        ? { status: place.status as 'enrolled' | 'waitlisted', position: place.position }
        : { status: null, position: null };
    return [
      {
        id,
        title: row.title,
        subject: row.subject,
        language: row.language,
        description: row.description,
        tutor: { id: row.tutor_id, displayName: row.display_name },
        minutes: row.minutes,
        seats: row.seats,
        seatsTaken: row.seats_taken,
        waitlist: Number(waiting.find((entry) => entry.class_id === id)?.count ?? 0),
        minStudents: row.min_students,
        price: { amountCents: row.price_cents, currency: row.currency },
        sessions: views,
        status,
        cancelReason: row.status === 'cancelled' ? row.cancel_reason : null,
        you: viewerId === null ? null : standing,
      },
    ];
  });
}

export interface ClassQuery {
  subject?: string | undefined;
  language?: string | undefined;
  tutorId?: string | undefined;
  mine?: 'true' | 'false' | undefined;
  from?: number | undefined;
  to?: number | undefined;
  maxPriceCents?: number | undefined;
  page: number;
}

/**
 * A page of classes, soonest next session first: open ones with a session still ahead by default;
 * `from`/`to` keep those with a session in that range; `mine` those the viewer teaches or is in
 * (cancelled and ended ones too).
 */
export async function listClasses(db: Db, query: ClassQuery, viewerId: string | null, now: number) {
  const from = query.from ?? now;
  const to = query.to;
  const mine = query.mine === 'true' && viewerId !== null;
  let found = db
    .selectFrom('classes as c')
    .innerJoin('class_sessions as s', 's.class_id', 'c.id')
    .select(['c.id', (eb) => eb.fn.min('s.starts_at').as('next')])
    .groupBy('c.id');
  if (mine)
    found = found.where((eb) =>
      eb.or([
        eb('c.tutor_id', '=', viewerId),
        eb.exists(
          eb
            .selectFrom('class_enrolments as e')
            .select(sql.lit(1).as('one'))
            .whereRef('e.class_id', '=', 'c.id')
            .where('e.student_id', '=', viewerId)
            .where('e.status', 'in', ['enrolled', 'waitlisted']),
        ),
      ]),
    );
  else
    found = found
      .where('c.status', '=', 'scheduled')
      .where('s.status', '=', 'scheduled')
      .where('s.ends_at', '>', new Date(from));
  if (!mine && query.from !== undefined) found = found.where('s.starts_at', '>=', new Date(from));
  if (to !== undefined) found = found.where('s.starts_at', '<', new Date(to));
  if (query.subject) found = found.where('c.subject', '=', query.subject);
  if (query.language) found = found.where('c.language', '=', query.language);
  if (query.tutorId) found = found.where('c.tutor_id', '=', query.tutorId);
  if (query.maxPriceCents !== undefined) found = found.where('c.price_cents', '<=', query.maxPriceCents);
  const all = await found.orderBy('next').orderBy('c.id').execute();
  const start = (query.page - 1) * CLASSES_PAGE_SIZE;
  const ids = all.slice(start, start + CLASSES_PAGE_SIZE).map((row) => row.id);
  return {
    classes: await classViews(db, ids, viewerId, now),
    total: all.length,
    page: query.page,
    pageSize: CLASSES_PAGE_SIZE,
  };
}
