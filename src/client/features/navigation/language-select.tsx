/**
 * The language switcher, in the footer and in the phone menu: each language named in its own
 * language (never translated), the page's own selected (the pseudo-language shows as English).
 * A choice is kept in the `lang` cookie, and on the profile when signed in, then the page loads
 * again, so the server writes <html lang dir> and the catalogue anew.
 */
import { useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { isLanguage, LANGUAGE_COOKIE, LANGUAGES, SOURCE_LANGUAGE } from '../../../shared/languages';
import { pageLanguage } from '../../lib/i18n';
import { useAuth } from '../auth';

const YEAR_SECONDS = 31536000;

export function LanguageSelect({ className = '' }: { className?: string }) {
  const { t } = useLingui();
  const auth = useAuth();
  const id = useId();
  const current = pageLanguage();
  const [busy, setBusy] = useState(false);

  const choose = async (code: string) => {
    if (!isLanguage(code) || busy) return;
    setBusy(true);
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Firefox and Safari before 18.4
    document.cookie = `${LANGUAGE_COOKIE}=${code}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax`;
    if (auth.status === 'signed-in') {
      try {
        await auth.actions.updateLanguage(code);
      } catch (error) {
        // The cookie still holds the choice for this browser; the profile keeps its language.
        console.error('Could not save the language', error);
      }
    }
    location.reload();
  };

  return (
    <div className={`flex items-center gap-2 ${className}`}>
      <label htmlFor={id} className="shrink-0 text-sm font-medium text-slate-700">
        {t`Language`}
      </label>
      <select
        id={id}
        className="min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-brand-600"
        value={isLanguage(current) ? current : SOURCE_LANGUAGE}
        aria-busy={busy || undefined}
        onChange={(event) => void choose(event.target.value)}
      >
        {LANGUAGES.map((language) => (
          <option key={language.code} value={language.code} lang={language.code} dir={language.direction}>
            {language.name}
          </option>
        ))}
      </select>
    </div>
  );
}
