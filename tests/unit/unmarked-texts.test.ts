/**
 * Every text a person reads is marked for translation: the scan is in ../support/unmarked-texts.ts,
 * what stays in English on purpose in its ALLOWED list.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  filesUnder,
  isMarked,
  root,
  sourceOf,
  unmarkedInPage,
  unmarkedOnServer,
  where,
} from '../support/unmarked-texts';

describe('every text a person reads is marked for translation', () => {
  it('in the pages: JSX text, accessible names, titles, placeholders', () => {
    const found = filesUnder(join(root, 'src/client'), /\.tsx$/).flatMap((path) =>
      unmarkedInPage(sourceOf(path)),
    );
    expect(found).toEqual([]);
  });

  it('on the server: mails, and the messages of errors', () => {
    const found = filesUnder(join(root, 'src/server'), /\.ts$/).flatMap((path) =>
      unmarkedOnServer(sourceOf(path), /mail/.test(path.split('/').pop() ?? '')),
    );
    expect(found).toEqual([]);
  });

  it('in the texts both sides share: src/shared/messages.ts and the modules of messages', () => {
    const found = filesUnder(join(root, 'src/shared'), /\.ts$/).flatMap((path) => {
      const file = sourceOf(path);
      if (!path.endsWith('/messages.ts')) return unmarkedOnServer(file, false);
      // Every export of the product's catalogue of texts.
      return file.statements
        .filter(ts.isVariableStatement)
        .flatMap((statement) => statement.declarationList.declarations)
        .map((declaration) => declaration.initializer)
        .filter((value): value is ts.StringLiteral => value !== undefined && ts.isStringLiteral(value))
        .filter((value) => !isMarked(file, value))
        .map((value) => where(file, value, value.text));
    });
    expect(found).toEqual([]);
  });

  it('finds what it is for', () => {
    const page = ts.createSourceFile(
      'page.tsx',
      `const a = <p>Find a tutor</p>; const b = <Trans>Find a tutor</Trans>; const c = <input aria-label="Search" placeholder={t\`Search\`} />;`,
      ts.ScriptTarget.Latest,
      true,
      ts.ScriptKind.TSX,
    );
    expect(unmarkedInPage(page).map((line) => line.split(': ')[1])).toEqual(['"Find a tutor"', '"Search"']);
    const mail = ts.createSourceFile(
      'lesson-mail.ts',
      `const a = /*i18n*/ 'Your lesson is booked'; const b = 'Your lesson is moved'; const c = \`Dear \${name}, welcome aboard\`;`,
      ts.ScriptTarget.Latest,
      true,
    );
    expect(unmarkedOnServer(mail, true).map((line) => line.split(': ')[1])).toEqual([
      '"Your lesson is moved"',
      '"Dear  , welcome aboard"',
    ]);
  });
});
