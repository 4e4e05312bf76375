/** The contact form's API: validated, stored, forwarded to support, rate limited. */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as messages from '../../src/shared/messages';
import { send } from '../support/accounts';
import { mailbox, setUpApiTest, t } from '../support/api-app';

setUpApiTest({ env: { SUPPORT_EMAIL: 'help@tutorlane.test' } });

const valid = {
  name: 'Vera Visitor',
  email: 'vera@example.com',
  subject: 'tutoring',
  message: 'Do you teach Latin?',
};

describe('POST /api/contact', () => {
  it('stores the message and mails it to SUPPORT_EMAIL with the visitor as Reply-To', async () => {
    const res = await send(t, 'POST', '/api/contact', { ...valid, email: '  Vera@Example.com ' });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const row = await t.database.db
      .selectFrom('contact_messages')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'Vera Visitor', email: 'vera@example.com', subject: 'tutoring' });
    const mail = await mailbox.waitFor((m) => m.to === 'help@tutorlane.test');
    expect(mail.subject).toBe('[Tutorlane contact] Tutoring Services from Vera Visitor');
    expect(mail.text).toContain('Do you teach Latin?');
    expect(mail.headers['reply-to']).toContain('vera@example.com');
  });

  it.each([
    ['a missing name', { name: '' }, 'Name is required'],
    ['a malformed email', { email: 'vera' }, 'Please enter a valid email address'],
    ['an unknown subject', { subject: 'spam' }, 'Please choose a subject'],
    ['no subject', { subject: '' }, 'Please choose a subject'],
    ['an empty message', { message: '   ' }, 'Message is required'],
    [
      'a message over 5,000 characters',
      { message: 'x'.repeat(5001) },
      'Message must be at most 5000 characters',
    ],
    ['a name over 80 characters', { name: 'x'.repeat(81) }, 'Name must be at most 80 characters'],
    ['a line break in the name', { name: 'Eve\r\nBcc: all@example.com' }, 'Name must be on one line'],
    [
      'a text direction override in the name',
      { name: 'Eve \u202Enimda' },
      'Name must not contain invisible formatting characters (such as text direction marks)',
    ],
    [
      'a line break in the email',
      { email: 'eve@example.com\r\nBcc: all@example.com' },
      'Please enter a valid email address',
    ],
  ])('refuses %s with a clear 400', async (_label, change, message) => {
    const before = mailbox.mails.length;
    const res = await send(t, 'POST', '/api/contact', { ...valid, ...change });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
    expect(mailbox.mails.length).toBe(before);
  });

  it('refuses a body that is not JSON', async () => {
    const res = await t.request('/api/contact', { method: 'POST', body: 'not json' });
    expect(res.status).toBe(400);
  });

  it('accepts five messages an hour from one address, then answers 429 with Retry-After', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    for (let i = 0; i < 5; i++) {
      const res = await t.request('/api/contact', { method: 'POST', headers, body: JSON.stringify(valid) });
      expect(res.status).toBe(201);
    }
    const refused = await t.request('/api/contact', { method: 'POST', headers, body: JSON.stringify(valid) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).message).toMatch(/Too many/);
  });

  it('does not count refused messages against the limit: a typo costs nothing', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.10' };
    const post = (body: object) =>
      t.request('/api/contact', { method: 'POST', headers, body: JSON.stringify(body) });
    for (let i = 0; i < 6; i++) expect((await post({ ...valid, email: 'vera@' })).status).toBe(400);
    expect((await t.request('/api/contact', { method: 'POST', headers, body: 'not json' })).status).toBe(400);
    for (let i = 0; i < 5; i++) expect((await post(valid)).status).toBe(201);
    expect((await post(valid)).status).toBe(429);
  });

  it('stores a message only with its mail: when the mail cannot be queued, neither is kept', async () => {
    const name = 'Outbox Refuses';
    // The outbox refuses this one mail, as a failing insert would.
    await sql`alter table mail_outbox add constraint refuse_one_mail check (subject not like ${sql.lit(`%${name}%`)})`.execute(
      t.database.db,
    );
    try {
      const res = await send(t, 'POST', '/api/contact', { ...valid, name });
      expect(res.status).toBe(500);
      expect((await res.json()).message).toBe(messages.unexpectedError);
    } finally {
      await sql`alter table mail_outbox drop constraint refuse_one_mail`.execute(t.database.db);
    }
    const stored = await t.database.db
      .selectFrom('contact_messages')
      .select('id')
      .where('name', '=', name)
      .execute();
    expect(stored).toEqual([]);
    // The same message goes through once the outbox takes it.
    expect((await send(t, 'POST', '/api/contact', { ...valid, name })).status).toBe(201);
  });
});
