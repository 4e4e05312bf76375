/**
 * Every text a person reads goes through the catalogues (docs/translating.md). This scan of the
 * sources' syntax trees finds the texts that would not:
 * - in pages (src/client, .tsx): JSX text outside <Trans>/<Plural>, a quoted text as a child, and
 *   a literal accessible name, title, placeholder or alt;
 * - in mails and errors (src/server): a string with words in a mail's module, or given to an
 *   ApiError, that is not marked `/*i18n*\/` (the mark `lingui extract` reads), and any template
 *   literal with words there (a translation needs the whole sentence, values in placeholders).
 * What stays in English on purpose is listed in ALLOWED, each with its reason.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const root = join(import.meta.dirname, '../..');

/** Texts that are not translated, each with the reason. */
const ALLOWED: Record<string, string> = {
  Tutorlane: 'the product name is a name',
  'unread message mails failed': 'a log line of the minute job, for operators',
  'd/dx (x² + 3x) = 2x + 3': 'a formula in the home page’s drawing of a lesson',
  '∫ 2x dx = x² + C': 'a formula in the home page’s drawing of a lesson',
};

/** Words: a letter, in any script. */
const hasWords = (text: string) => /\p{L}{2,}/u.test(text);

const TRANSLATING_ELEMENTS = new Set(['Trans', 'Plural', 'Select', 'SelectOrdinal']);
const TEXT_ATTRIBUTES = new Set([
  'aria-label',
  'title',
  'placeholder',
  'alt',
  'aria-description',
  'aria-roledescription',
]);

export function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, pattern);
    return pattern.test(name) ? [path] : [];
  });
}

export function sourceOf(path: string) {
  const text = readFileSync(path, 'utf8');
  return ts.createSourceFile(
    path,
    text,
    ts.ScriptTarget.Latest,
    true,
    path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
}

export const where = (file: ts.SourceFile, node: ts.Node, text: string) =>
  `${relative(root, file.fileName)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${JSON.stringify(text.trim().slice(0, 80))}`;

const allowed = (text: string) => ALLOWED[text.trim()] !== undefined;

/** Whether `/*i18n*\/` stands right before the node (in its leading trivia). */
export const isMarked = (file: ts.SourceFile, node: ts.Node) =>
  /\/\*\s*\*?\s*i18n\s*\*\/\s*$/.test(file.text.slice(node.getFullStart(), node.getStart()));

function insideTranslatingElement(node: ts.Node): boolean {
  for (let at = node.parent; at; at = at.parent) {
    if (ts.isJsxElement(at) && TRANSLATING_ELEMENTS.has(at.openingElement.tagName.getText())) return true;
  }
  return false;
}

/** Unmarked texts in one page module. */
export function unmarkedInPage(file: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasWords(node.text) && !allowed(node.text) && !insideTranslatingElement(node))
      found.push(where(file, node, node.text));
    if (
      ts.isJsxExpression(node) &&
      node.expression &&
      (ts.isStringLiteral(node.expression) || ts.isNoSubstitutionTemplateLiteral(node.expression)) &&
      (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent)) &&
      hasWords(node.expression.text) &&
      !allowed(node.expression.text) &&
      !insideTranslatingElement(node)
    )
      found.push(where(file, node, node.expression.text));
    if (ts.isJsxAttribute(node) && TEXT_ATTRIBUTES.has(node.name.getText())) {
      const value = node.initializer;
      const literal =
        value && ts.isStringLiteral(value)
          ? value
          : value && ts.isJsxExpression(value) && value.expression && ts.isStringLiteral(value.expression)
            ? value.expression
            : undefined;
      if (literal && hasWords(literal.text) && !allowed(literal.text))
        found.push(where(file, node, literal.text));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Unmarked texts in a server module: all of a mail module's, and those given to errors elsewhere. */
export function unmarkedOnServer(file: ts.SourceFile, isMailModule: boolean): string[] {
  const found: string[] = [];
  // A mail's HTML markup (tags, their attributes) is not read: only the words between tags are.
  const withoutMarkup = (text: string) => text.replace(/<[^>]*>?/g, ' ').replace(/^[^<]*>/, ' ');
  const check = (node: ts.Node) => {
    if (ts.isTemplateExpression(node)) {
      const words = withoutMarkup(
        [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' '),
      );
      if (/\p{L}{2,}\s+\p{L}{2,}/u.test(words) && !allowed(words)) found.push(where(file, node, words));
      return;
    }
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      /\p{L}{2,}\s+\p{L}{2,}/u.test(withoutMarkup(node.text)) &&
      !isMarked(file, node) &&
      !allowed(node.text)
    )
      found.push(where(file, node, node.text));
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (isMailModule) {
      // Keys, log lines, the console's output for developers, SQL, and errors no person reads (a
      // program's mistake) are not mails' sentences.
      if (ts.isPropertyAssignment(node)) {
        visit(node.initializer);
        return;
      }
      if (
        ts.isCallExpression(node) &&
        /\b(logger|log|console|stdout|stderr)\b/.test(node.expression.getText())
      )
        return;
      if (ts.isTaggedTemplateExpression(node)) return;
      if (
        ts.isNewExpression(node) &&
        /Error$/.test(node.expression.getText()) &&
        node.expression.getText() !== 'ApiError'
      )
        return;
      if (
        ts.isStringLiteral(node) ||
        ts.isTemplateExpression(node) ||
        ts.isNoSubstitutionTemplateLiteral(node)
      )
        check(node);
    } else if (ts.isNewExpression(node) && node.expression.getText() === 'ApiError') {
      const text = node.arguments?.[1];
      if (text) check(text);
    } else if (
      ts.isVariableDeclaration(node) &&
      /(Messages|^messages)$/.test(node.name.getText()) &&
      node.initializer &&
      ts.isObjectLiteralExpression(node.initializer)
    ) {
      // A module's catalogue of error texts (`lessonMessages = { notFound: ... }`).
      for (const property of node.initializer.properties)
        if (ts.isPropertyAssignment(property)) check(property.initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
