/**
 * What most API test files begin with: the app on a fresh database, mailing to a caught mailbox
 * (and, when asked, served on a loopback port for live channels), all closed after the file; and
 * verified people to act as.
 *
 * Call setUpApiTest() once at a file's top level; `t`, `mailbox` and `server` are then set inside its
 * hooks and tests. They are module bindings, read live by the importing file. The API projects
 * share modules between the files of a worker (vitest.config.ts), but a worker runs one file at a
 * time and each file's beforeAll sets them to an app of its own, closed by its afterAll.
 */
import { afterAll, beforeAll } from 'vitest';
import { verifiedPerson } from './accounts';
import { type MailCatcher, startMailCatcher } from './mail-catcher';
import { createTestApp, type TestApp } from './test-app';

export let t: TestApp;
export let mailbox: MailCatcher;
/** Set only with `listen: true`. */
export let server: { url: string; close(): Promise<void> };

export interface ApiAppOptions {
  /** Configuration beyond SMTP_URL, which always points at the mailbox. */
  env?: Record<string, string>;
  /** Serve the app on a loopback port too, for WebSockets (the live channel). */
  listen?: boolean;
}

export function setUpApiTest(options: ApiAppOptions = {}): void {
  beforeAll(async () => {
    mailbox = await startMailCatcher();
    t = await createTestApp({ env: { SMTP_URL: mailbox.smtpUrl, ...options.env } });
    if (options.listen) server = await t.listen();
  });
  afterAll(async () => {
    if (options.listen) await server.close();
    await t.close();
    await mailbox.close();
  });
}

export type Person = Awaited<ReturnType<typeof verifiedPerson>>;

let people = 0;
/** A verified, signed-in person; named "Tutor Number3" or "Student Number4" unless a name is given. */
export function person(role: 'student' | 'tutor' | 'parent', name?: string): Promise<Person> {
  people += 1;
  const word = { student: 'Student', tutor: 'Tutor', parent: 'Parent' }[role];
  return verifiedPerson(t, mailbox, role, name ?? `${word} Number${people}`);
}
