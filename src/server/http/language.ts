/**
 * The language a request is answered in (its errors' messages, the page's <html lang dir>): the
 * signed-in person's saved language, else the `lang` cookie a signed-out visitor chose with the
 * language switcher, else the browser's Accept-Language (its q-values and regional tags: es-MX is
 * Spanish), else the school's default (Site settings, else DEFAULT_LANGUAGE). Hono's own
 * detectors read the cookie and the header.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { detectFromCookie, detectFromHeader } from 'hono/language';
import {
  LANGUAGE_CODES,
  LANGUAGE_COOKIE,
  type Language,
  type PageLanguage,
  PSEUDO_LANGUAGE,
} from '../../shared/languages';
import type { AppEnv } from './app-env';

const detection = (pseudo: boolean) => ({
  order: ['cookie', 'header'] as ('cookie' | 'header')[],
  lookupQueryString: 'lang',
  lookupCookie: LANGUAGE_COOKIE,
  lookupFromHeaderKey: 'accept-language',
  lookupFromPathIndex: 0,
  caches: false as const,
  ignoreCase: true,
  fallbackLanguage: 'en',
  supportedLanguages: pseudo ? [...LANGUAGE_CODES, PSEUDO_LANGUAGE] : [...LANGUAGE_CODES],
  cookieOptions: {},
  debug: false,
});

/**
 * Sets what the request itself says (cookie, header) and the school's default: a signed-in
 * person's saved language is added once their session is read (languageOf).
 */
export function requestLanguage(options: {
  defaultLanguage: () => Language;
  pseudoLanguage: boolean;
}): MiddlewareHandler<AppEnv> {
  const settings = detection(options.pseudoLanguage);
  return async (c, next) => {
    const chosen =
      detectFromCookie(c, settings) ??
      // The pseudo-language is chosen by its cookie only, never by a browser's header.
      (detectFromHeader(c, { ...settings, supportedLanguages: [...LANGUAGE_CODES] }) as
        | PageLanguage
        | undefined);
    c.set('requestLanguage', (chosen as PageLanguage | undefined) ?? options.defaultLanguage());
    await next();
  };
}

/** The language to answer this request in. */
// biome-ignore lint/suspicious/noExplicitAny: any route's context, whatever its own variables
export function languageOf(c: Context<any>): PageLanguage {
  const vars = c.var as Partial<AppEnv['Variables']>;
  return vars.user?.language ?? vars.requestLanguage ?? 'en';
}
