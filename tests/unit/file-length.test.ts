/**
 * No file in src/ is longer than 450 lines: a longer one holds several things, and is split by
 * what they are. Every file counts, the generated row types included (`npm run db:types` writes
 * them one table a file, in src/server/db/generated/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const MAX_LINES = 450;
const src = resolve(import.meta.dirname, '../../src');

/** Lines as `wc -l` and an editor count them: a last line without its newline counts too. */
const linesOf = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

test(`no file in src/ is over ${MAX_LINES} lines`, () => {
  // Code, not the translation catalogues (src/locales): a catalogue holds every text of its side,
  // one entry each, and grows with the product by design.
  const files = readdirSync(src, { recursive: true, withFileTypes: true }).filter(
    (entry) => entry.isFile() && !entry.name.endsWith('.po'),
  );
  expect(files.length).toBeGreaterThan(100);
  const tooLong = files
    .map((entry) => join(entry.parentPath, entry.name))
    .map((path) => ({ file: relative(src, path), lines: linesOf(readFileSync(path, 'utf8')) }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`)
    .sort();
  expect(tooLong, 'split these by what they hold').toEqual([]);
});
