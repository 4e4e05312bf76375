/**
 * The import boundaries in .dependency-cruiser.cjs (run by `npm run lint`) fire: a small source
 * tree in a temporary folder breaks each of them once, beside the imports they allow, and
 * dependency-cruiser must name exactly the broken ones.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../..');

const files: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      module: 'ESNext',
      moduleResolution: 'bundler',
      jsx: 'react-jsx',
      verbatimModuleSyntax: true,
    },
  }),
  'src/server/app.ts': 'export type AppType = { name: string };\nexport const secret = 1;\n',
  'src/shared/rules.ts': "import { secret } from '../server/app';\nexport const limit = secret;\n",
  'src/shared/labels.ts':
    "import { page } from '../client/features/tutors/tutor-page';\nexport const label = page;\n",
  'src/client/lib/api.ts': [
    "import type { AppType } from '../../server/app';",
    "import { limit } from '../../shared/rules';",
    "import { leak } from './leak';",
    'export const client = (app?: AppType) => [app, limit, leak];',
    '',
  ].join('\n'),
  'src/client/lib/leak.ts': "import { secret } from '../../server/app';\nexport const leak = secret;\n",
  'src/client/components/avatar.tsx':
    "import { page } from '../features/tutors';\nexport const avatar = page;\n",
  'src/client/features/tutors/index.ts': "export { page } from './tutor-page';\n",
  'src/client/features/tutors/tutor-page.tsx':
    "import { client } from '../../lib/api';\nexport const page = client;\n",
  'src/client/features/messages/inbox.tsx': [
    "import { avatar } from '../../components/avatar';",
    "import { page } from '../tutors';",
    "import { page as internal } from '../tutors/tutor-page';",
    "import { thread } from './thread';",
    'export const inbox = [avatar, page, internal, thread];',
    '',
  ].join('\n'),
  'src/client/features/messages/thread.tsx':
    "import { inbox } from './inbox';\nexport const thread = () => inbox;\n",
  'src/client/app/router.tsx': [
    "import { page } from '../features/tutors';",
    "import { inbox } from '../features/messages/inbox';",
    'export const routes = [page, inbox];',
    '',
  ].join('\n'),
};

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'tutorlane-boundaries-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), text);
  }
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

const cruise = (outputType: string) =>
  run(
    process.execPath,
    [
      join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs'),
      'src',
      '--config',
      join(repo, '.dependency-cruiser.cjs'),
      '--output-type',
      outputType,
    ],
    { cwd: folder },
  );

test('each boundary rule fires on the import that breaks it, and only there', async () => {
  const { stdout } = await cruise('json');
  const report = JSON.parse(stdout) as {
    summary: { violations: { rule: { name: string }; from: string; to: string }[] };
  };
  const found = report.summary.violations
    .map(({ rule, from, to }) => `${rule.name}: ${from} -> ${to}`)
    .sort();
  expect(found).toEqual(
    [
      'client-reads-only-server-types: src/client/lib/leak.ts -> src/server/app.ts',
      'feature-internals: src/client/features/messages/inbox.tsx -> src/client/features/tutors/tutor-page.tsx',
      'no-client-cycles: src/client/features/messages/inbox.tsx -> src/client/features/messages/thread.tsx',
      'outside-into-feature-internals: src/client/app/router.tsx -> src/client/features/messages/inbox.tsx',
      'shared-imports-neither-side: src/shared/labels.ts -> src/client/features/tutors/tutor-page.tsx',
      'shared-imports-neither-side: src/shared/rules.ts -> src/server/app.ts',
      'shared-pieces-import-no-feature: src/client/components/avatar.tsx -> src/client/features/tutors/index.ts',
    ].sort(),
  );
});

test('the lint step fails on a broken boundary', async () => {
  // The way `npm run lint` runs it: the run ends with a failing exit status.
  await expect(cruise('err')).rejects.toMatchObject({ stdout: expect.stringContaining('no-client-cycles') });
});
