/**
 * The outbox worker against a slow mail server: on PostgreSQL mails to different people are
 * delivered side by side, at most four at once (on the embedded store one at a time, its one
 * connection being every request's too), and one person's mails arrive in the order queued.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { uniqueEmail } from '../support/accounts';
import { type MailCatcher, startMailCatcher } from '../support/mail-catcher';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let mailbox: MailCatcher;
beforeAll(async () => {
  // Each mail's data held 150 ms before the server answers: a sender one mail at a time would have
  // at most one mail open on it.
  mailbox = await startMailCatcher(0, { answerAfterMs: 150 });
  t = await createTestApp({ env: { SMTP_URL: mailbox.smtpUrl } });
});
afterAll(async () => {
  await t.close();
  await mailbox.close();
});

it('delivers mails to different people four at most at once on PostgreSQL, one at a time embedded, and one person’s in order', async () => {
  const busy = uniqueEmail('busy');
  const others = Array.from({ length: 5 }, (_, i) => uniqueEmail(`other-${i}`));
  const mail = (to: string, subject: string) => ({ to, subject, text: subject, html: `<p>${subject}</p>` });
  // Queued in this order, one batch: the busy person's three among the others' five.
  await t.mailer.sendMails([
    mail(busy, 'First for busy'),
    mail(others[0] as string, 'For other 0'),
    mail(busy, 'Second for busy'),
    ...others.slice(1).map((to, i) => mail(to, `For other ${i + 1}`)),
    mail(busy, 'Third for busy'),
  ]);
  await t.mailer.deliverDue();

  expect(mailbox.mailsTo(busy).map((caught) => caught.subject)).toEqual([
    'First for busy',
    'Second for busy',
    'Third for busy',
  ]);
  for (const [i, to] of others.entries())
    expect(mailbox.mailsTo(to).map((caught) => caught.subject)).toEqual([`For other ${i}`]);
  expect(mailbox.mostAtOnce).toBe(t.database.kind === 'postgres' ? 4 : 1);
  const rows = await t.database.db
    .selectFrom('mail_outbox')
    .select(['sent_at', 'attempts'])
    .where('recipient', 'in', [busy, ...others])
    .execute();
  expect(rows).toHaveLength(8);
  for (const row of rows) expect(row).toMatchObject({ sent_at: expect.any(Date), attempts: 1 });
});
