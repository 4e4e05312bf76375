/**
 * Each person's zone: the browser reports its zone once for a person who never saved one
 * (POST /api/profile/time-zone), which never overwrites a zone the person chose, not even when
 * tabs race; the session tells the browser whether one is saved; and every lesson mail writes its
 * times in the reader's zone, named in words.
 */
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { lessonTimeLabel } from '../../src/shared/lessons/lesson-times';
import { type CookieJar, get, send, signUp, verifiedPerson } from '../support/accounts';
import { mailbox, setUpApiTest, t } from '../support/api-app';

setUpApiTest();

const report = (jar: CookieJar | undefined, body: unknown) =>
  send(t, 'POST', '/api/profile/time-zone', body, jar);

const sessionUser = async (jar: CookieJar) => (await (await get(t, '/api/session', jar)).json()).user;
const savedZone = async (jar: CookieJar) =>
  (await (await get(t, '/api/profile/details', jar)).json()).timeZone as string | null;

let people = 0;
const student = () => {
  people += 1;
  return verifiedPerson(t, mailbox, 'student', `Zone Student ${people}`);
};

describe('the zone a browser reports', () => {
  it('is saved the first time, then never replaces it', async () => {
    const who = await student();
    expect((await sessionUser(who.jar)).timeZone).toBeNull();

    const first = await report(who.jar, { timeZone: 'America/New_York' });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ timeZone: 'America/New_York', saved: true });
    who.jar.store(first);
    expect(await savedZone(who.jar)).toBe('America/New_York');

    // Another browser of theirs, elsewhere: the saved zone stays, and the answer says which it is.
    const second = await report(who.jar, { timeZone: 'Asia/Tokyo' });
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ timeZone: 'America/New_York', saved: false });
    expect(await savedZone(who.jar)).toBe('America/New_York');
  });

  it('tells the session at once, so the next page this browser loads knows a zone is saved', async () => {
    const who = await student();
    const res = await report(who.jar, { timeZone: 'Europe/Lisbon' });
    who.jar.store(res);
    // GET /api/session reads the session's signed cookie cache: the answer refreshed it.
    expect((await sessionUser(who.jar)).timeZone).toBe('Europe/Lisbon');
  });

  it('never overwrites a zone the person chose on their profile', async () => {
    const who = await student();
    expect(
      (await send(t, 'PATCH', '/api/profile/details', { timeZone: 'Asia/Kolkata' }, who.jar)).status,
    ).toBe(200);
    const res = await report(who.jar, { timeZone: 'America/Chicago' });
    expect(await res.json()).toEqual({ timeZone: 'Asia/Kolkata', saved: false });
    expect(await savedZone(who.jar)).toBe('Asia/Kolkata');
    // The profile still changes it whenever the person wants.
    await send(t, 'PATCH', '/api/profile/details', { timeZone: 'Europe/Paris' }, who.jar);
    expect(await savedZone(who.jar)).toBe('Europe/Paris');
  });

  it('saves exactly one zone when tabs report different zones at once', async () => {
    const who = await student();
    const zones = ['Europe/Berlin', 'Asia/Tokyo', 'America/Denver', 'Australia/Perth', 'Africa/Lagos'];
    const answers = await Promise.all(
      zones
        .flatMap((zone) => [zone, zone])
        .map(async (zone) => (await report(who.jar, { timeZone: zone })).json()),
    );
    const kept = await savedZone(who.jar);
    expect(zones).toContain(kept);
    expect(answers.filter((answer) => answer.saved)).toHaveLength(1);
    expect(answers.every((answer) => answer.timeZone === kept)).toBe(true);
  });

  it('takes only a zone the server knows: 400 otherwise, and nothing is saved', async () => {
    const who = await student();
    for (const [body, message] of [
      [{ timeZone: 'Mars/Olympus_Mons' }, 'Please choose a valid time zone'],
      [{ timeZone: 'America/New_York'.repeat(5) }, 'Please choose a valid time zone'],
      [{ timeZone: 42 }, 'Please choose a valid time zone'],
      [{}, 'Please choose a valid time zone'],
      [{ timeZone: 'Europe/Rome', role: 'tutor' }, undefined],
    ] as const) {
      const res = await report(who.jar, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const answer = await res.json();
      expect(answer.code).toBe('VALIDATION_ERROR');
      if (message) expect(answer.message).toBe(message);
    }
    expect(await savedZone(who.jar)).toBeNull();
  });

  it('is for signed-in people: 401 signed out, whatever the body; the unverified may report', async () => {
    expect((await report(undefined, { timeZone: 'Europe/Rome' })).status).toBe(401);
    expect((await report(undefined, { timeZone: 'nowhere' })).status).toBe(401);
    const unverified = await signUp(t, { name: 'Una Zone' });
    const res = await report(unverified.jar, { timeZone: 'Europe/Rome' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ timeZone: 'Europe/Rome', saved: true });
  });
});

describe('times in mail', () => {
  const TUTOR_ZONE = 'Europe/Madrid';

  async function bookableTutor() {
    const tutor = await verifiedPerson(t, mailbox, 'tutor', 'Marta Madrid');
    const profile = await send(
      t,
      'PATCH',
      '/api/profile/details',
      {
        headline: 'Algebra',
        about: 'Patient.',
        subjects: ['Algebra'],
        hourlyRate: 40,
        languages: ['English'],
      },
      tutor.jar,
    );
    expect(profile.status).toBe(200);
    const hours = await send(
      t,
      'PUT',
      '/api/availability',
      {
        timeZone: TUTOR_ZONE,
        weekly: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '08:00', end: '20:00' })),
        overrides: [],
        lessonMinutes: [60],
        slotStepMinutes: 30,
        minimumNoticeHours: 0,
        bookingHorizonDays: 60,
        bufferMinutes: 0,
        instantBooking: true,
      },
      tutor.jar,
    );
    expect(hours.status).toBe(200);
    return tutor;
  }

  /** 15:00 in Madrid, `days` from today there. */
  const startIn = (days: number) =>
    Temporal.Now.zonedDateTimeISO(TUTOR_ZONE)
      .toPlainDate()
      .add({ days })
      .toZonedDateTime({ timeZone: TUTOR_ZONE, plainTime: Temporal.PlainTime.from('15:00') })
      .epochMilliseconds;

  async function confirmationTo(email: string) {
    return mailbox.waitFor((mail) => mail.to === email && mail.subject.includes('Lesson confirmed'));
  }

  it('says the time in the reader’s zone, named in words: Eastern Time for a browser in New York', async () => {
    const tutor = await bookableTutor();
    const who = await student();
    expect((await report(who.jar, { timeZone: 'America/New_York' })).status).toBe(200);
    const start = startIn(4);
    const booked = await send(
      t,
      'POST',
      '/api/lessons',
      { tutorId: tutor.id, start: new Date(start).toISOString(), minutes: 60, subject: 'Algebra' },
      who.jar,
    );
    expect(booked.status).toBe(201);

    const studentMail = await confirmationTo(who.email);
    const inNewYork = lessonTimeLabel(start, start + 3_600_000, 'America/New_York');
    expect(studentMail.text).toContain(`${inNewYork} Eastern Time (New York)`);
    expect(studentMail.html).toContain('Eastern Time (New York)');
    for (const raw of ['America/New_York', 'UTC', ' time)'])
      expect(studentMail.text, `"${raw}" in the mail`).not.toContain(raw);

    const tutorMail = await confirmationTo(tutor.email);
    expect(tutorMail.text).toContain(
      `${lessonTimeLabel(start, start + 3_600_000, TUTOR_ZONE)} Central European Time (Madrid)`,
    );
    expect(tutorMail.text).not.toContain('Europe/Madrid');
  });

  it('says UTC by its name to a person without a zone', async () => {
    const tutor = await bookableTutor();
    const who = await student();
    const start = startIn(5);
    const booked = await send(
      t,
      'POST',
      '/api/lessons',
      { tutorId: tutor.id, start: new Date(start).toISOString(), minutes: 60, subject: 'Algebra' },
      who.jar,
    );
    expect(booked.status).toBe(201);
    const mail = await confirmationTo(who.email);
    expect(mail.text).toContain(
      `${lessonTimeLabel(start, start + 3_600_000, 'UTC')} Coordinated Universal Time (UTC)`,
    );
    expect(mail.text).not.toContain('(UTC time)');
  });
});
