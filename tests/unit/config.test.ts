import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config/config';

const dataDir = () => mkdtempSync(join(tmpdir(), 'tutorlane-config-test-'));

describe('configuration', () => {
  it('has the defaults of PRODUCT.md', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      appUrl: 'http://localhost:3000',
      secure: false,
      databaseUrl: undefined,
      smtpUrl: undefined,
      mailFrom: 'Tutorlane <no-reply@localhost>',
      supportEmail: 'support@localhost',
      recaptcha: undefined,
      trustProxy: 0,
    });
    expect(config.supportPhone).not.toBe('');
  });

  it('derives APP_URL from PORT and marks an https APP_URL secure', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), PORT: '8080' }).appUrl).toBe('http://localhost:8080');
    const secure = loadConfig({ DATA_DIR: dataDir(), APP_URL: 'https://tutorlane.example/' });
    expect(secure.appUrl).toBe('https://tutorlane.example');
    expect(secure.secure).toBe(true);
  });

  it.each([
    ['PORT', 'abc', /^Invalid configuration: PORT must be a number \(got "abc"\)$/],
    ['PORT', '70000', /^Invalid configuration: PORT must be between 0 and 65535/],
    ['APP_URL', 'not a url', /^Invalid configuration: APP_URL must be an http or https URL/],
    ['DATABASE_URL', 'mysql://x@y/z', /^Invalid configuration: DATABASE_URL must be a PostgreSQL URL/],
    ['SMTP_URL', 'http://mail', /^Invalid configuration: SMTP_URL must be an SMTP URL/],
    ['SUPPORT_EMAIL', 'nobody', /^Invalid configuration: SUPPORT_EMAIL must be an email address/],
    ['TRUST_PROXY', 'yes', /^Invalid configuration: TRUST_PROXY must be a number/],
    ['AUTH_SECRET', 'short', /^Invalid configuration: AUTH_SECRET must be at least 32 characters/],
  ])('stops on a bad %s with one line naming it', (name, value, expected) => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: dataDir(), [name]: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(expected);
    expect((error as Error).message).not.toContain('\n');
  });

  it('never prints the value of a secret or a URL that may hold a password', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), SMTP_URL: 'ftp://user:hunter2@mail' })).toThrow(
      /^(?!.*hunter2)/,
    );
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), PORT: '', SMTP_URL: '' })).toMatchObject({
      port: 3000,
      smtpUrl: undefined,
    });
  });

  it('needs both reCAPTCHA keys or neither', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), RECAPTCHA_SITE_KEY: 'site' })).toThrow(
      /RECAPTCHA_SECRET_KEY must be set too/,
    );
    const both = loadConfig({
      DATA_DIR: dataDir(),
      RECAPTCHA_SITE_KEY: 'site',
      RECAPTCHA_SECRET_KEY: 'secret',
    });
    expect(both.recaptcha).toEqual({ siteKey: 'site', secretKey: 'secret' });
  });

  it('requires AUTH_SECRET in production on PostgreSQL, where servers must share it', () => {
    expect(() =>
      loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production', DATABASE_URL: 'postgres://u@h/db' }),
    ).toThrow(/AUTH_SECRET is required/);
  });

  it('generates a secret once into DATA_DIR, readable only by its owner, and keeps it', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).authSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(existsSync(join(dir, 'auth-secret'))).toBe(true);
    expect(statSync(join(dir, 'auth-secret')).mode & 0o077).toBe(0);
    expect(loadConfig({ DATA_DIR: dir }).authSecret).toBe(first);
    expect(readFileSync(join(dir, 'auth-secret'), 'utf8').trim()).toBe(first);
  });
});
