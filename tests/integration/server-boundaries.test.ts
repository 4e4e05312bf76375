/**
 * The server's import boundaries fire (`npm run lint`): the layering rules in
 * .dependency-cruiser.cjs and the folder loops of scripts/check-server-folder-cycles.mjs. A small
 * server in a temporary folder breaks each once, beside imports they allow (a type-only import
 * back, a folder importing another one way), and each check must name exactly the broken ones.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../..');

const files: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', verbatimModuleSyntax: true },
  }),
  'src/server/app.ts': [
    "import { book } from './lessons/booking';",
    "import { routes } from './admin/admin-routes';",
    'export const app = [book, routes];',
    '',
  ].join('\n'),
  'src/server/http/api-error.ts': 'export class ApiError extends Error {}\n',
  // The infrastructure reaching up into a feature.
  'src/server/http/request-logger.ts':
    "import { contact } from '../contact/contact-routes';\nexport const logRequests = contact;\n",
  'src/server/contact/contact-routes.ts': 'export const contact = 1;\n',
  // The platform naming a feature's type: refused too.
  'src/server/platform/guards.ts': [
    "import { ApiError } from '../http/api-error';",
    "import type { Tutor } from '../tutors/tutor';",
    'export const guard = (tutor?: Tutor) => (tutor ? null : new ApiError());',
    '',
  ].join('\n'),
  // lessons and money import each other, through files that form no loop of their own.
  'src/server/lessons/booking.ts': [
    "import { guard } from '../platform/guards';",
    "import { hold } from '../money/payments';",
    'export const book = () => [guard(), hold];',
    '',
  ].join('\n'),
  'src/server/lessons/slots.ts': 'export const slots = [];\n',
  'src/server/money/payments.ts': 'export const hold = 1;\n',
  'src/server/money/packages.ts':
    "import { slots } from '../lessons/slots';\nexport const credits = slots;\n",
  // accounts -> reviews -> tutors -> accounts: a loop with no pair in it.
  'src/server/accounts/auth.ts':
    "import { reviews } from '../reviews/reviews';\nexport const auth = reviews;\n",
  'src/server/accounts/user.ts': 'export const user = 1;\n',
  'src/server/reviews/reviews.ts':
    "import { tutor } from '../tutors/tutor';\nexport const reviews = tutor;\n",
  'src/server/tutors/tutor.ts': [
    "import { user } from '../accounts/user';",
    'export type Tutor = { id: string };',
    'export const tutor = user;',
    '',
  ].join('\n'),
  // admin and backup: one way by value, back by type only, which is allowed.
  'src/server/admin/admin-routes.ts':
    "import type { Backup } from '../backup/backups';\nexport const routes = (backup?: Backup) => backup;\n",
  'src/server/admin/admin-command.ts': 'export const command = 1;\n',
  'src/server/backup/backups.ts': [
    "import { command } from '../admin/admin-command';",
    'export type Backup = { name: string };',
    'export const backups = command;',
    '',
  ].join('\n'),
};

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'tutorlane-server-boundaries-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), text);
  }
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

test('the platform imports no feature and the infrastructure neither', async () => {
  const { stdout } = await run(
    process.execPath,
    [
      join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs'),
      'src',
      '--config',
      join(repo, '.dependency-cruiser.cjs'),
      '--output-type',
      'json',
    ],
    { cwd: folder },
  );
  const report = JSON.parse(stdout) as {
    summary: { violations: { rule: { name: string }; from: string; to: string }[] };
  };
  const found = report.summary.violations
    .map(({ rule, from, to }) => `${rule.name}: ${from} -> ${to}`)
    .sort();
  expect(found).toEqual([
    'server-infrastructure-imports-no-feature: src/server/http/request-logger.ts -> src/server/contact/contact-routes.ts',
    'server-platform-imports-no-feature: src/server/platform/guards.ts -> src/server/tutors/tutor.ts',
  ]);
});

test('a server folder importing one that imports it back fails the lint step, naming the imports', async () => {
  const failure = await run(process.execPath, [join(repo, 'scripts/check-server-folder-cycles.mjs')], {
    cwd: folder,
  }).then(
    () => null,
    (error: { code: number; stdout: string }) => error,
  );
  expect(failure?.code).toBe(1);
  const lines = failure?.stdout.split('\n') ?? [];
  expect(lines.filter((line) => line.startsWith('error')).sort()).toEqual([
    'error server-folder-cycles: src/server/accounts -> src/server/reviews -> src/server/tutors -> src/server/accounts',
    'error server-folder-cycles: src/server/lessons -> src/server/money -> src/server/lessons',
  ]);
  const pair = lines.indexOf(
    'error server-folder-cycles: src/server/lessons -> src/server/money -> src/server/lessons',
  );
  expect(lines.slice(pair + 1, pair + 3)).toEqual([
    '    src/server/lessons/booking.ts -> src/server/money/payments.ts',
    '    src/server/money/packages.ts -> src/server/lessons/slots.ts',
  ]);
});

test('npm run lint runs the folder check after dependency-cruiser', async () => {
  const { scripts } = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  expect(scripts.lint).toContain('npm run lint:boundaries');
  expect(scripts['lint:boundaries']).toContain('node scripts/check-server-folder-cycles.mjs');
});
