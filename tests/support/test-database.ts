/**
 * A fresh database for one test file: a copy of the migrated embedded template, or, on the
 * PostgreSQL project, a clone of the migrated template database, dropped after the file
 * (tests/support/api-global-setup.ts builds both once per run).
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/database';

export const testStore = process.env.TEST_STORE === 'postgres' ? 'postgres' : 'embedded';

export interface TestDatabase extends Database {
  /** Closes the database and removes every trace of it. */
  destroy(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  return testStore === 'postgres' ? createPostgresDatabase() : createEmbeddedDatabase();
}

async function createEmbeddedDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tutorlane-test-'));
  cpSync(join(inject('embeddedTemplateDir'), 'db'), join(dataDir, 'db'), { recursive: true });
  const database = await openDatabase({ dataDir });
  return {
    ...database,
    async destroy() {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  return url;
}

/** PostgreSQL's answer when a template is being read by another session at the same instant. */
const TEMPLATE_IN_USE = '55006';

async function createPostgresDatabase(): Promise<TestDatabase> {
  const name = `tutorlane_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    // Two files cloning the template at once may collide on it: the second waits and tries again.
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== TEMPLATE_IN_USE || attempt === 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  // The clone is migrated already: opening it finds nothing to do.
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: tmpdir(), poolSize: 5 });
  return {
    ...database,
    async destroy() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl() });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
