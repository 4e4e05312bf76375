/**
 * The server's texts (API error messages, mails) in every language. Each text is written in
 * English where it is used, marked `/*i18n*\/` so that `lingui extract` puts it in the server's
 * catalogues (src/locales/server/{language}.po), where the English text is its id. A language's
 * catalogue is read the first time something is said in it, and kept: catalogues change only
 * with a release. A text missing from a catalogue is said in English.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type I18n, setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { parsePo } from 'pofile-ts';
import { cachedCompiler } from '../../shared/cached-compiler';
import { intlLocaleOf, isLanguage, type PageLanguage, SOURCE_LANGUAGE } from '../../shared/languages';

/** From this module's source (src/server/i18n) or from the bundle (dist/server). */
const cataloguesDir = ['../../../src/locales/server/', '../../src/locales/server/']
  .map((path) => fileURLToPath(new URL(path, import.meta.url)))
  .find((dir) => existsSync(dir));

const translators = new Map<string, I18n>();

function readCatalogue(language: string): Record<string, string> {
  const messages: Record<string, string> = {};
  if (!cataloguesDir || !isLanguage(language)) return messages;
  const po = parsePo(readFileSync(`${cataloguesDir}${language}.po`, 'utf8'));
  for (const item of po.items) {
    const text = item.msgstr[0];
    if (item.msgid && text && !item.obsolete) messages[item.msgid] = text;
  }
  return messages;
}

/** The translator of one language (the pseudo-language's and any unknown one's is English). */
export function translatorFor(language: PageLanguage | string): I18n {
  const known = isLanguage(language) ? language : SOURCE_LANGUAGE;
  let i18n = translators.get(known);
  if (!i18n) {
    i18n = setupI18n();
    // Catalogues hold ICU messages as written (plurals, selects): compiled once, when first said.
    i18n.setMessagesCompiler(cachedCompiler(compileMessage));
    i18n.load(known, readCatalogue(known));
    i18n.activate(known, [intlLocaleOf(known)]);
    translators.set(known, i18n);
  }
  return i18n;
}

/** Values an ICU message names ("{amount}", "{count, plural, ...}"). */
export type TextValues = Record<string, string | number | Date>;

/** `text` (the English text, its catalogue id) in `language`, with its values in place. */
export const translate = (language: PageLanguage | string, text: string, values?: TextValues): string =>
  translatorFor(language)._(text, values);
