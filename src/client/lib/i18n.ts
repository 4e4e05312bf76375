/**
 * The page's language: chosen by the server (the saved language, the `lang` cookie, the browser's
 * Accept-Language, the school's default) and written into <html lang dir> before the first paint.
 * Only that language's catalogue is loaded (one chunk per language), before the first render;
 * English needs none.
 * A change of language loads the page again (the switcher in the footer), so nothing here changes
 * while a page lives.
 */
import { i18n } from '@lingui/core';
import { cachedCompiler } from '../../shared/cached-compiler';
import { setFormatLocale } from '../../shared/format-locale';
import {
  intlLocaleOf,
  isLanguage,
  type PageLanguage,
  PSEUDO_LANGUAGE,
  SOURCE_LANGUAGE,
} from '../../shared/languages';

/** The language the server wrote into the page. */
export function pageLanguage(): PageLanguage {
  const lang = document.documentElement.lang;
  return isLanguage(lang) || lang === PSEUDO_LANGUAGE ? lang : SOURCE_LANGUAGE;
}

/** Loads the page's catalogue and makes it the one every text and format reads. */
export async function loadPageLanguage(language: PageLanguage = pageLanguage()) {
  const locale = intlLocaleOf(language);
  if (language === SOURCE_LANGUAGE) {
    // English is written in the code itself: no catalogue to fetch, only the compiler that puts
    // values and plurals into a text (a few kB, against the whole catalogue's tens).
    const { compileMessage } = await import('@lingui/message-utils/compileMessage');
    i18n.setMessagesCompiler(cachedCompiler(compileMessage));
    i18n.loadAndActivate({ locale: language, locales: [locale], messages: {} });
  } else {
    const { messages } = await import(`../../locales/web/${language}.po`);
    i18n.loadAndActivate({ locale: language, locales: [locale], messages });
  }
  setFormatLocale(locale);
}

/**
 * A text from outside JSX, already marked for translation where it was written (`/*i18n*\/` in
 * src/shared, such as a form check's message or an error the server sent): its translation in the
 * page's language, or the text itself when the catalogue has none (a server's message is already
 * translated).
 */
export const translated = (text: string, values?: Record<string, unknown>) => i18n._(text, values);

export { i18n };
