/**
 * Lessons straight into the database, for tests that need one at a time no booking could make
 * (in the past, or in a given state); the instants tests book at; the minute jobs' dependencies.
 */
import type { Kysely, Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { DB, LessonStatusColumn } from '../../src/server/db/schema';
import type { CompletedLesson } from '../../src/server/lessons/lesson-jobs';
import { lessonLine } from '../../src/server/messages/messages';
import { TEST_APP_URL, type TestApp } from './test-app';

const MINUTE = 60 * 1000;

export async function insertLesson(
  db: Kysely<DB>,
  lesson: {
    tutorId: string;
    studentId: string;
    status: LessonStatusColumn;
    /** When it starts (epoch ms). */
    start: number;
    minutes?: number;
    subject?: string;
    priceCents?: number;
  },
): Promise<string> {
  const minutes = lesson.minutes ?? 60;
  const end = lesson.start + minutes * MINUTE;
  // Booked three days before now or its start, whichever came first.
  const bookedAt = new Date(Math.min(Date.now(), lesson.start) - 72 * 60 * MINUTE);
  const id = crypto.randomUUID();
  await db
    .insertInto('lessons')
    .values({
      id,
      tutor_id: lesson.tutorId,
      student_id: lesson.studentId,
      subject: lesson.subject ?? 'Chemistry',
      starts_at: new Date(lesson.start),
      ends_at: new Date(end),
      minutes,
      blocked_until: new Date(end),
      price_cents: lesson.priceCents ?? 3000,
      status: lesson.status,
      expires_at: lesson.status === 'pending' ? new Date(lesson.start) : null,
      created_at: bookedAt,
      updated_at: bookedAt,
    })
    .execute();
  return id;
}

/** Every day of the week from `start` to `end`, as weekly windows. */
export const everyDay = (start: string, end: string) =>
  [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start, end }));

/** Availability open every day from 08:00 to 20:00 in Madrid, bookable at once, hour lessons. */
export const openAvailability = {
  timeZone: 'Europe/Madrid',
  weekly: everyDay('08:00', '20:00'),
  overrides: [] as { date: string; windows: { start: string; end: string }[] }[],
  lessonMinutes: [60, 90],
  slotStepMinutes: 30,
  minimumNoticeHours: 0,
  bookingHorizonDays: 60,
  bufferMinutes: 0,
  instantBooking: true,
};

/** The instant of `time` on the local date `days` from today in `zone` (Madrid unless named). */
export function dayAt(days: number, time: string, zone = 'Europe/Madrid'): number {
  return Temporal.Now.zonedDateTimeISO(zone)
    .toPlainDate()
    .add({ days })
    .toZonedDateTime({ timeZone: zone, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;
}

/** The minute jobs' dependencies for `app`, with nothing to do after lessons complete. */
export const lessonJobDeps = (app: TestApp) => ({
  db: app.database.db,
  mailer: app.mailer,
  mail: { appUrl: TEST_APP_URL, mailFrom: app.config.mailFrom },
  conversations: { lessonLine },
  payments: app.config.payments,
  afterCompleted: async (_trx: Transaction<DB>, _completed: CompletedLesson[]) => {},
});
