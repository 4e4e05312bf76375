/**
 * Runs once per API test run: builds one migrated database that every test file then copies,
 * instead of running all the migrations itself. On the embedded store, a data folder copied as
 * files (a fraction of a second instead of seconds); on PostgreSQL, a template database that each
 * file clones with `CREATE DATABASE ... TEMPLATE`, dropped when the run ends.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/database';

declare module 'vitest' {
  export interface ProvidedContext {
    embeddedTemplateDir: string;
    /** The migrated database the PostgreSQL project's files are cloned from. */
    postgresTemplate: string;
  }
}

async function asAdmin(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  if (project.name === 'api-postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
    const name = `tutorlane_template_${randomBytes(6).toString('hex')}`;
    await asAdmin(adminUrl, `CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    // Migrated exactly as a server does it, then closed: a template may have no open connection.
    const database = await openDatabase({ databaseUrl: url.toString(), dataDir: tmpdir(), poolSize: 1 });
    await database.close();
    project.provide('postgresTemplate', name);
    project.provide('embeddedTemplateDir', '');
    return () => asAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  const templateDir = mkdtempSync(join(tmpdir(), 'tutorlane-template-'));
  const database = await openDatabase({ dataDir: templateDir });
  await database.close();
  project.provide('embeddedTemplateDir', templateDir);
  project.provide('postgresTemplate', '');
  return () => rmSync(templateDir, { recursive: true, force: true });
}
