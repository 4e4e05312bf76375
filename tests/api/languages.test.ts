/**
 * Errors in the caller's language: chosen by the browser's Accept-Language (its regional tags and
 * q-values), by the `lang` cookie of the language switcher (which wins over the header), by a
 * signed-in person's saved language, else by the school's default language. The code never
 * changes with the language; the page's <html lang dir> follows the same choice.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../src/server/admin/admin-command';
import type { Database } from '../../src/server/db/database';
import { translate } from '../../src/server/i18n/translations';
import * as messages from '../../src/shared/messages';
import { get, send, signIn, signUp, TEST_PASSWORD, uniqueEmail, verifiedPerson } from '../support/accounts';
import { type MailCatcher, startMailCatcher } from '../support/mail-catcher';
import { createTestApp, type TestApp } from '../support/test-app';

// The API's app with a page shell to serve, for <html lang dir>.
let t: TestApp;
let mailbox: MailCatcher;
beforeAll(async () => {
  mailbox = await startMailCatcher();
  const clientDir = mkdtempSync(join(tmpdir(), 'tutorlane-client-'));
  writeFileSync(
    join(clientDir, 'index.html'),
    '<!doctype html><html lang="en"><head><title>shell</title></head><body></body></html>',
  );
  t = await createTestApp({ clientDir, env: { SMTP_URL: mailbox.smtpUrl } });
});
afterAll(async () => {
  await t.close();
  await mailbox.close();
});

let people = 0;
const person = (role: 'student' | 'tutor', name = `Person Number${++people}`) =>
  verifiedPerson(t, mailbox, role, name);

const LANGUAGES = ['es', 'de', 'ar'] as const;
type Language = (typeof LANGUAGES)[number] | 'en';

/** A text in each language, as the server's catalogues say it: translated, not left in English. */
const inEvery = (text: string) => {
  const said = Object.fromEntries(
    (['en', ...LANGUAGES] as Language[]).map((language) => [language, translate(language, text)]),
  ) as Record<Language, string>;
  for (const language of LANGUAGES) expect(said[language], `${text} in ${language}`).not.toBe(text);
  return said;
};

/** The texts this file reads. */
const SAID = {
  invalidCredentials: inEvery(messages.invalidCredentials),
  fillAllFields: inEvery(messages.fillAllFields),
  languageRefused: inEvery('Please choose one of the languages offered'),
};

/** A sign-in with a wrong password, with `headers`. */
const wrongPassword = (email: string, headers: Record<string, string>) =>
  t.request('/api/auth/sign-in/email', {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, password: 'not-the-password-42' }),
  });

/** A sign-in with nothing filled in: refused as a validation error. */
const emptySignIn = (headers: Record<string, string>) =>
  t.request('/api/auth/sign-in/email', {
    method: 'POST',
    headers,
    body: JSON.stringify({ email: '', password: '' }),
  });

describe('errors in the language the request asks for', () => {
  it.each(LANGUAGES)(
    'says a wrong password and a validation error in %s by Accept-Language, codes unchanged',
    async (language) => {
      const { email } = await signUp(t);
      const english = await wrongPassword(email, { 'accept-language': 'en' });
      expect(english.status).toBe(401);
      const englishBody = await english.json();
      expect(englishBody.message).toBe(SAID.invalidCredentials.en);

      const refused = await wrongPassword(email, { 'accept-language': language });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({
        message: SAID.invalidCredentials[language],
        code: englishBody.code,
      });

      const invalid = await emptySignIn({ 'accept-language': language });
      expect(invalid.status).toBe(400);
      expect(await invalid.json()).toMatchObject({
        message: SAID.fillAllFields[language],
        code: 'VALIDATION_ERROR',
      });
    },
  );

  it.each(LANGUAGES)('takes the lang cookie (%s) over the header', async (language) => {
    const invalid = await emptySignIn({ 'accept-language': 'en-US,en;q=0.9', cookie: `lang=${language}` });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      message: SAID.fillAllFields[language],
      code: 'VALIDATION_ERROR',
    });
  });

  it('reads regional tags and q-values: es-MX is Spanish, "fr;q=0.9, de;q=0.8" is German', async () => {
    const mexican = await emptySignIn({ 'accept-language': 'es-MX' });
    expect((await mexican.json()).message).toBe(SAID.fillAllFields.es);
    const weighted = await emptySignIn({ 'accept-language': 'fr;q=0.9, de;q=0.8' });
    expect((await weighted.json()).message).toBe(SAID.fillAllFields.de);
    const unknown = await emptySignIn({ 'accept-language': 'fr' });
    expect((await unknown.json()).message).toBe(SAID.fillAllFields.en);
  });
});

describe("a signed-in person's saved language", () => {
  it.each(LANGUAGES)(
    'is saved (%s), echoed, read back, and says their errors whatever the header',
    async (language) => {
      const who = await person('student');
      const saved = await send(t, 'PATCH', '/api/profile', { language }, who.jar);
      expect(saved.status).toBe(200);
      // The refreshed copy of the session the answer sets, as a browser keeps it.
      who.jar.store(saved);
      expect((await saved.json()).language).toBe(language);
      expect((await (await get(t, '/api/profile', who.jar)).json()).language).toBe(language);
      expect((await (await get(t, '/api/session', who.jar)).json()).user.language).toBe(language);

      const refused = await t.request('/api/profile', {
        method: 'PATCH',
        headers: { cookie: who.jar.header(), 'accept-language': 'en' },
        body: JSON.stringify({ language: 'fr' }),
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        message: SAID.languageRefused[language],
        code: 'VALIDATION_ERROR',
      });
      // The refused change changed nothing.
      expect((await (await get(t, '/api/profile', who.jar)).json()).language).toBe(language);
    },
  );

  it('is not undone by an answer that read the session before it was saved and came after it', async () => {
    const who = await person('student');
    // A request the page sent before the change: it read the session as it was then, and its
    // answer reaches the browser only after the change's own answer.
    const late = await get(t, '/api/profile/details', who.jar);
    const saved = await send(t, 'PATCH', '/api/profile', { language: 'ar' }, who.jar);
    expect(saved.status).toBe(200);
    who.jar.store(saved);
    who.jar.store(late);
    // What the next page this browser loads reads: the session's cached copy.
    expect((await (await get(t, '/api/session', who.jar)).json()).user.language).toBe('ar');
  });

  it('names the fields it refuses in words, in the language, even a field with an empty name', async () => {
    const who = await person('student');
    for (const [language, body] of [
      ['en', { role: 'tutor' }],
      ['es', { '': false }],
    ] as const) {
      const refused = await t.request('/api/profile', {
        method: 'PATCH',
        headers: { cookie: who.jar.header(), 'accept-language': language },
        body: JSON.stringify(body),
      });
      expect(refused.status).toBe(400);
      const keys = Object.keys(body).join(', ');
      expect(await refused.json()).toMatchObject({
        message: translate(language, 'Only displayName and language can be changed here; refused: {keys}', {
          keys,
        }),
        code: 'VALIDATION_ERROR',
      });
    }
  });

  it('refuses a language not offered with VALIDATION_ERROR, in English by default', async () => {
    const who = await person('student');
    const refused = await send(t, 'PATCH', '/api/profile', { language: 'fr' }, who.jar);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      message: SAID.languageRefused.en,
      code: 'VALIDATION_ERROR',
    });
  });
});

describe('a suspended person', () => {
  it('is told why, and where to write, in their language', async () => {
    const who = await person('student');
    await t.database.db
      .updateTable('users')
      .set({ suspended_at: new Date(), suspension_reason: 'Spam' })
      .where('email', '=', who.email)
      .execute();
    const refused = await t.request('/api/auth/sign-in/email', {
      method: 'POST',
      headers: { 'accept-language': 'de' },
      body: JSON.stringify({ email: who.email, password: TEST_PASSWORD }),
    });
    expect(refused.status).toBe(403);
    const body = await refused.json();
    expect(body.code).toBe('ACCOUNT_SUSPENDED');
    expect(body.message).toBe(
      translate(
        'de',
        'Your account has been suspended: {reason} If you think this is a mistake, write to {email}.',
        {
          reason: 'Spam',
          email: t.config.supportEmail,
        },
      ),
    );
    expect(body.message).toContain('Spam');
  });
});

describe('the languages offered and the school default', () => {
  it('lists each language in its own name, with the default', async () => {
    const config = await (await t.request('/api/config')).json();
    expect(config.languages).toEqual(
      expect.arrayContaining([
        { code: 'es', name: 'Español' },
        { code: 'de', name: 'Deutsch' },
        { code: 'ar', name: 'العربية' },
      ]),
    );
    expect(config.defaultLanguage).toBe('en');
  });

  it('lays out a page requested in Arabic right to left', async () => {
    const page = await (await t.request('/', { headers: { 'accept-language': 'ar' } })).text();
    expect(page).toContain('<html lang="ar" dir="rtl">');
  });

  it("answers in the school's default language when the request asks for none, audited, its page in it", async () => {
    const admin = await person('student', 'Admin Languages');
    const database = async (): Promise<Database> => ({ ...t.database, close: async () => {} });
    expect(await runAdminCommand(['grant', admin.email], database)).toMatchObject({ exitCode: 0 });
    // Signed in again: the grant takes effect with a new session.
    const { jar } = await signIn(t, admin.email);
    const audited = async () =>
      (
        await t.database.db
          .selectFrom('audit_log')
          .select(['action', 'reason'])
          .where('action', '=', 'settings.changed')
          .execute()
      ).length;
    const before = await audited();
    try {
      const changed = await send(t, 'PATCH', '/api/admin/settings', { defaultLanguage: 'de' }, jar);
      expect(changed.status, await changed.clone().text()).toBe(200);
      expect(await audited()).toBe(before + 1);
      expect((await (await t.request('/api/config')).json()).defaultLanguage).toBe('de');

      const invalid = await emptySignIn({});
      expect(await invalid.json()).toMatchObject({
        message: SAID.fillAllFields.de,
        code: 'VALIDATION_ERROR',
      });
      const { email } = await signUp(t, { email: uniqueEmail('default-language') });
      expect((await (await wrongPassword(email, {})).json()).message).toBe(SAID.invalidCredentials.de);
      // A browser that asks for a language we speak still gets it.
      expect((await (await emptySignIn({ 'accept-language': 'es' })).json()).message).toBe(
        SAID.fillAllFields.es,
      );
      const page = await (await t.request('/')).text();
      expect(page).toContain('<html lang="de" dir="ltr">');
    } finally {
      const back = await send(t, 'PATCH', '/api/admin/settings', { defaultLanguage: null }, jar);
      expect(back.status).toBe(200);
    }
  });
});
