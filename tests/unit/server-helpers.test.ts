import { describe, expect, it } from 'vitest';
import { isCommonPassword } from '../../src/server/accounts/password-policy';
import { escapeHtml } from '../../src/server/mail/html';
import { contactForwardMail, verificationMail } from '../../src/server/mail/mail-templates';
import { retryDelayMs } from '../../src/server/mail/mailer';

describe('password policy', () => {
  it('knows the most common passwords, in any case, and lets a rare one through', async () => {
    for (const password of ['123456', 'password', 'qwerty', 'PASSWORD', 'iloveyou']) {
      expect(await isCommonPassword(password), password).toBe(true);
    }
    expect(await isCommonPassword('correct-horse-battery-42')).toBe(false);
  });
});

describe('mail', () => {
  it('escapes what a user typed in the HTML body', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;',
    );
    const mail = contactForwardMail({
      name: '<img src=x onerror=alert(1)>',
      email: 'a@example.com',
      subjectLabel: 'Other',
      message: '<b>bold</b>',
      receivedAt: new Date('2026-01-01T00:00:00Z'),
      replyHours: null,
    });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;b&gt;bold&lt;/b&gt;');
  });

  it('says when a contact message arrived in words: UTC, named, since support has no zone of its own', () => {
    const mail = contactForwardMail({
      name: 'Vera',
      email: 'a@example.com',
      subjectLabel: 'Other',
      message: 'Hello',
      receivedAt: new Date('2026-01-01T00:00:00Z'),
      replyHours: null,
    });
    expect(mail.text).toContain(
      'Received: Thursday, January 1, 2026, 00:00 Coordinated Universal Time (UTC)',
    );
    expect(mail.text).not.toContain('2026-01-01T');
  });

  it('names the product in every subject and carries the link in both bodies', () => {
    const mail = verificationMail({
      displayName: 'Ada',
      link: 'http://localhost:3000/verify-email?token=abc',
    });
    expect(mail.subject).toContain('Tutorlane');
    expect(mail.text).toContain('http://localhost:3000/verify-email?token=abc');
    expect(mail.html).toContain('http://localhost:3000/verify-email?token=abc');
  });

  it('retries soon at first, then at most a minute apart', () => {
    expect(retryDelayMs(1)).toBe(2000);
    expect(retryDelayMs(2)).toBe(4000);
    expect(retryDelayMs(10)).toBe(60_000);
  });
});
