/**
 * Mail without SMTP_URL: printed to the console with its link, so a newcomer can
 * verify an account, and saved as a file under DATA_DIR/mail.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { signUp, uniqueEmail } from '../support/accounts';
import { createTestApp, TEST_APP_URL, type TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t.close();
});

async function waitFor<T>(find: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('prints the verification mail with its link and saves it under DATA_DIR/mail', async () => {
  expect(t.config.smtpUrl).toBeUndefined();
  const printed: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    printed.push(String(chunk));
    return true;
  });

  const email = uniqueEmail('console');
  const { res } = await signUp(t, { email, name: 'Newcomer Nora' });
  expect(res.status).toBe(200);

  const link = new RegExp(`${TEST_APP_URL}/verify-email\\?token=[\\w-]{43,}`);
  const block = await waitFor(() =>
    printed
      .join('')
      .split('──── Mail to ')
      .find((part) => part.startsWith(email)),
  );
  expect(block).toContain('Verify your email for Tutorlane');
  const printedLink = block.match(link)?.[0];
  expect(printedLink).toBeDefined();
  stdout.mockRestore();

  const mailDir = join(t.config.dataDir, 'mail');
  const file = block.match(/saved as (\S+\.eml)/)?.[1];
  expect(file?.startsWith(mailDir)).toBe(true);
  expect(readdirSync(mailDir).filter((name) => name.endsWith('.eml'))).toHaveLength(1);
  const saved = await simpleParser(readFileSync(file as string));
  expect(saved.subject).toBe('Verify your email for Tutorlane');
  expect(saved.text).toContain(printedLink);
  expect(saved.html).toContain(printedLink);

  // Beside it, a copy a person reads as it is: named after its recipient and subject, with the
  // link whole on one line, as the .eml's quoted-printable body does not have it.
  const readable = (file as string).replace(/\.eml$/, '.txt');
  expect(readable).toContain(email);
  expect(readable).toContain('Verify-your-email-for-Tutorlane');
  const text = readFileSync(readable, 'utf8');
  expect(text).toContain(`To: ${email}`);
  expect(text).toContain('Subject: Verify your email for Tutorlane');
  expect(text.split('\n')).toContain(printedLink);
});

it('delivers more than a batch of queued mails once each, and keeps one it cannot write for a retry', async () => {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const plain = Array.from({ length: 12 }, (_, i) => ({
    to: uniqueEmail(`batch-${i}`),
    subject: `Batch mail ${i}`,
    text: `Mail number ${i}`,
    html: `<p>Mail number ${i}</p>`,
  }));
  const unwritable = { to: uniqueEmail('batch-unwritable'), template: 'no-such-template', params: {} };
  await t.mailer.sendMails([...plain.slice(0, 6), unwritable, ...plain.slice(6)]);
  await t.mailer.deliverDue();

  const rows = await t.database.db
    .selectFrom('mail_outbox')
    .select(['recipient', 'subject', 'text_body', 'sent_at', 'attempts', 'claimed_until', 'last_error'])
    .where('recipient', 'in', [...plain.map((mail) => mail.to), unwritable.to])
    .execute();
  const byRecipient = new Map(rows.map((row) => [row.recipient, row]));
  for (const mail of plain)
    expect(byRecipient.get(mail.to)).toMatchObject({
      subject: mail.subject,
      text_body: mail.text,
      sent_at: expect.any(Date),
      attempts: 1,
      claimed_until: null,
      last_error: null,
    });
  expect(byRecipient.get(unwritable.to)).toMatchObject({
    sent_at: null,
    attempts: 1,
    claimed_until: null,
    last_error: 'no mail template named no-such-template',
  });
  // Each delivered mail was written once, the unwritable one not at all.
  const saved = readdirSync(join(t.config.dataDir, 'mail')).filter((name) => name.endsWith('.txt'));
  for (const mail of plain) expect(saved.filter((name) => name.includes(mail.to))).toHaveLength(1);
  expect(saved.some((name) => name.includes(unwritable.to))).toBe(false);
});
