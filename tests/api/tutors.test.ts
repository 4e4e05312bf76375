/**
 * Tutor profiles and discovery: the publication rule, role-specific profiles, photos
 * checked by content, and a search that filters, sorts, pages, validates and never leaks.
 */
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoSeedRefusedError, seedDemoDatabase } from '../../src/server/demo/demo-seed';
import { generateDemoTutors } from '../../src/server/demo/demo-tutors';
import { commissionOf } from '../../src/server/money/ledger';
import { PUBLICATION_REQUIREMENTS } from '../../src/shared/tutor-catalog';
import { type CookieJar, get, send, signUp, verifiedPerson, verifiedUser } from '../support/accounts';
import { type MailCatcher, startMailCatcher } from '../support/mail-catcher';
import { financeTotals, makeAdmin } from '../support/money';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let mailbox: MailCatcher;
beforeAll(async () => {
  mailbox = await startMailCatcher();
  t = await createTestApp({ env: { SMTP_URL: mailbox.smtpUrl } });
});
afterAll(async () => {
  await t.close();
  await mailbox.close();
});

const complete = {
  headline: 'Patient algebra and calculus coaching',
  about: 'I explain every step and give practice that sticks.',
  subjects: ['Algebra', 'Calculus'],
  hourlyRate: 40,
  languages: ['English', 'Spanish'],
  yearsExperience: 7,
  timeZone: 'Europe/Madrid',
};

async function tutor(name: string, details: Record<string, unknown> = complete, verified = true) {
  const account = verified
    ? await verifiedUser(t, mailbox, { role: 'tutor', name })
    : await signUp(t, { role: 'tutor', name });
  const res = await send(t, 'PATCH', '/api/profile/details', details, account.jar);
  expect(res.status, await res.clone().text()).toBe(200);
  const id = (await (await get(t, '/api/session', account.jar)).json()).user.id as string;
  return { ...account, id, details: await res.json() };
}

async function search(query: string) {
  const res = await t.request(`/api/tutors?${query}`);
  return { status: res.status, body: await res.json() };
}

const namesIn = (body: { tutors: { displayName: string }[] }) =>
  body.tutors.map((tutor) => tutor.displayName);

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#4338ca' } })
    .png()
    .toBuffer();

function putPhoto(jar: CookieJar, body: Uint8Array | string, contentType = 'image/png') {
  return t.request('/api/profile/photo', {
    method: 'PUT',
    body: body as BodyInit,
    headers: { cookie: jar.header(), 'content-type': contentType },
  });
}

describe('publication', () => {
  it('lists a verified tutor with a complete profile, and hides everyone else', async () => {
    const listed = await tutor('Zelda Complete');
    expect(listed.details).toMatchObject({ published: true, missing: [] });
    const unverified = await tutor('Zelda Unverified', complete, false);
    expect(unverified.details.missing).toEqual([PUBLICATION_REQUIREMENTS.emailVerified]);
    const { body } = await search('q=Zelda');
    expect(namesIn(body)).toEqual(['Zelda Complete']);
    expect((await t.request(`/api/tutors/${unverified.id}`)).status).toBe(404);
  });

  it.each([
    ['headline (and no photo)', { headline: '' }, PUBLICATION_REQUIREMENTS.photoOrHeadline],
    ['subjects', { subjects: [] }, PUBLICATION_REQUIREMENTS.subjects],
    ['rate', { hourlyRate: null }, PUBLICATION_REQUIREMENTS.hourlyRate],
    ['about', { about: '' }, PUBLICATION_REQUIREMENTS.about],
  ])('keeps a tutor without %s out of search, and says what is missing', async (_label, change, missing) => {
    const name = `Yuri Missing${Math.random().toString(36).slice(2, 7)}`;
    const incomplete = await tutor(name, { ...complete, ...change });
    expect(incomplete.details).toMatchObject({ published: false, missing: [missing] });
    expect((await search(`q=${encodeURIComponent(name)}`)).body.total).toBe(0);
  });

  it('publishes a complete profile the moment its email is verified', async () => {
    const pending = await tutor('Wanda Pending', complete, false);
    expect((await search('q=Wanda')).body.total).toBe(0);
    const mail = await mailbox.waitFor((m) => m.to === pending.email);
    const token = new URL(mail.text.match(/https?:\/\/\S+/)?.[0] ?? '').searchParams.get('token');
    await send(t, 'POST', '/api/account/verify-email', { token }, pending.jar);
    expect(namesIn((await search('q=Wanda')).body)).toEqual(['Wanda Pending']);
  });

  it('accepts a photo instead of a headline', async () => {
    const withPhoto = await tutor('Vera Photo', { ...complete, headline: '' });
    expect(withPhoto.details.published).toBe(false);
    const res = await putPhoto(withPhoto.jar, await png(800, 600));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ hasPhoto: true, published: true });
  });
});

describe('profiles by role', () => {
  it('lets a student keep a time zone and learning goals, and nothing of a tutor', async () => {
    const { jar } = await signUp(t);
    const saved = await send(
      t,
      'PATCH',
      '/api/profile/details',
      { timeZone: 'Asia/Tokyo', learningGoals: 'Pass the JLPT N3' },
      jar,
    );
    expect(await saved.json()).toEqual({
      role: 'student',
      timeZone: 'Asia/Tokyo',
      learningGoals: 'Pass the JLPT N3',
      messageMails: true,
      reminders: { dayBefore: true, hourBefore: true },
    });
    const refused = await send(t, 'PATCH', '/api/profile/details', { headline: 'I am a tutor now' }, jar);
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toBe('A student profile has no such field: headline');
    expect((await putPhoto(jar, await png(10, 10))).status).toBe(403);
  });

  it.each([
    [{ headline: 'x'.repeat(81) }, 'Headline must be at most 80 characters'],
    [{ about: 'x'.repeat(2001) }, 'About must be at most 2000 characters'],
    [{ hourlyRate: 4 }, 'Hourly rate must be between $5 and $500'],
    [{ hourlyRate: 501 }, 'Hourly rate must be between $5 and $500'],
    [{ hourlyRate: 30.5 }, 'Hourly rate must be a whole number'],
    [{ subjects: ['Astrology'] }, 'Please choose subjects from the list'],
    [{ languages: ['Klingon'] }, 'Please choose languages from the list'],
    [{ timeZone: 'Mars/Olympus' }, 'Please choose a valid time zone'],
    [{ yearsExperience: -1 }, 'Years of experience cannot be negative'],
    [{ learningGoals: 'x' }, 'A tutor profile has no such field: learningGoals'],
  ])('refuses a tutor profile with %j', async (change, message) => {
    const { jar } = await signUp(t, { role: 'tutor' });
    const res = await send(t, 'PATCH', '/api/profile/details', change, jar);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
  });

  it('needs a signed-in user', async () => {
    expect((await get(t, '/api/profile/details')).status).toBe(401);
    expect((await send(t, 'PATCH', '/api/profile/details', {})).status).toBe(401);
  });
});

describe('photos', () => {
  it('crops any JPEG, PNG or WebP to a 256 px WebP square, served publicly once published', async () => {
    const { jar, id } = await tutor('Uma Upload');
    for (const [format, bytes] of [
      [
        'jpeg',
        await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#0f766e' } })
          .jpeg()
          .toBuffer(),
      ],
      ['png', await png(300, 700)],
      [
        'webp',
        await sharp({ create: { width: 500, height: 500, channels: 3, background: '#b45309' } })
          .webp()
          .toBuffer(),
      ],
    ] as const) {
      const res = await putPhoto(jar, bytes, 'application/octet-stream');
      expect(res.status, format).toBe(200);
      const { photoVersion } = await res.json();
      const served = await t.request(`/api/tutors/${id}/photo?v=${photoVersion}`);
      expect(served.headers.get('content-type')).toBe('image/webp');
      expect(served.headers.get('cache-control')).toContain('immutable');
      const meta = await sharp(new Uint8Array(await served.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 256]);
    }
    const removed = await t.request('/api/profile/photo', {
      method: 'DELETE',
      headers: { cookie: jar.header() },
    });
    expect(await removed.json()).toMatchObject({ hasPhoto: false });
    expect((await t.request(`/api/tutors/${id}/photo`)).status).toBe(404);
  });

  it('checks the content, not the name or the declared type', async () => {
    const { jar } = await tutor('Tobias Types');
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    for (const [label, body] of [
      ['a GIF sent as PNG', gif],
      ['text sent as PNG', 'this is not an image'],
      ['an SVG', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
    ] as const) {
      const res = await putPhoto(jar, body as Uint8Array | string, 'image/png');
      expect(res.status, label).toBe(415);
      expect((await res.json()).message).toBe('Please upload a JPEG, PNG or WebP image');
    }
  });

  it('answers 404 for the photo of an unpublished tutor, versioned or not', async () => {
    const hidden = await tutor('Penny Private', complete, false);
    const uploaded = await putPhoto(hidden.jar, await png(300, 300));
    expect(uploaded.status).toBe(200);
    const { photoVersion } = await uploaded.json();
    for (const path of [
      `/api/tutors/${hidden.id}/photo`,
      `/api/tutors/${hidden.id}/photo?v=${photoVersion}`,
    ]) {
      const res = await t.request(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
    }
  });

  it('refuses a photo over 5 MB with 413', async () => {
    const { jar } = await tutor('Big Bertha');
    const res = await putPhoto(jar, new Uint8Array(5 * 1024 * 1024 + 1));
    expect(res.status).toBe(413);
    expect((await res.json()).message).toBe('The photo must be at most 5 MB');
  });

  it('tells someone who may not upload a photo so, whatever its size, before reading it', async () => {
    const large = new Uint8Array(6 * 1024 * 1024);
    const signedOut = await t.request('/api/profile/photo', { method: 'PUT', body: large });
    expect(signedOut.status).toBe(401);
    const student = await signUp(t, { role: 'student' });
    const asStudent = await putPhoto(student.jar, large);
    expect(asStudent.status).toBe(403);
  });
});

describe('search', () => {
  beforeAll(async () => {
    await tutor('Sam Searchable', {
      ...complete,
      headline: 'Conversational Spanish for travellers',
      about: 'Lessons full of role play and real menus.',
      subjects: ['Spanish'],
      hourlyRate: 25,
      languages: ['Spanish', 'English'],
    });
    await tutor('Sam Pythonista', {
      ...complete,
      headline: 'Python for data analysis',
      about: 'From notebooks to dashboards, step by step.',
      subjects: ['Python', 'Data Science'],
      hourlyRate: 70,
      languages: ['German', 'English'],
    });
    await tutor('Sam Painter', {
      ...complete,
      headline: 'Watercolour and drawing from life',
      about: 'Sketchbooks, colour theory and patience.',
      subjects: ['Drawing', 'Painting'],
      hourlyRate: 55,
      languages: ['Italian'],
    });
  });

  it('finds tutors by name, headline, about and subject, with prefixes', async () => {
    expect(namesIn((await search('q=Pythonista')).body)).toEqual(['Sam Pythonista']);
    expect(namesIn((await search('q=menus')).body)).toEqual(['Sam Searchable']);
    expect(namesIn((await search('q=watercol')).body)).toEqual(['Sam Painter']);
    expect(namesIn((await search('q=data%20science')).body)).toEqual(['Sam Pythonista']);
    expect(namesIn((await search(`q=${encodeURIComponent('sam & | ! :*')}`)).body).sort()).toEqual([
      'Sam Painter',
      'Sam Pythonista',
      'Sam Searchable',
    ]);
  });

  it('filters by category, subject, language and price', async () => {
    expect(namesIn((await search('q=sam&category=Programming')).body)).toEqual(['Sam Pythonista']);
    expect(namesIn((await search('q=sam&subject=Painting')).body)).toEqual(['Sam Painter']);
    expect(namesIn((await search('q=sam&language=German')).body)).toEqual(['Sam Pythonista']);
    expect(namesIn((await search('q=sam&minPrice=30&maxPrice=60')).body)).toEqual(['Sam Painter']);
    expect((await search('q=sam&category=Languages&subject=Python')).body.total).toBe(0);
  });

  it('sorts by price both ways, by newest and by relevance', async () => {
    expect(namesIn((await search('q=sam&sort=price_asc')).body)).toEqual([
      'Sam Searchable',
      'Sam Painter',
      'Sam Pythonista',
    ]);
    expect(namesIn((await search('q=sam&sort=price_desc')).body)).toEqual([
      'Sam Pythonista',
      'Sam Painter',
      'Sam Searchable',
    ]);
    expect(namesIn((await search('q=sam&sort=newest')).body)).toEqual([
      'Sam Painter',
      'Sam Pythonista',
      'Sam Searchable',
    ]);
    // A name match (weight A) outranks an about-text match (weight C).
    const ranked = namesIn((await search('q=python&sort=relevance')).body);
    expect(ranked[0]).toBe('Sam Pythonista');
  });

  it('sorts Best match without search text by newest, as the search form says', async () => {
    const newest = (await search('sort=newest&pageSize=48')).body;
    expect(newest.total).toBeGreaterThanOrEqual(3);
    expect((await search('sort=relevance&pageSize=48')).body).toEqual(newest);
  });

  it('pages through results with a total', async () => {
    const first = (await search('q=sam&pageSize=2&sort=price_asc')).body;
    const second = (await search('q=sam&pageSize=2&page=2&sort=price_asc')).body;
    expect([first.total, first.page, first.pageSize, first.tutors.length]).toEqual([3, 1, 2, 2]);
    expect([second.page, second.tutors.length]).toEqual([2, 1]);
    // Past the last page the total still counts the matches, so the page can say there are some.
    const past = (await search('q=sam&pageSize=2&page=99')).body;
    expect([past.total, past.page, past.tutors.length]).toEqual([3, 99, 0]);
    expect(namesIn(second)).toEqual(['Sam Pythonista']);
  });

  it('gzips a page of results for a browser that accepts it, and says so to caches', async () => {
    const plain = await t.request('/api/tutors?sort=newest');
    expect(plain.headers.get('content-encoding')).toBeNull();
    const text = await plain.text();
    const gz = await t.request('/api/tutors?sort=newest', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toMatch(/Accept-Encoding/);
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(text);
    // A refused search keeps its status and its message.
    const refused = await t.request('/api/tutors?sort=cheapest', { headers: { 'accept-encoding': 'gzip' } });
    expect(refused.status).toBe(400);
  });

  it('keeps the total on a page past the end, so the page can offer the way back', async () => {
    const past = (await search('q=sam&pageSize=2&page=5')).body;
    expect([past.total, past.page, past.tutors.length]).toEqual([3, 5, 0]);
  });

  it('reads text made only of common words as no text, and ignores them beside real words', async () => {
    const everyone = (await search('sort=newest')).body.total;
    expect(everyone).toBeGreaterThanOrEqual(3);
    expect((await search('q=the')).body.total).toBe(everyone);
    expect((await search('q=the&sort=relevance')).body.total).toBe(everyone);
    expect(namesIn((await search('q=the%20watercolour')).body)).toEqual(['Sam Painter']);
  });

  it.each([
    ['pageSize=49', 'Page size must be at most 48'],
    ['page=0', 'Page must be 1 or more'],
    ['page=abc', 'Page must be a whole number'],
    ['minPrice=cheap', 'The lowest price must be a whole number'],
    ['minPrice=60&maxPrice=20', 'The lowest price must not be above the highest price'],
    ['sort=random', 'Sort must be one of: relevance, rating, price_asc, price_desc, newest'],
    ['category=Cooking', 'Unknown category'],
    ['subject=Astrology', 'Unknown subject'],
    ['language=Klingon', 'Unknown language'],
    [`q=${'x'.repeat(101)}`, 'The search text must be at most 100 characters'],
    ['email=someone', 'Unknown search parameter: email'],
  ])('refuses %s with 400 and a message', async (query, message) => {
    const { status, body } = await search(query);
    expect(status).toBe(400);
    expect(body.message).toBe(message);
  });

  it('never returns private fields', async () => {
    const { body } = await search('q=sam');
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/@example\.com/);
    expect(Object.keys(body.tutors[0]).sort()).toEqual(
      [
        'displayName',
        'hasPhoto',
        'headline',
        'hourlyRate',
        'id',
        'languages',
        'photoVersion',
        'rating',
        'subjects',
        'trial',
        'verified',
        'yearsExperience',
      ].sort(),
    );
    const page = await (await t.request(`/api/tutors/${body.tutors[0].id}`)).json();
    expect(JSON.stringify(page)).not.toMatch(/@example\.com|email/);
  });

  it('answers a student id or an unknown id with 404', async () => {
    const { jar } = await signUp(t);
    const id = (await (await get(t, '/api/session', jar)).json()).user.id;
    expect((await t.request(`/api/tutors/${id}`)).status).toBe(404);
    expect((await t.request('/api/tutors/no-such-tutor')).status).toBe(404);
  });
});

describe('demo data', () => {
  it('is the same every time, spans all four categories, and is all published', async () => {
    const first = generateDemoTutors(200);
    expect(generateDemoTutors(200)).toEqual(first);
    expect(new Set(first.flatMap((tutor) => tutor.categories)).size).toBe(4);
    const own = await createTestApp({ env: { PAYMENTS: 'off', CURRENCY: 'EUR' } });
    try {
      await seedDemoDatabase(own.database.db, 200, { photos: false, payments: own.config.payments });
      const total = async () => (await (await own.request('/api/tutors?pageSize=1')).json()).total;
      expect(await total()).toBe(200);
      const rates = first.map((tutor) => tutor.hourlyRate);
      expect(Math.min(...rates)).toBeGreaterThanOrEqual(5);
      expect(Math.max(...rates)).toBeLessThanOrEqual(500);
      // Demo reviews: only from students who had a completed lesson with the tutor, counted in.
      const { db } = own.database;
      const reviews = await db
        .selectFrom('reviews')
        .select(['tutor_id', 'student_id', 'rating', 'created_at'])
        .execute();
      expect(reviews.length).toBeGreaterThan(20);
      const untied = await db
        .selectFrom('reviews as r')
        .select('r.id')
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('lessons as l')
                .select('l.id')
                .whereRef('l.tutor_id', '=', 'r.tutor_id')
                .whereRef('l.student_id', '=', 'r.student_id')
                .where('l.status', '=', 'completed'),
            ),
          ),
        )
        .execute();
      expect(untied).toEqual([]);
      expect(reviews.every((review) => review.created_at.getTime() <= Date.now())).toBe(true);
      const best = await (await own.request('/api/tutors?sort=rating&pageSize=1')).json();
      expect(best.tutors[0].rating.count).toBeGreaterThan(0);
      // With payments off the lessons moved no money, and are priced in the school's currency.
      const lessons = await db.selectFrom('lessons').select(['currency', 'payment_status']).execute();
      expect(new Set(lessons.map((lesson) => `${lesson.currency} ${lesson.payment_status}`))).toEqual(
        new Set(['EUR none']),
      );
      expect(await db.selectFrom('ledger_transactions').select('id').execute()).toEqual([]);
      expect(await db.selectFrom('top_ups').select('id').execute()).toEqual([]);
    } finally {
      await own.close();
    }
  });

  it("with payments on, moves its lessons' money through the ledger, and the totals sum to zero", async () => {
    const own = await createTestApp({
      env: { PAYMENTS: 'on', CURRENCY: 'EUR', COMMISSION_PERCENT: '20', SMTP_URL: mailbox.smtpUrl },
    });
    try {
      const { db } = own.database;
      const started = Date.now();
      await seedDemoDatabase(db, 200, { photos: false, payments: own.config.payments });
      const admin = await makeAdmin(own, await verifiedPerson(own, mailbox, 'student', 'Fin Ance'));
      const { jar } = admin;
      const totals = await financeTotals(own, admin);

      // Each lesson's money is where its status says: planned ones hold their price, completed
      // ones were settled, cancelled ones gave it back.
      const lessons = await db
        .selectFrom('lessons as l')
        .leftJoin('ledger_entries as e', (join) => join.on('e.account_id', '=', sql<string>`'hold:' || l.id`))
        .select(['l.id', 'l.status', 'l.payment_status', 'l.price_cents', 'l.currency', 'l.starts_at'])
        .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('e.amount_cents'), sql<string>`0`).as('held'))
        .groupBy('l.id')
        .execute();
      expect(lessons.length).toBeGreaterThan(100);
      const expected = { pending: 'held', confirmed: 'held', completed: 'settled', cancelled: 'released' };
      const wrong = lessons.filter(
        (lesson) =>
          lesson.currency !== 'EUR' ||
          lesson.payment_status !== expected[lesson.status as keyof typeof expected] ||
          Number(lesson.held) !== (lesson.payment_status === 'held' ? lesson.price_cents : 0) ||
          (lesson.payment_status === 'held') !== lesson.starts_at.getTime() > started,
      );
      expect(wrong).toEqual([]);
      const completed = lessons.filter((lesson) => lesson.status === 'completed');
      expect(totals.schoolRevenue).toBe(
        completed.reduce((sum, lesson) => sum + commissionOf(lesson.price_cents, 20), 0),
      );
      expect(totals.held).toBe(
        lessons.reduce((sum, lesson) => sum + (lesson.payment_status === 'held' ? lesson.price_cents : 0), 0),
      );

      // Each settlement is dated at its lesson's end.
      const settlements = await db
        .selectFrom('ledger_transactions as t')
        .innerJoin('lessons as l', 'l.id', 't.lesson_id')
        .select(['t.created_at', 'l.ends_at'])
        .where('t.kind', '=', 'lesson_settle')
        .execute();
      expect(settlements.length).toBe(completed.length);
      expect(settlements.filter((row) => row.created_at.getTime() !== row.ends_at.getTime())).toEqual([]);

      // Every student with lessons topped up once or twice, each confirmed top-up credited once.
      const topUps = await db
        .selectFrom('top_ups as u')
        .leftJoin('ledger_transactions as t', (join) =>
          join.on('t.idempotency_key', '=', sql<string>`'top_up:' || u.id`),
        )
        .select(['u.student_id', 'u.status', 'u.method', 'u.amount_cents', 't.id as transaction_id'])
        .execute();
      const confirmed = topUps.filter((row) => row.status === 'confirmed');
      const perStudent = new Map<string, number>();
      for (const row of confirmed) perStudent.set(row.student_id, (perStudent.get(row.student_id) ?? 0) + 1);
      const students = await db.selectFrom('lessons').select('student_id').distinct().execute();
      expect(students.filter((row) => ![1, 2].includes(perStudent.get(row.student_id) ?? 0))).toEqual([]);
      expect(confirmed.every((row) => row.method === 'manual' && row.transaction_id !== null)).toBe(true);
      expect(topUps.filter((row) => row.status === 'pending' && row.transaction_id !== null)).toEqual([]);

      // The admin sees one or two transfers to confirm, tutors paid out who are still owed a
      // little, and no balance below zero.
      const finance = await (await get(own, '/api/admin/finance', jar)).json();
      expect(finance.pendingTopUps.length).toBeGreaterThanOrEqual(1);
      expect(finance.pendingTopUps.length).toBeLessThanOrEqual(2);
      const payouts = await db
        .selectFrom('ledger_entries as e')
        .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
        .select(['e.account_id', 'e.amount_cents', 't.created_at'])
        .where('t.kind', '=', 'payout')
        .where('e.account_kind', '=', 'payable')
        .execute();
      expect(payouts.length).toBeGreaterThanOrEqual(2);
      expect(payouts.every((row) => row.created_at.getTime() < started)).toBe(true);
      // What came in by transfer, less what went out to tutors.
      expect(-totals.manual).toBe(
        confirmed.reduce((sum, row) => sum + row.amount_cents, 0) +
          payouts.reduce((sum, row) => sum + row.amount_cents, 0),
      );
      const owed = new Set(
        finance.payables.map((row: { tutor: { id: string } }) => `payable:${row.tutor.id}`),
      );
      expect(payouts.filter((row) => !owed.has(row.account_id))).toEqual([]);
      expect(
        finance.balances.filter((row: { balance: { amountCents: number } }) => row.balance.amountCents < 0),
      ).toEqual([]);

      // Written in the order of their dates, so each wallet's history reads in order.
      const order = await db.selectFrom('ledger_transactions').select('created_at').orderBy('id').execute();
      const dates = order.map((row) => row.created_at.getTime());
      expect(dates).toEqual([...dates].sort((a, b) => a - b));
    } finally {
      await own.close();
    }
  });

  it('is never seeded into a database that has accounts', async () => {
    const own = await createTestApp();
    try {
      await signUp(own, { role: 'student', name: 'Rhea Real' });
      await expect(
        seedDemoDatabase(own.database.db, 200, { photos: false, payments: own.config.payments }),
      ).rejects.toThrow(
        new DemoSeedRefusedError(
          'The database already has 1 account(s): seed:demo only fills an empty database.',
        ),
      );
      expect((await (await own.request('/api/tutors')).json()).total).toBe(0);
    } finally {
      await own.close();
    }
  });
});
