/**
 * Runs once per API test run: initialises one embedded database and migrates it, so each test file
 * copies a ready data folder (a fraction of a second) instead of initialising its own (seconds).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/database';

declare module 'vitest' {
  export interface ProvidedContext {
    embeddedTemplateDir: string;
  }
}

export default async function setup(project: TestProject) {
  const templateDir = mkdtempSync(join(tmpdir(), 'tutorlane-template-'));
  if (project.name !== 'api-postgres') {
    const database = await openDatabase({ dataDir: templateDir });
    await database.close();
  }
  project.provide('embeddedTemplateDir', templateDir);
  return () => rmSync(templateDir, { recursive: true, force: true });
}
