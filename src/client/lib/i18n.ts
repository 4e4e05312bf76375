/**
 * The page's language: chosen by the server (the saved language, the `lang` cookie, the browser's
 * Accept-Language, the school's default) and written into <html lang dir> before the first paint.
 * Only that language's catalogue is loaded, before the first render: the app shell's texts, and
 * each page's own texts with the page (the build splits a catalogue by page, see vite.config.ts).
 * English is loaded the same way: the built code holds only the texts' ids.
 * A change of language loads the page again (the switcher in the footer), so nothing here changes
 * while a page lives.
 */
import { i18n, type Messages } from '@lingui/core';
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

type PageTexts = Record<string, () => Promise<{ messages: Messages }>>;

/** Each page's texts in the page's language, once its catalogue is loaded. */
let pageTexts: Promise<PageTexts> = Promise.resolve({});

/** Loads the page's catalogue and makes it the one every text and format reads. */
export function loadPageLanguage(language: PageLanguage = pageLanguage()) {
  const loaded = loadCatalogue(language);
  pageTexts = loaded.then(
    (texts) => texts,
    () => ({}),
  );
  return loaded.then(() => undefined);
}

async function loadCatalogue(language: PageLanguage): Promise<PageTexts> {
  const locale = intlLocaleOf(language);
  // English too: the code keeps only each text's id, and every catalogue comes compiled.
  const { messages, pages } = await import(`../../locales/web/${language}.po`);
  i18n.loadAndActivate({ locale: language, locales: [locale], messages });
  setFormatLocale(locale);
  return pages ?? {};
}

/**
 * Adds the texts of a page's module (`features/home/home-page.tsx`, as the page table names it),
 * or of a module loaded on demand (withTexts), in the page's language, before it renders.
 */
export async function loadPageTexts(module: string) {
  const load = (await pageTexts)[module];
  if (!load) return;
  const { messages } = await load();
  i18n.load(i18n.locale, messages);
}

/**
 * A module loaded on demand (`import('./x')`) with its texts in the page's language: the build
 * gives such a module texts of its own, keyed by its path from src/client
 * (`features/tutors/booking-confirmation.tsx`), and refuses an import of one that does not name it.
 */
export async function withTexts<T>(module: Promise<T>, path: string): Promise<T> {
  return (await Promise.all([module, loadPageTexts(path)]))[0];
}

/**
 * A text from outside JSX, already marked for translation where it was written (`/*i18n*\/` in
 * src/shared, such as a form check's message or an error the server sent): its translation in the
 * page's language, or the text itself when the catalogue has none (a server's message is already
 * translated).
 */
export const translated = (text: string, values?: Record<string, unknown>) =>
  // Asked of Lingui only when the catalogue has it: Lingui would warn of an uncompiled message.
  Object.hasOwn(i18n.messages, text) ? i18n._(text, values) : text;

export { i18n };
