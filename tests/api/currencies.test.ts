/**
 * A school in a currency without cents (JPY) and one with three minor digits (KWD): amounts are
 * integers in the currency's own minor unit (¥3,000 is 3000, KWD 12.000 is 12000), and the hourly
 * rate, a 45- and a 60-minute lesson's price, the tutor's page, the wallet, a receipt, the finance
 * CSV and the mails all say the same amount. The hourly rate's range is a site setting, by default
 * in the currency's own scale, and its message names amounts in the school's currency. Runs on both
 * stores.
 */
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoDatabase } from '../../src/server/demo/demo-seed';
import { get, send, verifiedPerson } from '../support/accounts';
import { mailbox, setUpApiTest, t } from '../support/api-app';
import { openAvailability } from '../support/lessons';
import { financeTotals, makeAdmin, publishTutor, topUp, walletOf } from '../support/money';
import { createTestApp, type TestApp } from '../support/test-app';

const env = { PAYMENTS: 'on', COMMISSION_PERCENT: '10' };
setUpApiTest({ env: { ...env, CURRENCY: 'JPY' } });

let kwd: TestApp;
beforeAll(async () => {
  kwd = await createTestApp({ env: { ...env, CURRENCY: 'KWD', SMTP_URL: mailbox.smtpUrl } });
});
afterAll(async () => {
  await kwd?.close();
});

/** Intl writes "KWD 12.000" with a no-break space. */
const nb = '\u00a0';
const ZONE = 'Europe/Madrid';

/** The instant of `time` on the local date `days` from today in Madrid, where the tutor is open. */
const at = (days: number, time: string) =>
  Temporal.Now.zonedDateTimeISO(ZONE)
    .toPlainDate()
    .add({ days })
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from(time) }).epochMilliseconds;

interface School {
  currency: string;
  app: () => TestApp;
  /** The default range, and what a tutor is told outside it. */
  range: { min: number; max: number };
  outOfRange: { rate: number; message: string };
  /** The rate, in whole units, and the prices it makes, in minor units. */
  rate: number;
  lesson45: number;
  lesson60: number;
  /** The most a trial may cost (half an hour), and the message one above it gets. */
  maxTrial: number;
  trialTooDear: string;
  /** A package of five 60-minute lessons at 10% off. */
  packageLesson: number;
  topUp: number;
  said: { topUp: string; topUpReceipt: string; lesson60Receipt: string; earned: string; price60: string };
  /** A lesson's hold in the entries CSV: the decimal amount and the minor units. */
  csvHold60: string;
  newRange: { min: number; max: number };
  rangeChange: string;
  /** A range whose top rate would overflow the longest lesson's price, and why it is refused. */
  tooHigh: { max: number; message: string };
}

const schools: School[] = [
  {
    currency: 'JPY',
    app: () => t,
    range: { min: 500, max: 50_000 },
    outOfRange: { rate: 400, message: 'Hourly rate must be between ¥500 and ¥50,000' },
    rate: 3000,
    lesson45: 2250,
    lesson60: 3000,
    maxTrial: 1500,
    trialTooDear: 'The trial price can be at most half your hourly rate: ¥1,500',
    packageLesson: 2700,
    topUp: 10_000,
    said: {
      topUp: '¥10,000',
      topUpReceipt: '¥10,000',
      lesson60Receipt: '-¥3,000',
      earned: '¥2,700',
      price60: '¥3,000',
    },
    csvHold60: '3000,3000',
    newRange: { min: 1000, max: 20_000 },
    rangeChange: 'Hourly rate range: ¥500 to ¥50,000 → ¥1,000 to ¥20,000',
    tooHigh: { max: 10_000_001, message: 'The highest hourly rate can be at most 10,000,000' },
  },
  {
    currency: 'KWD',
    app: () => kwd,
    range: { min: 5, max: 500 },
    outOfRange: { rate: 501, message: `Hourly rate must be between KWD${nb}5 and KWD${nb}500` },
    rate: 12,
    lesson45: 9000,
    lesson60: 12_000,
    maxTrial: 6000,
    trialTooDear: `The trial price can be at most half your hourly rate: KWD${nb}6`,
    packageLesson: 10_800,
    topUp: 50_000,
    said: {
      topUp: `KWD${nb}50`,
      topUpReceipt: `KWD${nb}50.000`,
      lesson60Receipt: `-KWD${nb}12.000`,
      earned: `KWD${nb}10.800`,
      price60: `KWD${nb}12.000`,
    },
    csvHold60: '12.000,12000',
    newRange: { min: 10, max: 200 },
    rangeChange: `Hourly rate range: KWD${nb}5 to KWD${nb}500 → KWD${nb}10 to KWD${nb}200`,
    // Two hours at KWD 1,073,742 is more fils than a lesson's 32-bit price can hold.
    tooHigh: { max: 1_073_742, message: `The highest hourly rate can be at most KWD${nb}1,073,741` },
  },
];

let people = 0;
const someone = (app: TestApp, role: 'student' | 'tutor') =>
  verifiedPerson(app, mailbox, role, `${role === 'tutor' ? 'Tutor' : 'Student'} Number${++people}`);

describe.each(schools)('a school in $currency', (school) => {
  it('prices lessons, packages and trials from the hourly rate in whole units, as the tutor page says', async () => {
    const app = school.app();
    const tutor = await publishTutor(app, await someone(app, 'tutor'), { hourlyRate: school.rate });
    const offers = {
      ...openAvailability,
      lessonMinutes: [45, 60],
      packages: [{ lessons: 5, minutes: 60, discountPercent: 10 }],
    };
    const tooDear = await send(
      app,
      'PUT',
      '/api/availability',
      { ...offers, trial: { offered: true, priceCents: school.maxTrial + 1 } },
      tutor.jar,
    );
    expect(tooDear.status).toBe(400);
    expect((await tooDear.json()).message).toBe(school.trialTooDear);
    const saved = await send(
      app,
      'PUT',
      '/api/availability',
      { ...offers, trial: { offered: true, priceCents: school.maxTrial } },
      tutor.jar,
    );
    expect(saved.status, await saved.clone().text()).toBe(200);

    const page = await (await get(app, `/api/tutors/${tutor.id}`)).json();
    expect(page).toMatchObject({ hourlyRate: school.rate, trial: { priceCents: school.maxTrial } });
    expect(page.booking.packages).toEqual([
      expect.objectContaining({ perLessonCents: school.packageLesson, totalCents: 5 * school.packageLesson }),
    ]);
    const search = await (await get(app, '/api/tutors?pageSize=24')).json();
    expect(search.tutors).toContainEqual(
      expect.objectContaining({
        id: tutor.id,
        hourlyRate: school.rate,
        trial: { priceCents: school.maxTrial },
      }),
    );

    // A 45- and a 60-minute lesson, paid from a wallet topped up in the currency's minor unit.
    const student = await someone(app, 'student');
    const admin = await makeAdmin(app, await someone(app, 'student'));
    await topUp(app, student, admin, school.topUp);
    const book = async (days: number, minutes: number) => {
      const res = await send(
        app,
        'POST',
        '/api/lessons',
        { tutorId: tutor.id, start: new Date(at(days, '10:00')).toISOString(), minutes, subject: 'Algebra' },
        student.jar,
      );
      expect(res.status, await res.clone().text()).toBe(201);
      return res.json();
    };
    const long = await book(3, 60);
    const short = await book(4, 45);
    expect([long.price, short.price]).toEqual([
      { amountCents: school.lesson60, currency: school.currency },
      { amountCents: school.lesson45, currency: school.currency },
    ]);
    const held = school.lesson60 + school.lesson45;
    const wallet = await walletOf(app, student);
    expect(wallet).toMatchObject({
      balance: { amountCents: school.topUp - held, currency: school.currency },
      held: { amountCents: held, currency: school.currency },
    });
    const totals = await financeTotals(app, admin);
    expect(totals).toMatchObject({ held, studentBalances: school.topUp - held });

    // The receipts print the amount with every minor digit the currency has.
    const receipt = async (kind: string, amountCents: number) => {
      const transaction = wallet.transactions.find(
        (candidate: { kind: string; amount: { amountCents: number } }) =>
          candidate.kind === kind && candidate.amount.amountCents === amountCents,
      );
      const res = await get(app, `/api/wallet/transactions/${transaction.id}/receipt`, student.jar);
      expect(res.status).toBe(200);
      return res.text();
    };
    expect(await receipt('top_up', school.topUp)).toContain(
      `<td class="amount">${school.said.topUpReceipt}</td>`,
    );
    expect(await receipt('lesson_hold', -school.lesson60)).toContain(
      `<td class="amount">${school.said.lesson60Receipt}</td>`,
    );

    // The accountant's file: the decimal amount and the minor units agree.
    const csv = await (await get(app, '/api/admin/finance/entries.csv', admin.jar)).text();
    expect(csv).toContain(`"hold:${long.id}","","${long.id}","",${school.csvHold60}`);

    // The mails say the same amounts: the top-up, and what the tutor earns of the lesson.
    await app.mailer.deliverDue();
    await mailbox.waitFor(
      (mail) =>
        mail.to === student.email.toLowerCase() &&
        mail.subject === `${school.said.topUp} was added to your Tutorlane wallet`,
    );
    await mailbox.waitFor(
      (mail) =>
        mail.to === tutor.email.toLowerCase() &&
        mail.text.includes(
          `You will earn ${school.said.earned}: the price of ${school.said.price60} less the school's 10% commission.`,
        ),
    );
  });

  it('keeps hourly rates within a range in the currency’s scale, an admin’s setting, said in the currency', async () => {
    const app = school.app();
    const config = async () => (await (await get(app, '/api/config')).json()).hourlyRateRange;
    expect(await config()).toEqual(school.range);
    const tutor = await someone(app, 'tutor');
    const rate = (hourlyRate: number) =>
      send(app, 'PATCH', '/api/profile/details', { hourlyRate }, tutor.jar);
    const outside = await rate(school.outOfRange.rate);
    expect(outside.status).toBe(400);
    expect(await outside.json()).toMatchObject({
      message: school.outOfRange.message,
      code: 'VALIDATION_ERROR',
    });
    expect((await rate(school.range.min)).status).toBe(200);

    const admin = await makeAdmin(app, await someone(app, 'student'));
    const change = (hourlyRateRange: unknown) =>
      send(app, 'PATCH', '/api/admin/settings', { hourlyRateRange }, admin.jar);
    for (const wrong of [
      { min: 0, max: 10 },
      { min: 10, max: 10 },
      { min: 20, max: 10 },
      { min: 5.5, max: 10 },
      { min: -5, max: 10 },
      { min: '5', max: 10 },
      { min: 5 },
      { min: 5, max: 10, step: 1 },
      [5, 10],
    ]) {
      const res = await change(wrong);
      expect(res.status, JSON.stringify(wrong)).toBe(400);
      expect((await res.json()).code).toBe('VALIDATION_ERROR');
    }
    const tooHigh = await change({ min: school.range.min, max: school.tooHigh.max });
    expect(tooHigh.status).toBe(400);
    expect(await tooHigh.json()).toMatchObject({ message: school.tooHigh.message, code: 'VALIDATION_ERROR' });
    expect(await config()).toEqual(school.range);

    const saved = await change(school.newRange);
    expect(saved.status, await saved.clone().text()).toBe(200);
    expect(await saved.json()).toMatchObject({
      hourlyRateRange: school.newRange,
      hourlyRateRangeSet: true,
      changed: [school.rangeChange],
    });
    expect(await config()).toEqual(school.newRange);
    const audit = await app.database.db
      .selectFrom('audit_log')
      .select('reason')
      .where('action', '=', 'settings.changed')
      .where('actor_id', '=', admin.id)
      .execute();
    expect(audit).toEqual([{ reason: school.rangeChange }]);
    // The same range again changes nothing and audits nothing.
    expect((await (await change(school.newRange)).json()).changed).toEqual([]);
    expect((await rate(school.range.min)).status).toBe(400);
    expect((await rate(school.newRange.max)).status).toBe(200);

    const back = await change(null);
    expect(await back.json()).toMatchObject({ hourlyRateRange: school.range, hourlyRateRangeSet: false });
    expect(await config()).toEqual(school.range);
  });
});

describe('the demo school', () => {
  it('asks rates on the currency’s scale, and prices its lessons from them in its minor unit', async () => {
    const own = await createTestApp({ env: { ...env, CURRENCY: 'JPY' } });
    try {
      const { db } = own.database;
      await seedDemoDatabase(db, 20, { photos: false, payments: own.config.payments });
      const rates = (await db.selectFrom('tutor_profiles').select('hourly_rate').execute()).map(
        (row) => row.hourly_rate ?? 0,
      );
      expect(Math.min(...rates)).toBeGreaterThanOrEqual(500);
      expect(Math.max(...rates)).toBeLessThanOrEqual(50_000);
      const lessons = await db
        .selectFrom('lessons as l')
        .innerJoin('tutor_profiles as tp', 'tp.user_id', 'l.tutor_id')
        .select(['l.price_cents', 'l.minutes', 'l.currency', 'l.trial', 'tp.hourly_rate'])
        .where('l.trial', '=', false)
        .execute();
      expect(lessons.length).toBeGreaterThan(0);
      expect(
        lessons.filter(
          (lesson) =>
            lesson.currency !== 'JPY' ||
            lesson.price_cents !== Math.round(((lesson.hourly_rate ?? 0) * lesson.minutes) / 60),
        ),
      ).toEqual([]);
      // Its transfers, waiting or confirmed, are amounts a student of a yen school could ask for.
      const topUps = (await db.selectFrom('top_ups').select('amount_cents').execute()).map(
        (row) => row.amount_cents,
      );
      expect(topUps.length).toBeGreaterThan(0);
      expect(topUps.filter((amount) => amount < 500 || amount > 500_000)).toEqual([]);
    } finally {
      await own.close();
    }
  });
});
