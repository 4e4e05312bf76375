/**
 * A person's own data through the API, with payments on: the export's ZIP holds their data and
 * nobody else's; deleting an account erases their name and address from every text column of every
 * table (read from the database's own catalogue, so a new table or column is not missed), the audit
 * log and the mail outbox included, ends every session at once (a copy of the cookies, cache and
 * all, shows nobody), calls their upcoming lesson off, and leaves the other person "Deleted user"
 * and "Message deleted"; and the refusals: a wrong password, a tutor still owed money, an admin,
 * and money left anywhere (the balance, lessons' holds, packages, top-ups waiting), with the refund
 * asked for from Support and each way to get the money back. Runs on both stores.
 */
import { unzipSync } from 'fflate';
import { sql } from 'kysely';
import sharp from 'sharp';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { grantAdmin, revokeAdmin } from '../../src/server/admin/admins';
import { holdPrice, settleHold } from '../../src/server/money/lesson-payments';
import { DELETED_MESSAGE_TEXT, DELETED_USER_NAME } from '../../src/shared/account-data';
import { get, send, signIn, TEST_PASSWORD } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import { insertLesson, openAvailability } from '../support/lessons';
import { financeTotals, makeAdmin, publishTutor, topUp, walletOf } from '../support/money';

// PAYMENTS left empty: the default, on.
setUpApiTest({ env: { PAYMENTS: '', COMMISSION_PERCENT: '15' } });

const DAY = 24 * 60 * 60 * 1000;
const ZONE = 'Europe/Madrid';

/** Ten in the morning in Madrid, `days` from today. */
const tenOClock = (days: number) =>
  Temporal.Now.zonedDateTimeISO(ZONE)
    .toPlainDate()
    .add({ days })
    .toZonedDateTime({ timeZone: ZONE, plainTime: Temporal.PlainTime.from('10:00') }).epochMilliseconds;

async function exportOf(who: Person) {
  const res = await get(t, '/api/account/export', who.jar);
  expect(res.status, await res.clone().text()).toBe(200);
  const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
  const text = (name: string) => new TextDecoder().decode(files[name]);
  return { res, files, text, json: (name: string) => JSON.parse(text(name)) };
}

const deleteAccount = (who: Person, password: string = TEST_PASSWORD) =>
  send(t, 'POST', '/api/account/delete', { password }, who.jar);

/**
 * Every value of every text column (text, varchar, char, json, jsonb and arrays of them) of every
 * table, listed from the database's catalogue, lower-cased.
 */
async function everyTextValue(): Promise<{ table: string; column: string; value: string }[]> {
  const db = t.database.db;
  const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name
    from information_schema.columns c
    join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name
    where c.table_schema = current_schema() and tb.table_type = 'BASE TABLE'
      and (c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb')
        or c.udt_name in ('_text', '_varchar', '_bpchar', '_json', '_jsonb'))
    order by c.table_name, c.ordinal_position`.execute(db);
  const names = columns.map((c) => `${c.table_name}.${c.column_name}`);
  for (const known of ['users.email', 'audit_log.target', 'mail_outbox.html_body', 'tutor_profiles.subjects'])
    expect(names).toContain(known);
  const found: { table: string; column: string; value: string }[] = [];
  for (const { table_name, column_name } of columns) {
    const { rows } = await sql<{ value: string }>`
      select ${sql.ref(column_name)}::text as value from ${sql.table(table_name)}
      where ${sql.ref(column_name)} is not null`.execute(db);
    for (const { value } of rows)
      found.push({ table: table_name, column: column_name, value: value.toLowerCase() });
  }
  return found;
}

/**
 * A mail to `to` that names `name`, as the lesson and message mails name the other person: already
 * sent, or still waiting for its next try (a mail server that was down).
 */
async function mailNaming(to: string, name: string, state: 'sent' | 'waiting') {
  const row = await t.database.db
    .insertInto('mail_outbox')
    .values({
      recipient: to,
      subject: `New lesson request from ${name}`,
      text_body: `${name} asked for a lesson. ${name}'s note is in the app.`,
      html_body: `<p><strong>${name}</strong> asked for a lesson.</p>`,
      sent_at: state === 'sent' ? new Date() : null,
      next_attempt_at: new Date(Date.now() + DAY),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const png = () =>
  sharp({ create: { width: 200, height: 200, channels: 3, background: '#4338ca' } })
    .png()
    .toBuffer();

describe('deleting a student with lessons, messages, a review and a goal', () => {
  it('exports their data, then erases them everywhere but where the school must keep it', async () => {
    const admin = await person('student', 'Ada Admin');
    await makeAdmin(t, admin);
    const tutor = await person('tutor', 'Tomas Tutorsen');
    await publishTutor(t, tutor);
    const student = await person('student', 'Zelda Quimbyfarthing');
    const other = await person('student', 'Olga Otherstudent');
    const secrets = {
      message: 'Zq-private-message about my exam',
      review: 'Zq-review: patient and clear',
      goal: 'Zq-goal: pass the algebra final',
      note: 'Zq-booking-note: chapter five please',
    };

    await topUp(t, student, admin, 4000);
    // Money left keeps an account: the school pays the balance back first.
    const refund = await send(
      t,
      'POST',
      '/api/admin/refunds',
      { studentId: student.id, amountCents: 4000, reference: 'BANK-77' },
      admin.jar,
    );
    expect(refund.status, await refund.clone().text()).toBe(201);
    // A lesson that took place, so the student may review the tutor.
    await insertLesson(t.database.db, {
      tutorId: tutor.id,
      studentId: student.id,
      status: 'completed',
      start: Date.now() - 3 * DAY,
      subject: 'Algebra',
    });
    const review = await send(
      t,
      'PUT',
      `/api/tutors/${tutor.id}/review`,
      { rating: 5, text: secrets.review },
      student.jar,
    );
    expect(review.status, await review.clone().text()).toBeLessThan(300);
    // An upcoming lesson, booked before the school took payments: nothing is held for it.
    const upcomingId = await insertLesson(t.database.db, {
      tutorId: tutor.id,
      studentId: student.id,
      status: 'confirmed',
      start: tenOClock(4),
      subject: 'Algebra',
    });
    await t.database.db
      .updateTable('lessons')
      .set({ note: secrets.note })
      .where('id', '=', upcomingId)
      .execute();
    const started = await send(
      t,
      'POST',
      '/api/conversations',
      { tutorId: tutor.id, text: secrets.message },
      student.jar,
    );
    expect(started.status, await started.clone().text()).toBeLessThan(300);
    const conversationId = (await started.json()).id as string;
    const answer = await send(
      t,
      'POST',
      `/api/conversations/${conversationId}/messages`,
      { text: 'Happy to help with that' },
      tutor.jar,
    );
    expect(answer.status).toBe(201);
    const goal = await send(
      t,
      'POST',
      '/api/goals',
      { subject: 'Algebra', title: secrets.goal },
      student.jar,
    );
    expect(goal.status, await goal.clone().text()).toBe(201);
    // Another student's goal and a failed sign-in keyed by the student's address.
    await send(t, 'POST', '/api/goals', { subject: 'Algebra', title: 'Olga goal' }, other.jar);
    expect((await signIn(t, student.email, 'not-the-password-at-all')).res.status).toBe(401);
    const tutorBefore = await t.database.db
      .selectFrom('tutor_profiles')
      .select('rating_count')
      .where('user_id', '=', tutor.id)
      .executeTakeFirstOrThrow();
    expect(tutorBefore.rating_count).toBe(1);

    // The export: each file with their data, nobody else's.
    const archive = await exportOf(student);
    expect(archive.res.headers.get('content-type')).toBe('application/zip');
    const today = new Date().toISOString().slice(0, 10);
    expect(archive.res.headers.get('content-disposition')).toBe(
      `attachment; filename="tutorlane-export-${today}.zip"`,
    );
    expect(Object.keys(archive.files).sort()).toEqual([
      'audit.json',
      'classes.json',
      'family.json',
      'goals.json',
      'lessons.json',
      'messages.json',
      'notes.json',
      'profile.json',
      'reviews.json',
      'wallet.json',
    ]);
    expect(archive.json('profile.json').user).toMatchObject({
      email: student.email,
      displayName: student.name,
      role: 'student',
    });
    expect(archive.json('lessons.json')).toHaveLength(2);
    const [conversation] = archive.json('messages.json').conversations;
    expect(conversation.with).toEqual({ id: tutor.id, displayName: tutor.name });
    const said = conversation.messages.filter((m: { from: string }) => m.from !== 'Tutorlane');
    expect(said.map((m: { from: string; text: string }) => [m.from, m.text])).toEqual([
      ['me', secrets.message],
      ['them', 'Happy to help with that'],
    ]);
    expect(archive.json('reviews.json').written[0]).toMatchObject({ rating: 5, body: secrets.review });
    expect(archive.json('goals.json').map((g: { title: string }) => g.title)).toEqual([secrets.goal]);
    expect(archive.json('notes.json')).toEqual([]);
    const wallet = archive.json('wallet.json');
    expect(wallet.topUps).toHaveLength(1);
    expect(wallet.accounts[0].entries.map((e: { amountCents: number }) => e.amountCents)).toEqual([
      4000, -4000,
    ]);
    const audit = archive.json('audit.json');
    expect(audit.map((entry: { action: string }) => entry.action)).toEqual([
      'topup.confirmed',
      'refund.recorded',
    ]);
    const everything = Object.keys(archive.files)
      .map((name) => archive.text(name))
      .join('\n');
    for (const notTheirs of [tutor.email, admin.email, other.email, 'Olga goal'])
      expect(everything).not.toContain(notTheirs);

    // A wrong or missing password deletes nothing.
    const wrong = await deleteAccount(student, 'not-the-password-at-all');
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({
      code: 'WRONG_PASSWORD',
      message: 'This password is not right. Your account has not been deleted.',
    });
    const missing = await send(t, 'POST', '/api/account/delete', {}, student.jar);
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toBe('Please enter your password to delete your account');
    expect((await (await get(t, '/api/session', student.jar)).json()).user.id).toBe(student.id);

    // Once an admin for a while: the log names them as the one who acted.
    await grantAdmin(t.database.db, student.email);
    const otherTopUp = await send(
      t,
      'POST',
      '/api/wallet/top-ups',
      { amountCents: 500, method: 'manual' },
      other.jar,
    );
    const { topUp: otherPending } = await otherTopUp.json();
    const rejected = await send(
      t,
      'POST',
      `/api/admin/top-ups/${otherPending.id}/reject`,
      { note: 'No transfer arrived' },
      student.jar,
    );
    expect(rejected.status, await rejected.clone().text()).toBe(200);
    await revokeAdmin(t.database.db, student.email);
    // Mails naming them to someone else: one delivered, one waiting for a mail server.
    const sentMail = await mailNaming(other.email, student.name, 'sent');
    const waitingMail = await mailNaming(other.email, student.name, 'waiting');
    // Their session in another browser, and a copy of this browser's cookies (its signed cache of
    // the session included) taken before the deletion.
    const otherBrowser = (await signIn(t, student.email)).jar;
    expect((await (await get(t, '/api/session', otherBrowser)).json()).user.id).toBe(student.id);
    expect((await (await get(t, '/api/session', student.jar)).json()).user.email).toBe(student.email);
    const copiedCookies = student.jar.header();
    expect(copiedCookies).toContain('session_data');

    const deleted = await deleteAccount(student);
    expect(deleted.status, await deleted.clone().text()).toBe(200);
    expect(await deleted.json()).toEqual({
      deleted: true,
      message: 'Your account has been deleted. We are sorry to see you go.',
    });

    // This browser is signed out, and so is every other session at once, whatever cache it holds.
    student.jar.store(deleted);
    expect((await (await get(t, '/api/session', student.jar)).json()).user).toBeNull();
    expect((await get(t, '/api/account/export', student.jar)).status).toBe(401);
    for (const cookie of [copiedCookies, otherBrowser.header()]) {
      const session = await t.request('/api/session', { headers: { cookie } });
      expect(await session.json()).toEqual({ user: null });
    }

    // The upcoming lesson is called off for the tutor.
    const lesson = await t.database.db
      .selectFrom('lessons')
      .select(['status', 'payment_status', 'note'])
      .where('id', '=', upcomingId)
      .executeTakeFirstOrThrow();
    expect(lesson).toEqual({ status: 'cancelled', payment_status: 'none', note: '' });
    const calledOff = await mailbox.waitFor(
      (m) =>
        m.to === tutor.email &&
        m.subject.startsWith('Lesson cancelled') &&
        m.text.includes(DELETED_USER_NAME),
    );
    // What is true for a tutor: the hour is free again (finding "another tutor" is a student's).
    expect(calledOff.text).toContain('The time is free again in your schedule.');
    expect(calledOff.text).not.toContain('another tutor');
    await financeTotals(t, admin);

    // The tutor's rating no longer counts the review.
    const tutorAfter = await t.database.db
      .selectFrom('tutor_profiles')
      .select(['rating_count', 'rating_sum'])
      .where('user_id', '=', tutor.id)
      .executeTakeFirstOrThrow();
    expect(tutorAfter).toEqual({ rating_count: 0, rating_sum: 0 });

    // The tutor sees "Deleted user", and "Message deleted" where the message was.
    const inbox = await (await get(t, '/api/conversations', tutor.jar)).json();
    expect(inbox.conversations[0].other.displayName).toBe(DELETED_USER_NAME);
    const thread = await (await get(t, `/api/conversations/${conversationId}/messages`, tutor.jar)).json();
    const written = thread.messages.filter((m: { event: unknown }) => m.event === null);
    expect(written.map((m: { text: string; deleted: boolean }) => [m.text, m.deleted])).toEqual([
      [DELETED_MESSAGE_TEXT, true],
      ['Happy to help with that', false],
    ]);

    // The deletion is in the audit log, without anything of the person.
    const entry = await t.database.db
      .selectFrom('audit_log')
      .select(['actor', 'target', 'reason'])
      .where('action', '=', 'account.deleted')
      .executeTakeFirstOrThrow();
    expect(entry).toEqual({ actor: DELETED_USER_NAME, target: DELETED_USER_NAME, reason: '' });

    // The audit log keeps what was done and to whom, by id; the words that named them say
    // "Deleted user" now.
    const logged = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor', 'target'])
      .where((eb) => eb.or([eb('actor_id', '=', student.id), eb('target_id', '=', student.id)]))
      .orderBy('id')
      .execute();
    expect(logged.map((row) => [row.action, row.actor, row.target])).toEqual([
      ['topup.confirmed', `${admin.name} <${admin.email}>`, DELETED_USER_NAME],
      ['refund.recorded', `${admin.name} <${admin.email}>`, DELETED_USER_NAME],
      ['admin.granted', 'command line', DELETED_USER_NAME],
      ['topup.rejected', DELETED_USER_NAME, `${other.name} <${other.email}>`],
      ['admin.revoked', 'command line', DELETED_USER_NAME],
      ['account.deleted', DELETED_USER_NAME, DELETED_USER_NAME],
    ]);
    // The delivered copy of a mail naming them is gone; the waiting one still goes, naming nobody.
    const mails = await t.database.db
      .selectFrom('mail_outbox')
      .select(['id', 'subject', 'text_body', 'html_body'])
      .where('id', 'in', [sentMail, waitingMail])
      .execute();
    expect(mails).toEqual([
      {
        id: waitingMail,
        subject: `New lesson request from ${DELETED_USER_NAME}`,
        text_body: `${DELETED_USER_NAME} asked for a lesson. ${DELETED_USER_NAME}'s note is in the app.`,
        html_body: `<p><strong>${DELETED_USER_NAME}</strong> asked for a lesson.</p>`,
      },
    ]);

    // Every text column of every table: their address, name and words are gone, the audit log and
    // the mail outbox included.
    const values = await everyTextValue();
    for (const needle of [student.email, student.name, ...Object.values(secrets)]) {
      const where = values
        .filter((found) => found.value.includes(needle.toLowerCase()))
        .map((found) => `${found.table}.${found.column}`);
      expect(where, `"${needle}" is still in the database`).toEqual([]);
    }
    const outbox = await t.database.db.selectFrom('mail_outbox').select(['recipient']).execute();
    expect(outbox.some((mail) => mail.recipient === student.email)).toBe(false);
    // What the school keeps: the ledger and the top-up, tied to the emptied account.
    const kept = await t.database.db
      .selectFrom('top_ups')
      .innerJoin('users', 'users.id', 'top_ups.student_id')
      .select(['users.display_name', 'users.email'])
      .where('top_ups.student_id', '=', student.id)
      .executeTakeFirstOrThrow();
    expect(kept.display_name).toBe(DELETED_USER_NAME);
    expect(kept.email).not.toContain('@');

    // Read last: a sign-in tried with any address is counted under it, whoever had it.
    expect((await signIn(t, student.email)).res.status).toBe(401);
  }, 120_000);
});

describe("an admin's export", () => {
  it('names the people the admin acted on by name only, never by their address', async () => {
    const admin = await person('student', 'Ada Exporter');
    await makeAdmin(t, admin);
    const student = await person('student', 'Sven Topupson');
    await topUp(t, student, admin, 2500);

    const archive = await exportOf(admin);
    const audit = archive.json('audit.json');
    expect(audit).toContainEqual(
      expect.objectContaining({
        action: 'topup.confirmed',
        actor: `${admin.name} <${admin.email}>`,
        target: student.name,
      }),
    );
    const everything = Object.keys(archive.files)
      .map((name) => archive.text(name))
      .join('\n');
    expect(everything).not.toContain(student.email);
  });
});

describe('deleting a tutor', () => {
  it('exports their photo, then takes their page, profile and photo away', async () => {
    const tutor = await person('tutor', 'Petra Photographer');
    await publishTutor(t, tutor);
    const put = await t.request('/api/profile/photo', {
      method: 'PUT',
      body: (await png()) as unknown as BodyInit,
      headers: { cookie: tutor.jar.header(), 'content-type': 'image/png' },
    });
    expect(put.status, await put.clone().text()).toBe(200);
    const archive = await exportOf(tutor);
    expect(Object.keys(archive.files)).toContain('photo.webp');
    expect(archive.json('profile.json')).toMatchObject({
      photo: 'photo.webp',
      tutorProfile: { headline: 'Algebra made calm' },
    });
    expect((await get(t, `/api/tutors/${tutor.id}`)).status).toBe(200);

    expect((await deleteAccount(tutor)).status).toBe(200);
    expect((await get(t, `/api/tutors/${tutor.id}`)).status).toBe(404);
    for (const table of [
      'profile_photos',
      'tutor_profiles',
      'tutor_availability',
      'sessions',
      'accounts',
    ] as const) {
      const left = await t.database.db
        .selectFrom(table)
        .select('user_id')
        .where('user_id', '=', tutor.id)
        .execute();
      expect(left, table).toEqual([]);
    }
  });
});

describe('what must be settled first', () => {
  it('refuses a tutor who is still owed money: a payout first', async () => {
    const admin = await person('student', 'Ada Second');
    await makeAdmin(t, admin);
    const tutor = await person('tutor');
    await publishTutor(t, tutor);
    const student = await person('student');
    await topUp(t, student, admin, 3000);
    const lessonId = await insertLesson(t.database.db, {
      tutorId: tutor.id,
      studentId: student.id,
      status: 'completed',
      start: Date.now() - DAY,
      priceCents: 3000,
      subject: 'Algebra',
    });
    const lesson = await t.database.db
      .selectFrom('lessons')
      .selectAll()
      .where('id', '=', lessonId)
      .executeTakeFirstOrThrow();
    await t.database.db.transaction().execute(async (trx) => {
      await holdPrice(trx, t.config.payments, lesson, Date.now());
      await settleHold(trx, lessonId, Date.now());
    });
    const res = await deleteAccount(tutor);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      code: 'PAYOUT_FIRST',
      message:
        'You are still owed money for lessons. Please ask for a payout first, then delete your account.',
    });
    expect((await (await get(t, '/api/session', tutor.jar)).json()).user.id).toBe(tutor.id);
  });

  it('refuses an admin: the role is revoked first', async () => {
    const admin = await person('student');
    await makeAdmin(t, admin);
    const res = await deleteAccount(admin);
    expect(res.status).toBe(409);
    expect((await res.json()).code).toBe('REVOKE_ADMIN_FIRST');
  });

  it('refuses while any money is left, naming it all and changing nothing, until each amount is back', async () => {
    const admin = await makeAdmin(t, await person('student'));
    const tutor = await publishTutor(t, await person('tutor', 'Petra Packages'));
    // Five hour lessons at 10% off: $36 each, $180 in all.
    const offered = await send(
      t,
      'PUT',
      '/api/availability',
      { ...openAvailability, packages: [{ lessons: 5, minutes: 60, discountPercent: 10 }] },
      tutor.jar,
    );
    expect(offered.status, await offered.clone().text()).toBe(200);
    const student = await person('student');
    await topUp(t, student, admin, 30_000);
    const bought = await send(
      t,
      'POST',
      '/api/packages',
      { tutorId: tutor.id, lessons: 5, minutes: 60 },
      student.jar,
    );
    expect(bought.status, await bought.clone().text()).toBe(201);
    const packageId = (await bought.json()).package.id as string;
    const bookLesson = async (days: number, minutes: number) => {
      const res = await send(
        t,
        'POST',
        '/api/lessons',
        { tutorId: tutor.id, start: new Date(tenOClock(days)).toISOString(), minutes, subject: 'Algebra' },
        student.jar,
      );
      expect(res.status, await res.clone().text()).toBe(201);
      return (await res.json()).id as string;
    };
    // One lesson with a package credit, a longer one from the balance; then a transfer asked for.
    const fromPackage = await bookLesson(4, 60);
    const fromBalance = await bookLesson(5, 90);
    const asked = await send(
      t,
      'POST',
      '/api/wallet/top-ups',
      { amountCents: 5000, method: 'manual' },
      student.jar,
    );
    const pending = (await asked.json()).topUp as { id: string; reference: string };

    const cents = (amountCents: number) => ({ amountCents, currency: 'USD' });
    const moneyLeft = {
      balance: cents(6000),
      holds: [
        {
          lessonId: fromPackage,
          subject: 'Algebra',
          start: new Date(tenOClock(4)).toISOString(),
          amount: cents(3600),
        },
        {
          lessonId: fromBalance,
          subject: 'Algebra',
          start: new Date(tenOClock(5)).toISOString(),
          amount: cents(6000),
        },
      ],
      packages: [
        {
          packageId,
          tutorName: 'Petra Packages',
          lessons: 5,
          minutes: 60,
          creditsLeft: 4,
          amount: cents(14_400),
        },
      ],
      pendingTopUps: [
        {
          topUpId: pending.id,
          reference: pending.reference,
          method: 'manual',
          amount: cents(5000),
          createdAt: expect.any(String),
        },
      ],
    };
    const shown = await get(t, '/api/account/money-left', student.jar);
    expect(shown.status).toBe(200);
    expect(await shown.json()).toEqual(moneyLeft);

    const refused = await deleteAccount(student);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      code: 'MONEY_LEFT',
      message:
        'Your account still holds money: $60 in your wallet, $96 held for 2 upcoming lessons, $144 in 4 unused package lessons and a top-up of $50 waiting for the school. Please get it back first (ask for a refund on your profile page, and withdraw a top-up you will not pay), then delete your account.',
      moneyLeft,
    });
    // Nothing was called off, released or withdrawn, and the person is still signed in.
    const lessons = await t.database.db
      .selectFrom('lessons')
      .select(['status', 'payment_status'])
      .where('id', 'in', [fromPackage, fromBalance])
      .execute();
    expect(lessons).toEqual([
      { status: 'confirmed', payment_status: 'held' },
      { status: 'confirmed', payment_status: 'held' },
    ]);
    expect(await (await get(t, '/api/account/money-left', student.jar)).json()).toEqual(moneyLeft);
    expect((await (await get(t, '/api/session', student.jar)).json()).user.id).toBe(student.id);

    // Asked from the deletion page: Support gets every amount, in the student's support conversation.
    const request = await send(t, 'POST', '/api/account/refund-request', {}, student.jar);
    expect(request.status, await request.clone().text()).toBe(201);
    const { conversationId } = await request.json();
    const inbox = await (await get(t, '/api/conversations', admin.jar)).json();
    expect(inbox.conversations.map((c: { id: string }) => c.id)).toContain(conversationId);
    const thread = await (await get(t, `/api/conversations/${conversationId}/messages`, admin.jar)).json();
    const [asking] = thread.messages.filter((m: { senderId: string }) => m.senderId === student.id);
    expect(asking.text).toBe(
      [
        'I would like to delete my account. Please refund the money I still have here:',
        "- My wallet's balance: $60",
        '- Held for upcoming lessons: $96',
        `  - Algebra on ${new Date(tenOClock(4)).toISOString().slice(0, 16).replace('T', ' ')} UTC: $36`,
        `  - Algebra on ${new Date(tenOClock(5)).toISOString().slice(0, 16).replace('T', ' ')} UTC: $60`,
        '- Unused lesson package credits: $144',
        '  - 4 lessons of 60 minutes with Petra Packages: $144',
        '- Top-ups not yet confirmed: $50',
        `  - reference ${pending.reference}, by transfer: $50`,
      ].join('\n'),
    );

    // Each way back: the student withdraws the transfer they will not make; an admin refunds the
    // package's unused credits, the two lessons (called off) and then the balance.
    const withdrawn = await send(t, 'POST', `/api/wallet/top-ups/${pending.id}/withdraw`, {}, student.jar);
    expect(withdrawn.status, await withdrawn.clone().text()).toBe(200);
    const packageRefund = await send(
      t,
      'POST',
      `/api/admin/packages/${packageId}/refund`,
      { amountCents: 14_400, reference: 'BANK-1' },
      admin.jar,
    );
    expect(packageRefund.status, await packageRefund.clone().text()).toBe(201);
    for (const lessonId of [fromPackage, fromBalance]) {
      const res = await send(
        t,
        'POST',
        `/api/admin/lessons/${lessonId}/refund`,
        { reason: 'Leaving Tutorlane' },
        admin.jar,
      );
      expect(res.status, await res.clone().text()).toBe(200);
    }
    expect((await walletOf(t, student)).balance).toEqual(cents(6000 + 3600 + 6000));
    const balanceRefund = await send(
      t,
      'POST',
      '/api/admin/refunds',
      { studentId: student.id, amountCents: 15_600, reference: 'BANK-2' },
      admin.jar,
    );
    expect(balanceRefund.status, await balanceRefund.clone().text()).toBe(201);

    expect(await (await get(t, '/api/account/money-left', student.jar)).json()).toEqual({
      balance: cents(0),
      holds: [],
      packages: [],
      pendingTopUps: [],
    });
    const nothing = await send(t, 'POST', '/api/account/refund-request', {}, student.jar);
    expect(nothing.status).toBe(409);
    expect((await nothing.json()).code).toBe('NOTHING_TO_REFUND');
    const deleted = await deleteAccount(student);
    expect(deleted.status, await deleted.clone().text()).toBe(200);
    await financeTotals(t, admin);
  }, 60_000);

  it('answers a signed-out caller 401', async () => {
    expect((await t.request('/api/account/export')).status).toBe(401);
    const res = await t.request('/api/account/delete', {
      method: 'POST',
      body: JSON.stringify({ password: TEST_PASSWORD }),
    });
    expect(res.status).toBe(401);
  });
});
