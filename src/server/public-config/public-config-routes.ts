import { Hono } from 'hono';
import { etag } from 'hono/etag';
import { LANGUAGES, type Language } from '../../shared/languages';
import type { HourlyRateRange, ShownFigures, SupportDetails } from '../../shared/settings/site-settings';
import type { SubjectCatalog, TypicalHourlyRate } from '../../shared/tutor-catalog';
import type { CaptchaVerifier } from '../captcha/captcha';
import type { AppEnv } from '../http/app-env';
import type { SiteSettings } from '../settings/site-settings';

/** What the browser may know of the configuration and the site settings. */
export interface PublicConfig {
  captcha: { kind: 'altcha' } | { kind: 'recaptcha'; siteKey: string };
  support: SupportDetails;
  /** How soon support answers, in hours; null: the pages promise nothing. */
  supportReplyHours: number | null;
  /** Each figure as the home page shows it; null: left out. */
  homeFigures: ShownFigures;
  /** What most listed tutors charge an hour, in whole units of `payments.currency`; null: unsaid. */
  typicalHourlyRate: TypicalHourlyRate | null;
  /** The hourly rates a tutor may ask, in whole units of `payments.currency` (a site setting). */
  hourlyRateRange: HourlyRateRange;
  subjects: SubjectCatalog;
  /** How this school takes money: the wallet, the booking box and prices read it. */
  payments: PublicPayments;
  /** ADMIN_TWO_FACTOR: whether the console first asks an admin without two-factor to set it up. */
  adminTwoFactor: 'required' | 'optional';
  /** The languages offered, each named in its own language ("Español"). */
  languages: { code: Language; name: string }[];
  /** The school's default language (Site settings, else DEFAULT_LANGUAGE). */
  defaultLanguage: Language;
}

export interface PublicPayments {
  on: boolean;
  /** ISO 4217: every price and amount is in it. */
  currency: string;
  /** Whether students may top up by card. */
  stripe: boolean;
  /** What a bank-transfer top-up says to do: the site setting in effect. */
  instructions: string;
}

/**
 * What the browser needs to know of the configuration and the site settings, and nothing secret.
 * Every page carries it (static-site.ts), so the sign-up, home, contact and profile pages draw
 * their captcha, figures, support details, typical rate and subjects with their first render; GET /api/config
 * answers the same for any other caller.
 */
export function publicConfig(
  captcha: Pick<CaptchaVerifier, 'siteKey'>,
  settings: SiteSettings,
  payments: Omit<PublicPayments, 'instructions'>,
  adminTwoFactor: PublicConfig['adminTwoFactor'],
): PublicConfig {
  const siteKey = captcha.siteKey;
  return {
    captcha: siteKey ? { kind: 'recaptcha', siteKey } : { kind: 'altcha' },
    support: settings.support,
    supportReplyHours: settings.supportReplyHours,
    homeFigures: settings.homeFigures,
    typicalHourlyRate: settings.typicalHourlyRate,
    hourlyRateRange: settings.hourlyRateRange,
    subjects: settings.subjects,
    payments: { ...payments, instructions: settings.paymentInstructions },
    adminTwoFactor,
    languages: LANGUAGES.map(({ code, name }) => ({ code, name })),
    defaultLanguage: settings.defaultLanguage,
  };
}

/**
 * GET /api/config: the public configuration above. An admin may change the settings in it at any
 * time, so a cache keeps it only to revalidate (the ETag makes that a 304 when nothing changed).
 */
export function publicConfigRoutes(current: () => Promise<PublicConfig>) {
  return new Hono<AppEnv>().get('/config', etag(), async (c) => {
    const body = await current();
    c.header('Cache-Control', 'public, no-cache');
    return c.json(body, 200);
  });
}

/** The public configuration for a snapshot of the settings: one object per snapshot, not per request. */
export function publicConfigOf(
  captcha: CaptchaVerifier,
  payments: Omit<PublicPayments, 'instructions'>,
  adminTwoFactor: PublicConfig['adminTwoFactor'],
) {
  let from: SiteSettings | undefined;
  let made: PublicConfig | undefined;
  return (settings: SiteSettings): PublicConfig => {
    if (settings !== from || !made) {
      from = settings;
      made = publicConfig(captcha, settings, payments, adminTwoFactor);
    }
    return made;
  };
}
