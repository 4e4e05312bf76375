import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError, DEFAULT_PAYMENT_INSTRUCTIONS, loadConfig } from '../../src/server/config/config';
import { beforeFileOperation } from '../support/pausable-fs';

vi.mock('node:fs', async (original) => (await import('../support/pausable-fs')).pausableFs(await original()));

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

  it('reads the backup schedule and the metrics token, with their defaults', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir })).toMatchObject({
      backups: { dir: join(dir, 'backups'), everyHours: 24, keep: 7 },
      metricsToken: undefined,
    });
    expect(
      loadConfig({ DATA_DIR: dir, BACKUP_DIR: '/srv/backups', BACKUP_EVERY_HOURS: '0', BACKUP_KEEP: '30' })
        .backups,
    ).toEqual({ dir: '/srv/backups', everyHours: 0, keep: 30 });
    expect(() => loadConfig({ DATA_DIR: dir, BACKUP_KEEP: '0' })).toThrow(
      /^Invalid configuration: BACKUP_KEEP must be at least 1/,
    );
    expect(() => loadConfig({ DATA_DIR: dir, BACKUP_EVERY_HOURS: 'daily' })).toThrow(
      /^Invalid configuration: BACKUP_EVERY_HOURS /,
    );
    expect(() => loadConfig({ DATA_DIR: dir, METRICS_TOKEN: 'short' })).toThrow(
      /^Invalid configuration: METRICS_TOKEN must be at least 16 characters long \(got "…"\)$/,
    );
  });

  it('creates no data folder or secret for a command that signs nothing', () => {
    const dir = join(dataDir(), 'not-yet');
    expect(loadConfig({ DATA_DIR: dir }, { generateSecret: false }).authSecret).toBe('');
    expect(existsSync(dir)).toBe(false);
  });

  it('reads REQUIRE_TUTOR_APPROVAL as a yes or no, off by default, and refuses anything else', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).requireTutorApproval).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), REQUIRE_TUTOR_APPROVAL: 'true' }).requireTutorApproval).toBe(
      true,
    );
    expect(loadConfig({ DATA_DIR: dataDir(), REQUIRE_TUTOR_APPROVAL: '0' }).requireTutorApproval).toBe(false);
    expect(() => loadConfig({ DATA_DIR: dataDir(), REQUIRE_TUTOR_APPROVAL: 'yes please' })).toThrow(
      /^Invalid configuration: REQUIRE_TUTOR_APPROVAL must be true or false \(got "yes please"\)$/,
    );
  });

  it('takes payments by default, in USD at 15%, and checks each money setting', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config.payments).toMatchObject({
      on: true,
      currency: 'USD',
      commissionPercent: 15,
      stripe: undefined,
    });
    expect(config.payments.instructions).toBe(DEFAULT_PAYMENT_INSTRUCTIONS);
    const custom = loadConfig({
      DATA_DIR: dataDir(),
      PAYMENTS: 'off',
      CURRENCY: 'eur',
      COMMISSION_PERCENT: '0',
      PAYMENT_INSTRUCTIONS: 'IBAN DE00 1234',
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
    });
    expect(custom.payments).toMatchObject({
      on: false,
      currency: 'EUR',
      commissionPercent: 0,
      instructions: 'IBAN DE00 1234',
      stripe: { secretKey: 'sk_test_1', webhookSecret: 'whsec_1', apiUrl: undefined },
    });
    for (const [env, message] of [
      [{ PAYMENTS: 'yes' }, 'PAYMENTS must be on or off'],
      [{ CURRENCY: 'XYZ' }, 'CURRENCY must be an ISO 4217 currency code'],
      [{ COMMISSION_PERCENT: '51' }, 'COMMISSION_PERCENT must be between 0 and 50'],
      [{ COMMISSION_PERCENT: '7.5' }, 'COMMISSION_PERCENT must be a whole number of percent'],
      [{ STRIPE_SECRET_KEY: 'sk_test_1' }, 'STRIPE_WEBHOOK_SECRET must be set too'],
      [{ STRIPE_WEBHOOK_SECRET: 'whsec_1' }, 'STRIPE_SECRET_KEY must be set too'],
    ] as const)
      expect(() => loadConfig({ DATA_DIR: dataDir(), ...env }), message).toThrow(message);
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
    [
      'DATABASE_LISTEN_URL',
      'redis://x',
      /^Invalid configuration: DATABASE_LISTEN_URL must be a PostgreSQL URL/,
    ],
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

  it('takes a listener URL of its own only beside DATABASE_URL', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).databaseListenUrl).toBeUndefined();
    const both = loadConfig({
      DATA_DIR: dataDir(),
      DATABASE_URL: 'postgres://u@pgbouncer:6432/db',
      DATABASE_LISTEN_URL: 'postgres://u@postgres:5432/db',
    });
    expect(both).toMatchObject({
      databaseUrl: 'postgres://u@pgbouncer:6432/db',
      databaseListenUrl: 'postgres://u@postgres:5432/db',
    });
    expect(() =>
      loadConfig({ DATA_DIR: dataDir(), DATABASE_LISTEN_URL: 'postgres://u@postgres:5432/db' }),
    ).toThrow(
      /^Invalid configuration: DATABASE_LISTEN_URL is for PostgreSQL: set DATABASE_URL too, or neither$/,
    );
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

  it.each([
    ['empty', ''],
    ['cut short', 'k3Jx9\n'],
  ])('refuses a generated secret file that is %s, with one line naming it and AUTH_SECRET', (_, content) => {
    const dir = dataDir();
    writeFileSync(join(dir, 'auth-secret'), content);
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(
      new ConfigError(
        `Invalid configuration: the session secret in ${join(dir, 'auth-secret')} is shorter than 32 characters (a first start cut short?); delete the file to generate a new one, or set AUTH_SECRET`,
      ),
    );
    // AUTH_SECRET takes precedence over the file.
    expect(loadConfig({ DATA_DIR: dir, AUTH_SECRET: 'x'.repeat(32) }).authSecret).toBe('x'.repeat(32));
  });

  it('gives two servers starting together the same whole secret, whenever the second one reads', () => {
    // The first server is paused before each of its file operations in turn, and the second one
    // loads its configuration there.
    for (let pauseAt = 0; ; pauseAt++) {
      const dir = dataDir();
      let operations = 0;
      let second: string | undefined;
      beforeFileOperation.current = () => {
        if (operations++ !== pauseAt) return;
        beforeFileOperation.current = undefined;
        second = loadConfig({ DATA_DIR: dir }).authSecret;
      };
      let first: string;
      try {
        first = loadConfig({ DATA_DIR: dir }).authSecret;
      } finally {
        beforeFileOperation.current = undefined;
      }
      if (second === undefined) break; // the first made fewer operations: every pause was played
      expect(first, `paused before operation ${pauseAt}`).toBe(second);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(readFileSync(join(dir, 'auth-secret'), 'utf8').trim()).toBe(first);
      expect(readdirSync(dir)).toEqual(['auth-secret']);
    }
  });

  it('stops with one line when DATA_DIR is a file', () => {
    const file = join(dataDir(), 'not-a-folder');
    writeFileSync(file, '');
    expect(() => loadConfig({ DATA_DIR: file })).toThrow(
      new ConfigError(`Invalid configuration: DATA_DIR ${file} is a file, not a folder`),
    );
  });
});
