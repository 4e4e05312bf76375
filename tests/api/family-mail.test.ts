/**
 * Families in lesson mails (issue 54): a child without a login is never mailed (their address is
 * read by nobody): their parent is, for every change and reminder; a linked child with a login and
 * their parent are both mailed, and the parent hears of the child's own booking; everyone is
 * reminded once. What the tutor gets (mails and calendar invitations) names the child by first
 * name only: never the placeholder address, the year of birth or the parent's address.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runReminders } from '../../src/server/lessons/reminders';
import { send } from '../support/accounts';
import { mailbox, type Person, person, setUpApiTest, t } from '../support/api-app';
import {
  bornYearsAgo,
  childWithoutLogin,
  linkStudent,
  parentAccount,
  type Someone,
  showsYear,
} from '../support/family-rows';
import { dayAt } from '../support/lessons';
import { publishTutor } from '../support/money';
import { TEST_APP_URL } from '../support/test-app';

setUpApiTest();
afterEach(() => {
  vi.useRealTimers();
});

const HOUR = 3_600_000;
const PLACEHOLDER = '@family.tutorlane.invalid';

/**
 * Every mail but the sign-up's queued for an address, oldest first, with its invitation: delivered
 * first, as a lesson's mail is written when it is delivered.
 */
async function mailsTo(address: string) {
  await t.mailer.deliverDue();
  const rows = await t.database.db
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body', 'html_body', 'calendar'])
    .where('recipient', '=', address.toLowerCase())
    .where('subject', 'not like', 'Verify your email%')
    .orderBy('id')
    .execute();
  // An invitation's long lines are folded (RFC 5545): unfolded, an address is one string again.
  return rows.map((row) => ({ ...row, calendar: row.calendar?.replace(/\r?\n[ \t]/g, '') ?? null }));
}

async function placeholderMails() {
  return t.database.db
    .selectFrom('mail_outbox')
    .select('recipient')
    .where('recipient', 'like', `%${PLACEHOLDER}`)
    .execute();
}

/** Nothing the tutor got names the parent's address, the child's address or year of birth. */
async function tutorMailsKeepFamilySecrets(tutor: Person, parent: Someone, childAge: number) {
  const mails = await mailsTo(tutor.email);
  expect(mails.length).toBeGreaterThan(0);
  for (const mail of mails) {
    const all = [mail.subject, mail.text_body, mail.html_body, mail.calendar ?? ''].join('\n');
    expect(all).not.toContain(parent.email);
    expect(all).not.toContain(PLACEHOLDER);
    expect(showsYear(all, bornYearsAgo(childAge)), all).toBe(false);
  }
  return mails;
}

const book = (who: Person | Someone, body: Record<string, unknown>) =>
  send(t, 'POST', '/api/lessons', { subject: 'Algebra', minutes: 60, ...body }, who.jar);

const deps = () => ({
  db: t.database.db,
  mailer: t.mailer,
  mail: { appUrl: TEST_APP_URL, mailFrom: t.config.mailFrom },
});

async function remindAt(now: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  const { sent } = await runReminders(deps());
  vi.useRealTimers();
  return sent;
}

describe('a child without a login', () => {
  it("their lesson's mails and reminders reach the parent, never the child's placeholder", async () => {
    const tutor = await publishTutor(t, await person('tutor', 'Tina Tutor'));
    const parent = await parentAccount(t, mailbox, 'Pat Parent');
    const child = await childWithoutLogin(t.database.db, parent.id, 'Emma', 9);
    const start = dayAt(4, '10:00');

    // Booked by the parent, confirmed at once: the parent and the tutor are mailed.
    const res = await book(parent, {
      tutorId: tutor.id,
      studentId: child,
      start: new Date(start).toISOString(),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = await res.json();
    const [confirmed] = await mailsTo(parent.email);
    expect(confirmed?.subject).toContain('For Emma: Lesson confirmed: Algebra lesson with Tina Tutor');
    expect(confirmed?.text_body).toContain("You get this mail as Emma's parent.");
    // The parent's own invitation lists them; the tutor's names Emma and lists neither address.
    expect(confirmed?.calendar).toContain(parent.email);
    expect(confirmed?.calendar).not.toContain(PLACEHOLDER);
    const [tutorConfirmed] = await tutorMailsKeepFamilySecrets(tutor, parent, 9);
    expect(tutorConfirmed?.subject).toContain('Lesson confirmed: Algebra lesson with Emma');
    expect(tutorConfirmed?.calendar).toContain('Emma');

    // Reminded a day ahead: the tutor and the parent, each once, even when the job runs again.
    const dayBefore = start - 24 * HOUR + 60_000;
    expect(await remindAt(dayBefore)).toBe(2);
    expect(await remindAt(dayBefore)).toBe(0);
    const reminders = (await mailsTo(parent.email)).filter((mail) => mail.subject.startsWith('Reminder:'));
    expect(reminders).toHaveLength(1);
    expect(reminders[0]?.subject).toContain("Reminder: Emma's Algebra lesson with Tina Tutor");
    expect(reminders[0]?.text_body).toContain('You join the lesson room for Emma');
    const rows = await t.database.db
      .selectFrom('lesson_reminders')
      .select('user_id')
      .where('lesson_id', '=', id)
      .execute();
    expect(rows.map((row) => row.user_id).sort()).toEqual([parent.id, tutor.id].sort());

    // Cancelled by the tutor: the parent is told.
    const cancelled = await send(t, 'POST', `/api/lessons/${id}/cancel`, { reason: 'Ill' }, tutor.jar);
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    const last = (await mailsTo(parent.email)).at(-1);
    expect(last?.subject).toContain('For Emma: Lesson cancelled');
    expect(last?.text_body).toContain('Tina Tutor cancelled your Algebra lesson');

    expect(await placeholderMails()).toEqual([]);
    await tutorMailsKeepFamilySecrets(tutor, parent, 9);
  });
});

describe('a linked child with a login', () => {
  it('books on their own: the parent is mailed; both are mailed and reminded after', async () => {
    const tutor = await publishTutor(t, await person('tutor', 'Theo Tutor'), { instantBooking: false });
    const parent = await parentAccount(t, mailbox, 'Alex Parent');
    const child = await person('student', 'Emma Teen');
    await linkStudent(t.database.db, parent.id, child.id, true, 15);
    const start = dayAt(5, '11:00');

    // The child's own request: the tutor is asked, and the parent hears of it.
    const res = await book(child, { tutorId: tutor.id, start: new Date(start).toISOString() });
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = await res.json();
    const [booked] = await mailsTo(parent.email);
    expect(booked?.subject).toContain('Emma Teen booked a lesson with Theo Tutor');
    expect(booked?.text_body).toContain('Emma Teen booked a Algebra lesson with Theo Tutor');
    expect(await mailsTo(child.email)).toEqual([]);

    // Accepted: the child and the parent are both told, each with an invitation of their own.
    const accepted = await send(t, 'POST', `/api/lessons/${id}/accept`, {}, tutor.jar);
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    const [childConfirmed] = await mailsTo(child.email);
    expect(childConfirmed?.subject).toContain('Lesson confirmed: Algebra lesson with Theo Tutor');
    expect(childConfirmed?.calendar).not.toContain(parent.email);
    const parentConfirmed = (await mailsTo(parent.email)).at(-1);
    expect(parentConfirmed?.subject).toContain('For Emma Teen: Lesson confirmed');
    const tutorMails = await tutorMailsKeepFamilySecrets(tutor, parent, 15);
    expect(tutorMails.map((mail) => mail.subject).join('\n')).toContain('New lesson request from Emma Teen');

    // Reminded: the tutor, the child and the parent, each once.
    const hourBefore = start - HOUR + 60_000;
    expect(await remindAt(hourBefore)).toBe(3);
    expect(await remindAt(hourBefore)).toBe(0);
    const childReminder = (await mailsTo(child.email)).filter((mail) => mail.subject.startsWith('Reminder:'));
    const parentReminder = (await mailsTo(parent.email)).filter((mail) =>
      mail.subject.startsWith('Reminder:'),
    );
    expect(childReminder).toHaveLength(1);
    expect(parentReminder).toHaveLength(1);
    expect(parentReminder[0]?.text_body).toContain("Emma Teen's Algebra lesson with Theo Tutor starts soon");

    // Cancelled by the child: the parent is told it was the child.
    const cancelled = await send(t, 'POST', `/api/lessons/${id}/cancel`, {}, child.jar);
    expect(cancelled.status, await cancelled.clone().text()).toBe(200);
    expect((await mailsTo(parent.email)).at(-1)?.text_body).toContain(
      'Emma Teen cancelled their Algebra lesson with Theo Tutor',
    );
    await tutorMailsKeepFamilySecrets(tutor, parent, 15);
  });

  it("a parent's booking for a child with a login is not told as the child's", async () => {
    const tutor = await publishTutor(t, await person('tutor', 'Uma Tutor'), { instantBooking: false });
    const parent = await parentAccount(t, mailbox, 'Jo Parent');
    const child = await person('student', 'Leo Teen');
    await linkStudent(t.database.db, parent.id, child.id, true, 14);
    const res = await book(parent, {
      tutorId: tutor.id,
      studentId: child.id,
      start: new Date(dayAt(6, '12:00')).toISOString(),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    // A request the parent made themselves: only the tutor is asked, as for any student's request.
    expect(await mailsTo(parent.email)).toEqual([]);
    expect(await mailsTo(child.email)).toEqual([]);
    expect((await mailsTo(tutor.email)).map((mail) => mail.subject).join('\n')).toContain(
      'New lesson request from Leo Teen',
    );
  });
});
