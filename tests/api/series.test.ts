/**
 * Weekly series over the API: the weeks booked and those skipped (and why), the preview, the
 * tutor's one answer to a series request, cancelling one week or the rest, the one mail with an
 * invitation per week, the balance that must cover every week, and two series racing for the
 * same times. Runs on both stores.
 */
import ICAL from 'ical.js';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, send, verifiedPerson } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import { everyDay, openAvailability } from '../support/lessons';
import { makeAdmin, publishTutor, topUp, walletOf } from '../support/money';
import { createTestApp, type TestApp } from '../support/test-app';

setUpApiTest();

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const ZONE = 'Europe/Madrid';

/** The instant of `time` on the local date `days` from today in Madrid. */
function at(days: number, time: string): number {
  return Temporal.Now.zonedDateTimeISO(ZONE)
    .toPlainDate()
    .add({ days })
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;
}
const iso = (ms: number) => new Date(ms).toISOString();
const localDate = (ms: number) =>
  Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(ZONE).toPlainDate().toString();
/** The same Madrid wall-clock time `weeks` later. */
const weeksOn = (start: number, weeks: number) =>
  Temporal.Instant.fromEpochMilliseconds(start).toZonedDateTimeISO(ZONE).add({ weeks }).epochMilliseconds;

interface Lesson {
  id: string;
  start: string;
  status: string;
  seriesId: string | null;
  payment: { status: string };
  cancellation: { fee: { amountCents: number }; by: string | null; reason: string | null };
}
interface Series {
  id: string;
  lessons: Lesson[];
  skipped: { start: string; reason: string }[];
}

async function tutorWith(app: TestApp, settings: Partial<typeof openAvailability> = {}) {
  const who = await publishTutor(app, await verifiedPerson(app, mailbox, 'tutor', 'Tutor Weekly'));
  if (Object.keys(settings).length > 0) {
    const res = await send(app, 'PUT', '/api/availability', { ...openAvailability, ...settings }, who.jar);
    expect(res.status, await res.clone().text()).toBe(200);
  }
  return who;
}

function bookSeries(student: Person, tutorId: string, start: number, repeatWeeks: unknown, app: TestApp = t) {
  return send(
    app,
    'POST',
    '/api/lessons',
    { tutorId, start: iso(start), minutes: 60, subject: 'Algebra', repeatWeeks },
    student.jar,
  );
}

async function booked(res: Response): Promise<Series> {
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).series as Series;
}

async function lessonOf(who: Person, id: string): Promise<Lesson> {
  const res = await get(t, `/api/lessons/${id}`, who.jar);
  expect(res.status).toBe(200);
  return res.json();
}

describe('booking a series', () => {
  it('books every offered week as its own lesson and skips a taken week and a day off, saying why', async () => {
    const first = at(2, '10:00');
    const tutor = await tutorWith(t, {
      overrides: [{ date: localDate(weeksOn(first, 2)), windows: [] }],
    });
    const other = await person('student');
    const taken = await send(
      t,
      'POST',
      '/api/lessons',
      { tutorId: tutor.id, start: iso(weeksOn(first, 1)), minutes: 60, subject: 'Algebra' },
      other.jar,
    );
    expect(taken.status).toBe(201);

    const student = await person('student');
    const series = await booked(await bookSeries(student, tutor.id, first, 5));
    expect(series.lessons.map((lesson) => lesson.start)).toEqual([
      iso(first),
      iso(weeksOn(first, 3)),
      iso(weeksOn(first, 4)),
    ]);
    expect(series.skipped).toEqual([
      { start: iso(weeksOn(first, 1)), reason: 'taken' },
      { start: iso(weeksOn(first, 2)), reason: 'unavailable' },
    ]);
    expect(new Set(series.lessons.map((lesson) => lesson.id)).size).toBe(3);
    for (const lesson of series.lessons) {
      expect(lesson).toMatchObject({ status: 'confirmed', seriesId: series.id });
    }
    // Each week is an ordinary lesson in both people's lists.
    const listed = (await (await get(t, '/api/lessons', tutor.jar)).json()).lessons as Lesson[];
    expect(listed.filter((lesson) => lesson.seriesId === series.id)).toHaveLength(3);
    const seen = await get(t, `/api/series/${series.id}`, tutor.jar);
    expect((await seen.json()).series.lessons).toHaveLength(3);
  });

  it('skips the weeks beyond the tutor’s booking horizon', async () => {
    const tutor = await tutorWith(t, { bookingHorizonDays: 20 });
    const student = await person('student');
    const first = at(2, '11:00');
    const series = await booked(await bookSeries(student, tutor.id, first, 4));
    expect(series.lessons).toHaveLength(3);
    expect(series.skipped).toEqual([{ start: iso(weeksOn(first, 3)), reason: 'beyond_horizon' }]);
  });

  it('refuses the series with 409 when its first week is not offered, and books nothing', async () => {
    const first = at(3, '10:00');
    const tutor = await tutorWith(t, { overrides: [{ date: localDate(first), windows: [] }] });
    const student = await person('student');
    const res = await bookSeries(student, tutor.id, first, 3);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: 'SLOT_UNAVAILABLE' });
    const rows = await t.database.db
      .selectFrom('lessons')
      .select('id')
      .where('student_id', '=', student.id)
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('takes 2 to 26 weeks and nothing else', async () => {
    const tutor = await tutorWith(t);
    const student = await person('student');
    for (const weeks of [1, 27, 0, 2.5, '4', -3, null]) {
      const res = await bookSeries(student, tutor.id, at(2, '12:00'), weeks);
      expect(res.status, `repeatWeeks ${String(weeks)}`).toBe(400);
      expect((await res.json()).message).toMatch(/repeatWeeks|weeks/);
    }
    const preview = await get(
      t,
      `/api/lessons/preview-series?tutorId=${tutor.id}&start=${iso(at(2, '12:00'))}&minutes=60&repeatWeeks=30`,
      student.jar,
    );
    expect(preview.status).toBe(400);
    const trial = await send(
      t,
      'POST',
      '/api/lessons',
      { tutorId: tutor.id, start: iso(at(2, '12:00')), trial: true, subject: 'Algebra', repeatWeeks: 3 },
      student.jar,
    );
    expect(trial.status).toBe(400);
  });

  it('previews exactly what booking then makes, without booking anything', async () => {
    const first = at(4, '15:00');
    const tutor = await tutorWith(t, { overrides: [{ date: localDate(weeksOn(first, 1)), windows: [] }] });
    const student = await person('student');
    const query = `tutorId=${tutor.id}&start=${encodeURIComponent(iso(first))}&minutes=60&repeatWeeks=4`;
    const res = await get(t, `/api/lessons/preview-series?${query}`, student.jar);
    expect(res.status, await res.clone().text()).toBe(200);
    const preview = await res.json();
    expect(preview.skipped).toEqual([{ start: iso(weeksOn(first, 1)), reason: 'unavailable' }]);
    expect(preview.lessons).toHaveLength(3);
    expect(preview.total).toEqual({ amountCents: 3 * 4000, currency: 'USD' });
    const none = await t.database.db
      .selectFrom('lessons')
      .select('id')
      .where('student_id', '=', student.id)
      .execute();
    expect(none).toHaveLength(0);

    const series = await booked(await bookSeries(student, tutor.id, first, 4));
    expect(series.lessons.map((lesson) => ({ start: lesson.start }))).toEqual(
      preview.lessons.map((lesson: { start: string }) => ({ start: lesson.start })),
    );
    expect(series.skipped).toEqual(preview.skipped);
    // A tutor cannot preview a booking: only students book.
    expect((await get(t, `/api/lessons/preview-series?${query}`, tutor.jar)).status).toBe(403);
  });

  it('sends one mail to each person for the series, with one invitation holding every week under its own UID', async () => {
    const tutor = await tutorWith(t);
    const student = await person('student');
    const series = await booked(await bookSeries(student, tutor.id, at(2, '17:00'), 4));
    for (const address of [tutor.email, student.email]) {
      const mail = await mailbox.waitFor(
        (m) => m.to === address && m.subject.startsWith('Weekly lessons confirmed'),
      );
      const calendar = new ICAL.Component(ICAL.parse(mail.calendar ?? ''));
      const events = calendar.getAllSubcomponents('vevent');
      expect(events).toHaveLength(4);
      const uids = events.map((event) => String(event.getFirstPropertyValue('uid')));
      expect(new Set(uids).size).toBe(4);
      for (const lesson of series.lessons) expect(uids.some((uid) => uid.includes(lesson.id))).toBe(true);
    }
    // No mail per week besides it.
    const toStudent = mailbox.mailsTo(student.email);
    expect(toStudent.filter((m) => m.subject.includes('confirmed'))).toHaveLength(1);
  });

  it('lets only one of two overlapping series sent at once have the times', async () => {
    const tutor = await tutorWith(t);
    const [one, two] = [await person('student'), await person('student')];
    const first = at(3, '09:00');
    const results = await Promise.all([
      bookSeries(one, tutor.id, first, 4),
      bookSeries(two, tutor.id, first, 4),
    ]);
    expect(results.map((res) => res.status).sort()).toEqual([201, 409]);
    const planned = await t.database.db
      .selectFrom('lessons')
      .select(['starts_at', 'student_id'])
      .where('tutor_id', '=', tutor.id)
      .where('status', 'in', ['pending', 'confirmed'])
      .orderBy('starts_at')
      .execute();
    expect(planned).toHaveLength(4);
    expect(new Set(planned.map((row) => row.student_id)).size).toBe(1);
    expect(new Set(planned.map((row) => row.starts_at.getTime())).size).toBe(4);
  });
});

describe('a series request', () => {
  it('waits for the tutor, who accepts every week at once; others get 404', async () => {
    const tutor = await tutorWith(t, { instantBooking: false });
    const student = await person('student');
    const series = await booked(await bookSeries(student, tutor.id, at(2, '13:00'), 3));
    expect(series.lessons.map((lesson) => lesson.status)).toEqual(['pending', 'pending', 'pending']);
    const request = await mailbox.waitFor(
      (m) => m.to === tutor.email && m.subject.startsWith('New weekly lesson request'),
    );
    expect(request.calendar).toBeUndefined();

    const stranger = await person('tutor');
    for (const who of [student, stranger]) {
      const res = await send(t, 'POST', `/api/series/${series.id}/accept`, {}, who.jar);
      expect(res.status).toBe(404);
    }
    const accepted = await send(t, 'POST', `/api/series/${series.id}/accept`, {}, tutor.jar);
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    const answer = (await accepted.json()).series as Series;
    expect(answer.lessons.map((lesson) => lesson.status)).toEqual(['confirmed', 'confirmed', 'confirmed']);
    const mail = await mailbox.waitFor(
      (m) => m.to === student.email && m.subject.startsWith('Weekly lessons confirmed'),
    );
    expect(new ICAL.Component(ICAL.parse(mail.calendar ?? '')).getAllSubcomponents('vevent')).toHaveLength(3);
    const again = await send(t, 'POST', `/api/series/${series.id}/accept`, {}, tutor.jar);
    expect(again.status).toBe(409);
  });

  it('is declined at once, freeing every week', async () => {
    const tutor = await tutorWith(t, { instantBooking: false });
    const student = await person('student');
    const first = at(2, '14:00');
    const series = await booked(await bookSeries(student, tutor.id, first, 3));
    const declined = await send(t, 'POST', `/api/series/${series.id}/decline`, {}, tutor.jar);
    expect(declined.status).toBe(200);
    expect(((await declined.json()).series as Series).lessons.map((lesson) => lesson.status)).toEqual([
      'declined',
      'declined',
      'declined',
    ]);
    await mailbox.waitFor(
      (m) => m.to === student.email && m.subject.startsWith('Weekly lesson request declined'),
    );
    // The times are free again.
    const other = await person('student');
    await booked(await bookSeries(other, tutor.id, first, 3));
  });
});

describe('changing a series', () => {
  it('cancels or moves one week only, leaving the others as they were', async () => {
    const tutor = await tutorWith(t);
    const student = await person('student');
    const series = await booked(await bookSeries(student, tutor.id, at(3, '16:00'), 4));
    const [w1, w2, w3, w4] = series.lessons as [Lesson, Lesson, Lesson, Lesson];
    const before = await Promise.all([w1, w4].map((lesson) => lessonOf(student, lesson.id)));

    const cancelled = await send(t, 'POST', `/api/lessons/${w2.id}/cancel`, { reason: 'Trip' }, student.jar);
    expect(cancelled.status).toBe(200);
    const newStart = Date.parse(w3.start) + DAY;
    const moved = await send(
      t,
      'POST',
      `/api/lessons/${w3.id}/reschedule`,
      { start: iso(newStart) },
      student.jar,
    );
    expect(moved.status, await moved.clone().text()).toBe(200);

    const after = await Promise.all(series.lessons.map((lesson) => lessonOf(student, lesson.id)));
    expect(after[1]).toMatchObject({ status: 'cancelled', seriesId: series.id });
    expect(after[2]).toMatchObject({ status: 'confirmed', start: iso(newStart), seriesId: series.id });
    expect([after[0], after[3]]).toEqual(before);
    // Only that week's mail: a cancellation of one lesson.
    const mail = await mailbox.waitFor(
      (m) => m.to === tutor.email && m.subject.startsWith('Lesson cancelled'),
    );
    expect(new ICAL.Component(ICAL.parse(mail.calendar ?? '')).getAllSubcomponents('vevent')).toHaveLength(1);
  });

  it('cancels the rest of a series, each week under the cancel rules: inside the window the tutor gives a reason', async () => {
    const tutor = await tutorWith(t, { weekly: everyDay('00:00', '24:00') });
    const student = await person('student');
    const step = 30 * 60 * 1000;
    const first = Math.ceil((Date.now() + 3 * HOUR) / step) * step;
    const series = await booked(await bookSeries(student, tutor.id, first, 4));
    expect(series.lessons).toHaveLength(4);

    const stranger = await person('student');
    expect((await send(t, 'POST', `/api/series/${series.id}/cancel`, {}, stranger.jar)).status).toBe(404);

    // The first week is inside the tutor's 24-hour window: the single-lesson rule asks the tutor
    // for a reason there, so without one nothing is called off.
    const bare = await send(t, 'POST', `/api/series/${series.id}/cancel`, {}, tutor.jar);
    expect(bare.status).toBe(400);
    const untouched = await Promise.all(series.lessons.map((lesson) => lessonOf(student, lesson.id)));
    expect(untouched.map((lesson) => lesson.status)).toEqual([
      'confirmed',
      'confirmed',
      'confirmed',
      'confirmed',
    ]);

    const res = await send(
      t,
      'POST',
      `/api/series/${series.id}/cancel`,
      { reason: 'Moving away' },
      tutor.jar,
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = (await res.json()).series as Series & {
      kept: { lessonId: string; code: string }[];
    };
    expect(answer.lessons.map((lesson) => lesson.status)).toEqual([
      'cancelled',
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
    expect(answer.kept).toEqual([]);
    // A tutor's cancellation never costs the student anything, inside the window or not.
    expect(answer.lessons.map((lesson) => lesson.cancellation.fee.amountCents)).toEqual([0, 0, 0, 0]);
    expect(answer.lessons[0]?.cancellation).toMatchObject({ by: 'tutor', reason: 'Moving away' });
  });
});

describe('a series with payments on', () => {
  let money: TestApp;
  beforeAll(async () => {
    money = await createTestApp({ env: { SMTP_URL: mailbox.smtpUrl, PAYMENTS: '' } });
  });
  afterAll(async () => {
    await money.close();
  });

  it('holds every week’s price, or books nothing and says how much is missing', async () => {
    const admin = await makeAdmin(money, await verifiedPerson(money, mailbox, 'student', 'Admin Money'));
    const tutor = await tutorWith(money);
    const student = await verifiedPerson(money, mailbox, 'student', 'Student Money');
    await topUp(money, student, admin, 10_000);

    // Four weeks at $40 need $160: $60 short, and nothing is booked.
    const short = await bookSeries(student, tutor.id, at(2, '10:00'), 4, money);
    expect(short.status).toBe(409);
    expect(await short.json()).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      needed: { amountCents: 6000, currency: 'USD' },
    });
    const none = await money.database.db
      .selectFrom('lessons')
      .select('id')
      .where('student_id', '=', student.id)
      .execute();
    expect(none).toHaveLength(0);
    expect((await walletOf(money, student)).balance).toEqual({ amountCents: 10_000, currency: 'USD' });

    const res = await bookSeries(student, tutor.id, at(2, '10:00'), 2, money);
    const series = await booked(res);
    expect(series.lessons.map((lesson) => lesson.payment.status)).toEqual(['held', 'held']);
    expect((await walletOf(money, student)).balance).toEqual({ amountCents: 2000, currency: 'USD' });
  });

  it('gives every week’s hold back when the tutor declines the series', async () => {
    const admin = await makeAdmin(money, await verifiedPerson(money, mailbox, 'student', 'Admin Money'));
    const tutor = await tutorWith(money, { instantBooking: false });
    const student = await verifiedPerson(money, mailbox, 'student', 'Student Money');
    await topUp(money, student, admin, 12_000);
    const series = await booked(await bookSeries(student, tutor.id, at(3, '10:00'), 3, money));
    expect((await walletOf(money, student)).balance).toEqual({ amountCents: 0, currency: 'USD' });
    const declined = await send(money, 'POST', `/api/series/${series.id}/decline`, {}, tutor.jar);
    expect(declined.status).toBe(200);
    expect((await walletOf(money, student)).balance).toEqual({ amountCents: 12_000, currency: 'USD' });
  });
});
