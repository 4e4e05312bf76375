/**
 * Demo lessons for `npm run seed:demo`, so the marketplace looks lived in: every demo tutor gets
 * weekly hours in their own zone, and demo students (accounts without a password, like the demo
 * tutors: nobody can sign in as them) have lessons with some of them, over the past three weeks
 * (completed, one cancelled now and then) and the next three (confirmed, a few requests still
 * waiting). Generated from a fixed seed; the times are relative to the moment `npm run seed:demo` runs.
 */
import { type Insertable, type Kysely, sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { minorPerUnit } from '../../shared/amounts';
import { requestExpiresAt } from '../../shared/lessons/availability';
import { lessonPriceCents } from '../../shared/lessons/lesson-price';
import type { DB, LessonStatusColumn } from '../db/schema';
import { type DemoTutor, FIRST_NAMES, LAST_NAMES, seededRandom, TIME_ZONES } from './demo-tutors';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const STUDENTS = 40;
/** Tutors with lessons; the others have hours but nobody has booked them yet. */
const BUSY_TUTORS = 80;
const LESSONS_PER_BUSY_TUTOR = 6;

/** Weekly hours of a few kinds a real tutor keeps. */
const HOURS = [
  {
    days: [1, 2, 3, 4, 5],
    windows: [
      ['09:00', '12:00'],
      ['14:00', '18:00'],
    ],
  },
  { days: [1, 2, 3, 4, 5], windows: [['17:00', '21:00']] },
  { days: [1, 3, 5], windows: [['08:00', '16:00']] },
  { days: [0, 6], windows: [['10:00', '15:00']] },
  { days: [2, 4, 6], windows: [['12:00', '20:00']] },
] as const;

interface Hours {
  days: readonly number[];
  windows: readonly (readonly [string, string])[];
}

/** The instant of `time` on `date` in `timeZone`. */
const instantOf = (date: Temporal.PlainDate, time: string, timeZone: string) =>
  date.toZonedDateTime({ timeZone, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;

/** Lessons are priced in `currency`, the school's (CURRENCY), as a booking would be. */
export async function insertDemoLessons(
  db: Kysely<DB>,
  tutors: DemoTutor[],
  now: number,
  currency: string,
): Promise<void> {
  const random = seededRandom(28);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const hoursOf = new Map<string, Hours>();
  const availability = tutors.map((tutor) => {
    const hours = pick(HOURS);
    hoursOf.set(tutor.id, hours);
    const lengths = random() < 0.5 ? [60] : random() < 0.5 ? [30, 60] : [60, 90];
    return {
      user_id: tutor.id,
      weekly: JSON.stringify(
        hours.days.flatMap((weekday) => hours.windows.map(([start, end]) => ({ weekday, start, end }))),
      ),
      overrides: '[]',
      lesson_minutes: lengths,
      slot_step_minutes: 30,
      minimum_notice_hours: pick([2, 12, 24]),
      booking_horizon_days: 60,
      buffer_minutes: pick([0, 0, 15]),
      instant_booking: random() < 0.8,
    };
  });

  const students = Array.from({ length: STUDENTS }, (_, i) => {
    const first = pick(FIRST_NAMES);
    const last = pick(LAST_NAMES);
    return {
      id: `demo-student-${String(i + 1).padStart(4, '0')}`,
      email: `${first}.${last}.student${i + 1}@demo.tutorlane.test`.toLowerCase(),
      display_name: `${first} ${last}`,
      email_verified: true,
      role: 'student' as const,
      time_zone: pick(TIME_ZONES),
      created_at: new Date(now - 90 * DAY),
      updated_at: new Date(now - 90 * DAY),
    };
  });

  // Each lesson is an hour on the hour of its tutor's zone, which is on the half hour in UTC for a
  // zone such as Asia/Kolkata: two of one person's lessons overlap when their starts are less than
  // an hour apart. Keeping each person's starts keeps both constraints satisfied.
  const startsOf = new Map<string, number[]>();
  const free = (personId: string, start: number) =>
    !(startsOf.get(personId) ?? []).some((other) => Math.abs(other - start) < HOUR);
  const take = (personId: string, start: number) =>
    startsOf.set(personId, [...(startsOf.get(personId) ?? []), start]);
  const lessons: Insertable<DB['lessons']>[] = [];
  for (const [index, tutor] of tutors.slice(0, BUSY_TUTORS).entries()) {
    const hours = hoursOf.get(tutor.id) as Hours;
    const today = Temporal.Instant.fromEpochMilliseconds(now)
      .toZonedDateTimeISO(tutor.timeZone)
      .toPlainDate();
    for (let n = 0; n < LESSONS_PER_BUSY_TUTOR; n++) {
      const offset = Math.floor(random() * 42) - 21;
      const date = today.add({ days: offset });
      if (!hours.days.includes(date.dayOfWeek % 7)) continue;
      const [from, to] = pick(hours.windows);
      const firstHour = Number(from.slice(0, 2));
      const lastHour = Number(to.slice(0, 2)) - 1;
      const hour = firstHour + Math.floor(random() * (lastHour - firstHour + 1));
      const start = instantOf(date, `${String(hour).padStart(2, '0')}:00`, tutor.timeZone);
      const student = students[(index * 7 + n * 3) % STUDENTS] as (typeof students)[number];
      // Past lessons happened; ahead, keep clear of the tutor's minimum notice.
      if (!free(tutor.id, start) || !free(student.id, start) || Math.abs(start - now) < 2 * DAY) continue;
      take(tutor.id, start);
      take(student.id, start);
      const past = start < now;
      const roll = random();
      const status: LessonStatusColumn = past
        ? roll < 0.1
          ? 'cancelled'
          : 'completed'
        : roll < 0.15
          ? 'pending'
          : 'confirmed';
      const bookedAt = Math.min(now - HOUR, start - (3 + Math.floor(random() * 10)) * DAY);
      // A cancelled lesson was called off a day after it was booked, still days before its start.
      const changedAt =
        status === 'pending' ? now - HOUR : status === 'cancelled' ? bookedAt + DAY : bookedAt;
      const subject = pick(tutor.subjects);
      lessons.push({
        id: crypto.randomUUID(),
        tutor_id: tutor.id,
        student_id: student.id,
        subject,
        note: '',
        starts_at: new Date(start),
        ends_at: new Date(start + HOUR),
        minutes: 60,
        blocked_until: new Date(start + HOUR),
        price_cents: lessonPriceCents(tutor.hourlyRate, 60, minorPerUnit(currency)),
        currency,
        status,
        // A waiting request was made an hour ago, so it is still waiting when someone looks.
        expires_at: status === 'pending' ? new Date(requestExpiresAt(now - HOUR, start)) : null,
        sequence: status === 'cancelled' ? 1 : 0,
        idempotency_key: null,
        cancelled_by: status === 'cancelled' ? student.id : null,
        cancel_reason: null,
        created_at: new Date(status === 'pending' ? now - HOUR : bookedAt),
        updated_at: new Date(changedAt),
      });
    }
  }

  await db.transaction().execute(async (trx) => {
    // In batches: one statement takes at most 65,535 parameters, ten per tutor here.
    for (let start = 0; start < availability.length; start += 500)
      await trx
        .insertInto('tutor_availability')
        .values(availability.slice(start, start + 500))
        .execute();
    await trx.insertInto('users').values(students).execute();
    for (let start = 0; start < lessons.length; start += 200)
      await trx
        .insertInto('lessons')
        .values(lessons.slice(start, start + 200))
        .execute();
  });
  // Keep the planner's picture of the new tables true at once (the embedded store has no autovacuum).
  await sql`analyze tutor_availability, lessons`.execute(db);
}
