/**
 * The translations tests look for: a page's or a mail's text in a language, read from the
 * catalogues the product ships (src/locales), so a test written with the English text checks that
 * the page shows that text's translation, whatever the translators chose.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type I18n, setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { parsePo } from 'pofile-ts';
import { intlLocaleOf } from '../../src/shared/languages';

const root = join(import.meta.dirname, '../..');
const translators = new Map<string, I18n>();

function translatorOf(side: 'web' | 'server', language: string): I18n {
  const key = `${side}/${language}`;
  let i18n = translators.get(key);
  if (!i18n) {
    const messages: Record<string, string> = {};
    const po = parsePo(readFileSync(join(root, 'src/locales', side, `${language}.po`), 'utf8'));
    for (const item of po.items) if (item.msgstr[0]) messages[item.msgid] = item.msgstr[0];
    i18n = setupI18n();
    i18n.setMessagesCompiler(compileMessage);
    i18n.load(language, messages);
    i18n.activate(language, [intlLocaleOf(language as 'en')]);
    translators.set(key, i18n);
  }
  return i18n;
}

/** Whether the catalogue has a translation of `english`. */
export const hasTranslation = (language: string, english: string, side: 'web' | 'server' = 'web') =>
  translatorOf(side, language).messages[english] !== undefined;

/**
 * `english` (a text as written in the code, with its ICU placeholders) in `language`, its values
 * in place. Throws when the catalogue has no translation: a test must not pass on English.
 */
export function say(
  language: string,
  english: string,
  values?: Record<string, unknown>,
  side: 'web' | 'server' = 'web',
): string {
  if (language !== 'en' && !hasTranslation(language, english, side))
    throw new Error(`src/locales/${side}/${language}.po has no translation of ${JSON.stringify(english)}`);
  return translatorOf(side, language)._(english, values);
}
