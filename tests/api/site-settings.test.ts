/**
 * Site settings over the API, on both stores: only admins read and change them; the school's real
 * counts for the home page's figures (tests/api/school-figures.test.ts counts them), the first
 * description's hours, the configured support address and phone, and no promised reply time until
 * an admin saves others; each change that changes something audited once, saying what; GET /api/config and
 * every page showing a change at once on this server and soon on another one sharing the
 * database; contact messages forwarded to the address in effect; the subject catalogue (added
 * subjects chosen and found, retired ones kept where they are but not chosen anew, restored); and a
 * plain 400 for each bad input.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../src/server/admin/admin-command';
import type { Database } from '../../src/server/db/database';
import { DEFAULT_CATALOG } from '../../src/shared/tutor-catalog';
import { type CookieJar, get, send, signIn, verifiedPerson } from '../support/accounts';
import { type MailCatcher, startMailCatcher } from '../support/mail-catcher';
import { createTestApp, type TestApp } from '../support/test-app';

const CONFIGURED_INSTRUCTIONS = 'Pay Violin School Ltd, sort code 00-00-00, account 12345678.';

let t: TestApp;
let mailbox: MailCatcher;
let clientDir: string;
beforeAll(async () => {
  mailbox = await startMailCatcher();
  clientDir = mkdtempSync(join(tmpdir(), 'tutorlane-client-'));
  writeFileSync(
    join(clientDir, 'index.html'),
    '<!doctype html><html><head><title>shell</title></head><body></body></html>',
  );
  t = await createTestApp({
    clientDir,
    env: {
      SMTP_URL: mailbox.smtpUrl,
      SUPPORT_EMAIL: 'help@school.example',
      SUPPORT_PHONE: '+44 20 7946 0000',
      PAYMENT_INSTRUCTIONS: `  ${CONFIGURED_INSTRUCTIONS}\n`,
    },
  });
});
afterAll(async () => {
  await t.close();
  await mailbox.close();
});

interface Person {
  jar: CookieJar;
  id: string;
  email: string;
  name: string;
}

let count = 0;
const person = (role: 'student' | 'tutor', name?: string): Promise<Person> => {
  count += 1;
  return verifiedPerson(t, mailbox, role, name ?? `${role === 'tutor' ? 'Tutor' : 'Student'} Number${count}`);
};

/** An admin, granted the command line's way (the only way there is). */
async function adminPerson(): Promise<Person> {
  const who = await person('student', `Admin Number${++count}`);
  const database = async (): Promise<Database> => ({ ...t.database, close: async () => {} });
  expect(await runAdminCommand(['grant', who.email], database)).toMatchObject({ exitCode: 0 });
  return { ...who, jar: (await signIn(t, who.email)).jar };
}

const settingsOf = async (admin: Person) => (await get(t, '/api/admin/settings', admin.jar)).json();
const change = (admin: Person, body: unknown) => send(t, 'PATCH', '/api/admin/settings', body, admin.jar);
const config = async (app: TestApp = t) => (await app.request('/api/config')).json();
const pageConfig = async (path: string, app: TestApp = t) =>
  JSON.parse(
    /<script id="tl-config" type="application\/json">(.*?)<\/script>/.exec(
      await (await app.request(path)).text(),
    )?.[1] ?? 'null',
  );
const settingsAudit = async () =>
  (
    await t.database.db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'target', 'reason'])
      .where('action', '=', 'settings.changed')
      .orderBy('id')
      .execute()
  ).map((row) => ({ ...row }));

const figures = { studentsHelped: '1,200+', expertTutors: '35', lessonsCompleted: '8,000+' };
const support = {
  email: 'office@violin-school.example',
  phone: '+1 (555) 010-7788',
  hours: 'Mon-Thu 8-8, Fri 8-2',
};

/** A published tutor teaching `subjects`. */
async function tutorTeaching(subjects: string[], name?: string) {
  const who = await person('tutor', name);
  const res = await send(
    t,
    'PATCH',
    '/api/profile/details',
    { headline: 'Patient lessons', about: 'Step by step.', subjects, hourlyRate: 40, languages: ['English'] },
    who.jar,
  );
  expect(res.status, await res.clone().text()).toBe(200);
  return who;
}

const setSubjects = (who: Person, subjects: string[]) =>
  send(t, 'PATCH', '/api/profile/details', { subjects }, who.jar);

const search = async (query: string) => {
  const res = await t.request(`/api/tutors?${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { tutors: { displayName: string }[] }).tutors.map(
    (tutor) => tutor.displayName,
  );
};

describe('who may read and change them', () => {
  it('answers 401 signed out and 403 to students and tutors, and changes nothing for them', async () => {
    const student = await person('student');
    const tutor = await person('tutor');
    const before = (await config()).homeFigures;
    for (const jar of [undefined, student.jar, tutor.jar]) {
      const expected = jar ? 403 : 401;
      expect((await get(t, '/api/admin/settings', jar)).status).toBe(expected);
      expect((await send(t, 'PATCH', '/api/admin/settings', { homeFigures: figures }, jar)).status).toBe(
        expected,
      );
    }
    expect((await config()).homeFigures).toEqual(before);
  });
});

describe('figures and support details', () => {
  it('start as the school’s real counts, the first description’s hours, the configured support email and phone, and no reply time promised', async () => {
    const admin = await adminPerson();
    const settings = await settingsOf(admin);
    // No figure set: the home page shows the counts, none of which reached 10 yet.
    expect(settings.homeFigures).toBeNull();
    expect(settings.homeCounts).toEqual({ studentsHelped: 0, expertTutors: 0, lessonsCompleted: 0 });
    expect((await config()).homeFigures).toEqual({
      studentsHelped: null,
      expertTutors: null,
      lessonsCompleted: null,
    });
    expect(settings.support).toEqual({
      email: 'help@school.example',
      phone: '+44 20 7946 0000',
      hours: 'Mon-Fri 9-6, Sat 10-4, Sun closed',
    });
    expect(settings.supportReplyHours).toBeNull();
    expect((await config()).support).toEqual(settings.support);
    expect((await config()).supportReplyHours).toBeNull();

    // The contact form's mail to support promises the visitor nothing either.
    const sent = await send(t, 'POST', '/api/contact', {
      name: 'Nora Newcomer',
      email: 'nora@example.com',
      subject: 'general',
      message: 'Do you teach the cello?',
    });
    expect(sent.status).toBe(201);
    const mail = await mailbox.waitFor((caught) => caught.text.includes('cello'));
    expect(mail.text).toContain('Reply to this mail to answer them directly.\n');
    expect(mail.text).not.toMatch(/within|as promised/);
    expect(mail.html).not.toMatch(/within|as promised/);
  });

  it('an admin’s change shows at once in GET /api/config and every page, is audited once, and takes the contact form’s mail', async () => {
    const admin = await adminPerson();
    const res = await change(admin, { homeFigures: figures, support, supportReplyHours: 24 });
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = await res.json();
    expect(answer).toMatchObject({ homeFigures: figures, support, supportReplyHours: 24 });
    expect(answer.changed).toEqual([
      'Students helped: the real count → 1,200+',
      'Expert tutors: the real count → 35',
      'Lessons completed: the real count → 8,000+',
      'Support email: help@school.example → office@violin-school.example',
      'Support phone: +44 20 7946 0000 → +1 (555) 010-7788',
      'Business hours: Mon-Fri 9-6, Sat 10-4, Sun closed → Mon-Thu 8-8, Fri 8-2',
      'Support reply time: not set → 24 hours',
    ]);
    expect(await settingsOf(admin)).toMatchObject({ homeFigures: figures, support, supportReplyHours: 24 });

    // At once on this server: the API, which a cache may keep only to revalidate, and the pages.
    const fromApi = await t.request('/api/config');
    expect(fromApi.headers.get('cache-control')).toBe('public, no-cache');
    const body = await fromApi.json();
    expect(body).toMatchObject({ homeFigures: figures, support, supportReplyHours: 24 });
    const etag = fromApi.headers.get('etag');
    expect(etag).toBeTruthy();
    expect((await t.request('/api/config', { headers: { 'if-none-match': etag ?? '' } })).status).toBe(304);
    for (const path of ['/', '/contact', '/profile']) expect(await pageConfig(path)).toEqual(body);

    // One entry, by the admin, saying what changed.
    const audit = await settingsAudit();
    expect(audit.at(-1)).toEqual({
      actor: `${admin.name} <${admin.email}>`,
      action: 'settings.changed',
      target: 'Site settings',
      reason: answer.changed.join('\n'),
    });

    // The contact form's messages now go to the new address.
    const sent = await send(t, 'POST', '/api/contact', {
      name: 'Vera Visitor',
      email: 'vera@example.com',
      subject: 'general',
      message: 'Do you teach the viola too?',
    });
    expect(sent.status).toBe(201);
    const mail = await mailbox.waitFor(
      (caught) => caught.to.includes('office@violin-school.example') && caught.text.includes('viola'),
    );
    expect(mail.headers['reply-to']).toContain('vera@example.com');
    // With the reply time the site now promises.
    expect(mail.text).toContain(
      'Reply to this mail to answer them directly (within 24 hours, as promised on the site).',
    );

    // The overview still finds the forward of a message sent to the old address.
    const overview = await (await get(t, '/api/admin/overview', admin.jar)).json();
    expect(overview.contactMessages[0]).toMatchObject({ name: 'Vera Visitor' });
    expect(overview.contactMessages[0].state).not.toBe('unknown');
  });

  it('changes nothing, and audits nothing, when the values sent are those in effect', async () => {
    const admin = await adminPerson();
    const before = await settingsAudit();
    const current = await settingsOf(admin);
    const res = await change(admin, {
      homeFigures: current.homeFigures,
      support: current.support,
      supportReplyHours: current.supportReplyHours,
    });
    expect(res.status).toBe(200);
    expect((await res.json()).changed).toEqual([]);
    expect(await settingsAudit()).toEqual(before);
  });

  it('takes a default language, said in GET /api/config at once, and null gives the configuration’s back', async () => {
    const admin = await adminPerson();
    const configured = (await config()).defaultLanguage;
    expect(await settingsOf(admin)).toMatchObject({ defaultLanguage: configured, defaultLanguageSet: false });
    const res = await change(admin, { defaultLanguage: 'es' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await config()).defaultLanguage).toBe('es');
    expect(await settingsOf(admin)).toMatchObject({ defaultLanguage: 'es', defaultLanguageSet: true });
    expect((await change(admin, { defaultLanguage: null })).status).toBe(200);
    expect((await config()).defaultLanguage).toBe(configured);
    expect(await settingsOf(admin)).toMatchObject({ defaultLanguage: configured, defaultLanguageSet: false });
  });

  it('takes the reply time back with null: nothing is promised from then on', async () => {
    const admin = await adminPerson();
    expect((await change(admin, { supportReplyHours: 48 })).status).toBe(200);
    expect((await config()).supportReplyHours).toBe(48);
    const res = await change(admin, { supportReplyHours: null });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()).changed).toEqual(['Support reply time: 48 hours → not set']);
    expect((await config()).supportReplyHours).toBeNull();
    expect((await settingsAudit()).at(-1)?.reason).toBe('Support reply time: 48 hours → not set');
    expect(
      (
        await send(t, 'POST', '/api/contact', {
          name: 'Otto Later',
          email: 'otto@example.com',
          subject: 'general',
          message: 'Is the oboe taught?',
        })
      ).status,
    ).toBe(201);
    const mail = await mailbox.waitFor((caught) => caught.text.includes('oboe'));
    expect(mail.text).not.toMatch(/within|as promised/);
  });

  it('keeps PAYMENT_INSTRUCTIONS until an admin writes others, shown at once and audited whole; null gives them back', async () => {
    const admin = await adminPerson();
    const before = await settingsOf(admin);
    expect(before).toMatchObject({
      paymentInstructions: CONFIGURED_INSTRUCTIONS,
      paymentInstructionsSet: false,
    });
    expect((await config()).payments.instructions).toBe(CONFIGURED_INSTRUCTIONS);
    // The configured text sent back is no change: nothing saved, nothing audited.
    const same = await change(admin, { paymentInstructions: CONFIGURED_INSTRUCTIONS });
    expect((await same.json()).changed).toEqual([]);
    expect((await settingsOf(admin)).paymentInstructionsSet).toBe(false);

    // Trimmed, its line breaks kept; exactly 2,000 characters is allowed.
    const written = 'Bank: Violin School Ltd\nIBAN GB33 BUKB 2020 1555 5555 55\n\nOr pay at the front desk.';
    const longest = written.padEnd(2000, '.');
    expect((await change(admin, { paymentInstructions: longest })).status).toBe(200);
    const res = await change(admin, { paymentInstructions: `\n  ${written}  \n` });
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = await res.json();
    expect(answer).toMatchObject({ paymentInstructions: written, paymentInstructionsSet: true });
    expect(answer.changed).toEqual([
      `Payment instructions: ${JSON.stringify(longest)} → ${JSON.stringify(written)}`,
    ]);
    expect((await settingsAudit()).slice(-2)).toEqual([
      {
        actor: `${admin.name} <${admin.email}>`,
        action: 'settings.changed',
        target: 'Site settings',
        reason: `Payment instructions: the default → ${JSON.stringify(longest)}`,
      },
      {
        actor: `${admin.name} <${admin.email}>`,
        action: 'settings.changed',
        target: 'Site settings',
        reason: `Payment instructions: ${JSON.stringify(longest)} → ${JSON.stringify(written)}`,
      },
    ]);
    // At once: the public config and every page (tests/api/money.test.ts: the top-ups).
    expect((await config()).payments.instructions).toBe(written);
    expect((await pageConfig('/wallet')).payments.instructions).toBe(written);
    const reset = await change(admin, { paymentInstructions: null });
    expect(reset.status, await reset.clone().text()).toBe(200);
    const back = await reset.json();
    expect(back).toMatchObject({
      paymentInstructions: CONFIGURED_INSTRUCTIONS,
      paymentInstructionsSet: false,
    });
    expect(back.changed).toEqual([`Payment instructions: ${JSON.stringify(written)} → the default`]);
    expect((await settingsAudit()).at(-1)?.reason).toBe(
      `Payment instructions: ${JSON.stringify(written)} → the default`,
    );
    expect((await config()).payments.instructions).toBe(CONFIGURED_INSTRUCTIONS);
    // Null again changes nothing.
    expect((await (await change(admin, { paymentInstructions: null })).json()).changed).toEqual([]);
  });

  it('shows on another server sharing the database soon after', async () => {
    const admin = await adminPerson();
    const other = await createTestApp({
      database: t.database,
      clientDir,
      overrides: { settingsMaxAgeMs: 100 },
    });
    const next = { ...figures, expertTutors: '36' };
    expect((await config(other)).homeFigures.expertTutors).not.toBe('36');
    expect((await change(admin, { homeFigures: next })).status).toBe(200);
    await expect.poll(async () => (await config(other)).homeFigures, { timeout: 15_000 }).toEqual(next);
    await expect
      .poll(async () => (await pageConfig('/', other))?.homeFigures, { timeout: 15_000 })
      .toEqual(next);
  });

  it.each([
    [
      'an empty figure',
      { homeFigures: { ...figures, studentsHelped: '  ' } },
      'Students helped must not be empty: write a figure such as 10,000+',
    ],
    [
      'a figure too long',
      { homeFigures: { ...figures, expertTutors: '9'.repeat(21) } },
      'Expert tutors must be at most 20 characters',
    ],
    [
      'a figure missing',
      { homeFigures: { studentsHelped: '1', expertTutors: '2' } },
      'Lessons completed must not be empty: write a figure such as 10,000+',
    ],
    [
      'a figure on two lines',
      { homeFigures: { ...figures, lessonsCompleted: '8,000\n+' } },
      'Lessons completed must be on one line',
    ],
    [
      'an unknown figure',
      { homeFigures: { ...figures, teachersHappy: '100%' } },
      'The home figures have no such field: teachersHappy',
    ],
    [
      'a malformed email',
      { support: { ...support, email: 'office at school' } },
      'The support email must be an address such as support@example.com',
    ],
    ['an empty email', { support: { ...support, email: '' } }, 'Please give the support email address'],
    [
      'an email too long',
      { support: { ...support, email: `${'a'.repeat(250)}@b.example` } },
      'The support email must be at most 254 characters',
    ],
    [
      'a phone with letters',
      { support: { ...support, phone: 'call us maybe' } },
      'The support phone may hold only digits, spaces and + ( ) - . /',
    ],
    [
      'a phone without digits enough',
      { support: { ...support, phone: '+ 1' } },
      'The support phone needs at least 3 digits',
    ],
    [
      'a phone too long',
      { support: { ...support, phone: '1'.repeat(41) } },
      'The support phone must be at most 40 characters',
    ],
    [
      'hours with an empty part',
      { support: { ...support, hours: 'Mon-Fri 9-6,, Sun closed' } },
      'Business hours have an empty part: write days and times between the commas, such as Mon-Fri 9-6, Sat 10-4',
    ],
    [
      'hours too long',
      { support: { ...support, hours: 'x'.repeat(121) } },
      'Business hours must be at most 120 characters',
    ],
    [
      'empty hours',
      { support: { ...support, hours: '' } },
      'Please give your business hours, such as Mon-Fri 9-6, Sat 10-4, Sun closed',
    ],
    [
      'support without hours',
      { support: { email: support.email, phone: support.phone } },
      'Please give your business hours, such as Mon-Fri 9-6, Sat 10-4, Sun closed',
    ],
    ...[0, 169, 1.5, '24', -24].map((hours): [string, object, string] => [
      `a reply time of ${JSON.stringify(hours)} hours`,
      { supportReplyHours: hours },
      'The reply time must be a whole number of hours from 1 to 168 (a week)',
    ]),
    ['an unknown part', { theme: 'dark' }, 'The site settings have no such field: theme'],
    [
      'nothing at all',
      {},
      'Nothing to change: send homeFigures, support, supportReplyHours, paymentInstructions, hourlyRateRange, defaultLanguage or subjects',
    ],
    [
      'payment instructions of 2,001 characters',
      { paymentInstructions: 'x'.repeat(2001) },
      'Payment instructions must be at most 2000 characters',
    ],
    [
      'blank payment instructions',
      { paymentInstructions: ' \n ' },
      'Please write the payment instructions, or go back to the default ones',
    ],
    [
      'payment instructions that are not text',
      { paymentInstructions: 42 },
      'Please write the payment instructions, or go back to the default ones',
    ],
    [
      'payment instructions with a control character',
      { paymentInstructions: 'IBAN\u0007 GB00' },
      'Payment instructions must not contain control characters',
    ],
    [
      'an unknown category',
      { subjects: { add: [{ category: 'Sports', name: 'Tennis' }] } },
      'Unknown category: choose Math & Science, Languages, Programming or Arts & Design',
    ],
    [
      'a subject without a name',
      { subjects: { add: [{ category: 'Languages', name: '   ' }] } },
      'Please name the subject',
    ],
    [
      'a subject name too long',
      { subjects: { add: [{ category: 'Languages', name: 'L'.repeat(41) }] } },
      "A subject's name must be at most 40 characters",
    ],
    [
      'a subject name with a direction mark',
      { subjects: { add: [{ category: 'Languages', name: 'Lat\u202ein' }] } },
      "A subject's name must not contain invisible formatting characters",
    ],
    [
      'a subject already there, in another case',
      { subjects: { add: [{ category: 'Programming', name: ' python ' }] } },
      'Python is already in the catalogue, in Programming',
    ],
    [
      'a subject named twice',
      { subjects: { add: [{ category: 'Languages', name: 'Latin' }], retire: ['latin'] } },
      'latin is named twice in this change: add or retire each subject once',
    ],
    [
      'retiring an unknown subject',
      { subjects: { retire: ['Alchemy'] } },
      'There is no subject named Alchemy in the catalogue to retire',
    ],
  ])('refuses %s with 400 and a message, changing nothing', async (_, body, message) => {
    const admin = await adminPerson();
    const before = await settingsOf(admin);
    const audit = await settingsAudit();
    const res = await change(admin, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message, code: 'VALIDATION_ERROR' });
    expect(await settingsOf(admin)).toEqual(before);
    expect(await settingsAudit()).toEqual(audit);
  });
});

describe('the subject catalogue', () => {
  it('starts as the list tutors always had, in its order', async () => {
    expect((await config()).subjects).toEqual(DEFAULT_CATALOG);
  });

  it('takes an added subject: offered in the config, chosen on a profile, found by its category and by name', async () => {
    const admin = await adminPerson();
    const res = await change(admin, {
      subjects: { add: [{ category: 'Arts & Design', name: '  Violin ' }] },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const answer = await res.json();
    expect(answer.changed).toEqual(['Subjects added: Violin (Arts & Design)']);
    expect(answer.subjects.at(-1)).toEqual({
      name: 'Violin',
      category: 'Arts & Design',
      retired: false,
      tutors: 0,
    });
    const arts = (await config()).subjects.find(
      (entry: { category: string }) => entry.category === 'Arts & Design',
    );
    expect(arts.offered.at(-1)).toBe('Violin');

    await tutorTeaching(['Violin'], 'Vivian Violinist');
    expect(await search('category=Arts%20%26%20Design&q=Vivian')).toEqual(['Vivian Violinist']);
    expect(await search('subject=Violin')).toEqual(['Vivian Violinist']);
    expect(await search('category=Languages&q=Vivian')).toEqual([]);
    expect((await settingsOf(admin)).subjects.at(-1)).toMatchObject({ name: 'Violin', tutors: 1 });
  });

  it('keeps a retired subject where it is (shown, searched, booked) but offers it to nobody new; adding it back restores it', async () => {
    const admin = await adminPerson();
    expect(
      (await change(admin, { subjects: { add: [{ category: 'Languages', name: 'Latin' }] } })).status,
    ).toBe(200);
    const keeper = await tutorTeaching(['Latin', 'English'], 'Lucius Keeper');

    const retired = await change(admin, { subjects: { retire: ['LATIN'] } });
    expect(retired.status, await retired.clone().text()).toBe(200);
    expect((await retired.json()).changed).toEqual(['Subjects retired: Latin (Languages)']);
    const languages = (await config()).subjects.find(
      (entry: { category: string }) => entry.category === 'Languages',
    );
    expect(languages.offered).not.toContain('Latin');
    expect(languages.retired).toEqual(['Latin']);
    // Retiring it again changes nothing.
    expect((await (await change(admin, { subjects: { retire: ['Latin'] } })).json()).changed).toEqual([]);

    // The tutor who has it keeps it through their next save, and is still found and booked by it.
    expect((await setSubjects(keeper, ['English', 'Latin'])).status).toBe(200);
    expect(await search('subject=Latin')).toEqual(['Lucius Keeper']);
    expect(await search('category=Languages&q=Lucius')).toEqual(['Lucius Keeper']);
    const zone = 'Europe/Rome';
    const availability = await send(
      t,
      'PUT',
      '/api/availability',
      {
        timeZone: zone,
        weekly: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '08:00', end: '20:00' })),
        overrides: [],
        lessonMinutes: [60],
        slotStepMinutes: 60,
        minimumNoticeHours: 0,
        bookingHorizonDays: 60,
        bufferMinutes: 0,
        instantBooking: true,
      },
      keeper.jar,
    );
    expect(availability.status, await availability.clone().text()).toBe(200);
    const start = Temporal.Now.zonedDateTimeISO(zone)
      .toPlainDate()
      .add({ days: 2 })
      .toZonedDateTime({ timeZone: zone, plainTime: Temporal.PlainTime.from('10:00') })
      .toInstant()
      .toString();
    const student = await person('student');
    const booked = await send(
      t,
      'POST',
      '/api/lessons',
      { tutorId: keeper.id, start, minutes: 60, subject: 'Latin' },
      student.jar,
    );
    expect(booked.status, await booked.clone().text()).toBe(201);
    // A student may still set a goal in it: the tutors who kept it teach it.
    expect(
      (await send(t, 'POST', '/api/goals', { subject: 'Latin', title: 'Read Caesar' }, student.jar)).status,
    ).toBe(201);

    // Anyone else cannot choose it any more; once dropped, the keeper cannot take it back either.
    const newcomer = await tutorTeaching(['English'], 'Nora Newcomer');
    const refused = await setSubjects(newcomer, ['English', 'Latin']);
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toBe(
      'Latin is no longer offered: please choose subjects from the list',
    );
    expect((await setSubjects(keeper, ['English'])).status).toBe(200);
    expect((await setSubjects(keeper, ['English', 'Latin'])).status).toBe(400);

    // Added back in another category: refused, saying where it belongs; in its own: restored.
    const elsewhere = await change(admin, {
      subjects: { add: [{ category: 'Arts & Design', name: 'Latin' }] },
    });
    expect(elsewhere.status).toBe(400);
    expect((await elsewhere.json()).message).toBe(
      'Latin is a retired subject of Languages: add it to Languages to restore it',
    );
    const restored = await change(admin, { subjects: { add: [{ category: 'Languages', name: 'latin' }] } });
    expect((await restored.json()).changed).toEqual(['Subjects restored: Latin (Languages)']);
    expect((await setSubjects(newcomer, ['English', 'Latin'])).status).toBe(200);

    expect((await settingsAudit()).slice(-3).map((entry) => entry.reason)).toEqual([
      'Subjects added: Latin (Languages)',
      'Subjects retired: Latin (Languages)',
      'Subjects restored: Latin (Languages)',
    ]);
  });

  it('refuses a subject the catalogue does not have, in a profile, a search and a goal', async () => {
    const who = await tutorTeaching(['Algebra']);
    const profile = await setSubjects(who, ['Astrology']);
    expect(profile.status).toBe(400);
    expect((await profile.json()).message).toBe('Please choose subjects from the list');
    const found = await t.request('/api/tutors?subject=Astrology');
    expect(found.status).toBe(400);
    expect((await found.json()).message).toBe('Unknown subject');
    const student = await person('student');
    const goal = await send(t, 'POST', '/api/goals', { subject: 'Astrology', title: 'Stars' }, student.jar);
    expect(goal.status).toBe(400);
    expect((await goal.json()).message).toBe('Please choose a subject');
  });
});
