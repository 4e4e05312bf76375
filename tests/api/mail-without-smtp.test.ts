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
