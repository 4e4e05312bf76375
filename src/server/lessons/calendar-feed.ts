/**
 * A user's lessons as an iCalendar feed that calendar apps subscribe to by URL. The URL's secret
 * token is the only key (calendar apps send no cookies); creating a new one revokes the old, and a
 * password reset or a suspension replaces it.
 * Events keep the UID of the lesson's invitations, so a calendar that got both shows one event.
 * Cancelled lessons stay in the feed marked CANCELLED, so a subscribed calendar removes them.
 * A group class's session is one event for its tutor (with how many students hold a seat), not one
 * per seat; a student's seat is an event named after the class.
 */
import { randomBytes } from 'node:crypto';
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { Kysely, Transaction } from 'kysely';
import { PRODUCT_NAME } from '../../shared/constants';
import { classPath, paths } from '../../shared/routes';
import type { DB } from '../db/schema';
import { lessonUid, type MailSettings } from './lesson-invitation';
import { statusAt } from './lesson-records';
import { taughtSessions } from './taught-sessions';

const DAY = 24 * 60 * 60 * 1000;
/** The feed covers lessons from this many days back... */
const FEED_PAST_DAYS = 60;
/** ...to this many ahead (the longest booking horizon, with room). */
const FEED_FUTURE_DAYS = 400;

/**
 * Gives the user's feed, when they have one, a new address; the old one answers 404 from now on.
 * The address is a key of its own that outlives every session, so it changes whenever the account
 * is taken back from whoever may hold a copy: at a password reset and at a suspension.
 */
export async function rotateCalendarFeed(db: Kysely<DB> | Transaction<DB>, userId: string) {
  await db
    .updateTable('calendar_feeds')
    .set({ token: randomBytes(24).toString('base64url'), created_at: new Date() })
    .where('user_id', '=', userId)
    .execute();
}

/** The UID of a class session's one event in its tutor's calendar (its seats have their lessons'). */
export const classSessionUid = (sessionId: string, appUrl: string) =>
  `class-session-${sessionId}@${new URL(appUrl).hostname}`;

export async function calendarFeed(
  db: Kysely<DB>,
  token: string,
  settings: MailSettings,
  now: number,
): Promise<string | null> {
  const owner = await db
    .selectFrom('calendar_feeds as f')
    .innerJoin('users as u', 'u.id', 'f.user_id')
    .select(['u.id', 'u.display_name'])
    .where('f.token', '=', token)
    .executeTakeFirst();
  if (!owner) return null;

  const lessons = await db
    .selectFrom('lessons as l')
    .innerJoin('users as t', 't.id', 'l.tutor_id')
    .innerJoin('users as s', 's.id', 'l.student_id')
    .leftJoin('class_sessions as cs', 'cs.id', 'l.class_session_id')
    .leftJoin('classes as cl', 'cl.id', 'cs.class_id')
    .select([
      'l.id',
      'l.tutor_id',
      'l.subject',
      'l.starts_at',
      'l.ends_at',
      'l.status',
      'l.expires_at',
      'l.sequence',
      'l.updated_at',
      't.display_name as tutor_name',
      's.display_name as student_name',
      'cl.title as class_title',
    ])
    .where((eb) =>
      eb.or([
        // The tutor's seats are shown as their sessions, below.
        eb.and([eb('l.tutor_id', '=', owner.id), eb('l.class_session_id', 'is', null)]),
        eb('l.student_id', '=', owner.id),
      ]),
    )
    .where('l.status', 'in', ['pending', 'confirmed', 'completed', 'cancelled'])
    .where('l.starts_at', '>=', new Date(now - FEED_PAST_DAYS * DAY))
    .where('l.starts_at', '<', new Date(now + FEED_FUTURE_DAYS * DAY))
    .orderBy('l.starts_at')
    .execute();
  const sessions = await taughtSessions(
    db,
    owner.id,
    now - FEED_PAST_DAYS * DAY,
    now + FEED_FUTURE_DAYS * DAY,
    now,
    { cancelled: true },
  );

  const calendar = ical({
    name: `${PRODUCT_NAME} lessons`,
    prodId: { company: PRODUCT_NAME, product: PRODUCT_NAME, language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
    // Calendar apps poll a subscription; an hour is the usual hint.
    ttl: 60 * 60,
  });
  for (const lesson of lessons) {
    const status = statusAt(lesson, now);
    if (status === 'expired') continue;
    const other = lesson.tutor_id === owner.id ? lesson.student_name : lesson.tutor_name;
    calendar.createEvent({
      id: lessonUid(lesson.id, settings.appUrl),
      sequence: lesson.sequence,
      start: lesson.starts_at,
      end: lesson.ends_at,
      stamp: lesson.updated_at,
      summary:
        lesson.class_title === null
          ? `${lesson.subject} lesson with ${other}${status === 'pending' ? ' (request)' : ''}`
          : `${lesson.class_title} (class with ${other})`,
      url: `${settings.appUrl}${paths.schedule}`,
      status:
        status === 'cancelled'
          ? ICalEventStatus.CANCELLED
          : status === 'pending'
            ? ICalEventStatus.TENTATIVE
            : ICalEventStatus.CONFIRMED,
    });
  }
  for (const session of sessions)
    calendar.createEvent({
      id: classSessionUid(session.id, settings.appUrl),
      start: new Date(session.start),
      end: new Date(session.end),
      stamp: new Date(now),
      summary: `${session.title} (class: ${session.students} of ${session.seats} students)`,
      url: `${settings.appUrl}${classPath(session.classId)}`,
      status: session.status === 'cancelled' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
  return calendar.toString();
}
