/**
 * The languages Tutorlane speaks. Adding one is a line here and its catalogues in src/locales
 * (docs/translating.md): the server, the pages, the language switcher and the catalogue checks all
 * read this list. Each name is written in its own language, as a person looking for theirs reads it.
 */
export const LANGUAGES = [
  { code: 'en', name: 'English', direction: 'ltr' },
  { code: 'es', name: 'Español', direction: 'ltr' },
  { code: 'de', name: 'Deutsch', direction: 'ltr' },
  { code: 'ar', name: 'العربية', direction: 'rtl' },
] as const;

export type Language = (typeof LANGUAGES)[number]['code'];

export const LANGUAGE_CODES = LANGUAGES.map((language) => language.code) as [Language, ...Language[]];

/** The language every text is written in first, and the product's default. */
export const SOURCE_LANGUAGE: Language = 'en';

/**
 * A test language, never offered to people: every English text accented, bracketed and longer,
 * which shows a text left out of the catalogues or cut off on a phone. Served only where
 * PSEUDO_LANGUAGE is on.
 */
export const PSEUDO_LANGUAGE = 'pseudo';

/** A language a page may be shown in: one of LANGUAGES, or the pseudo-language where it is on. */
export type PageLanguage = Language | typeof PSEUDO_LANGUAGE;

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGE_CODES as readonly string[]).includes(value);

/** Which way a language's text runs: `dir` of the page's <html>. */
export const directionOf = (language: PageLanguage): 'ltr' | 'rtl' =>
  LANGUAGES.find((known) => known.code === language)?.direction ?? 'ltr';

/** The locale Intl formats numbers, money and dates in for a language (the pseudo-language's is English). */
export const intlLocaleOf = (language: PageLanguage): string =>
  language === PSEUDO_LANGUAGE ? SOURCE_LANGUAGE : language;

/** The cookie a signed-out visitor's choice of language is kept in. */
export const LANGUAGE_COOKIE = 'lang';
