import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';

/**
 * The languages Tutorlane speaks and where their catalogues live (docs/translating.md).
 * `web`: the pages' texts, one chunk per language loaded only when that language is used.
 * `server`: mails and API error messages, read by the server and never sent to a browser.
 * Texts in src/shared are used on both sides, so they are in both catalogues.
 * `pseudo` is a test language: every English text accented, bracketed and 40% longer, which shows
 * a text left untranslated or cut off at 390 px (tests/browser/pseudo-language.spec.ts).
 */
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'es', 'de', 'ar', 'pseudo'],
  pseudoLocale: { locale: 'pseudo', prepend: '⟦', append: '⟧', extend: 0.4 },
  fallbackLocales: { default: 'en' },
  orderBy: 'messageId',
  format: formatter({ origins: false, lineNumbers: false }),
  catalogs: [
    { path: '<rootDir>/src/locales/web/{locale}', include: ['<rootDir>/src/client', '<rootDir>/src/shared'] },
    {
      path: '<rootDir>/src/locales/server/{locale}',
      include: ['<rootDir>/src/server', '<rootDir>/src/shared'],
    },
  ],
});
