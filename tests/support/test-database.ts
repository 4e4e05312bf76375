/**
 * A fresh database for one test file: a copy of the migrated embedded template, or, on the
 * PostgreSQL project, a database created for the file and dropped after it.
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

async function createPostgresDatabase(): Promise<TestDatabase> {
  const name = `tutorlane_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
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
