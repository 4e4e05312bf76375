import { Hono } from 'hono';
import type { CaptchaVerifier } from '../captcha/captcha';
import type { Config } from '../config/config';
import type { AppEnv } from '../http/app-env';

/** What the browser may know of the configuration. */
export interface PublicConfig {
  captcha: { kind: 'altcha' } | { kind: 'recaptcha'; siteKey: string };
  support: { email: string; phone: string };
}

/**
 * What the browser needs to know of the configuration, and nothing secret. Every page carries it
 * (static-site.ts), so the sign-up and contact pages draw their captcha and support details with
 * their first render; GET /api/config answers the same for any other caller.
 */
export function publicConfig(config: Config, captcha: Pick<CaptchaVerifier, 'siteKey'>): PublicConfig {
  const siteKey = captcha.siteKey;
  return {
    captcha: siteKey ? { kind: 'recaptcha', siteKey } : { kind: 'altcha' },
    support: { email: config.supportEmail, phone: config.supportPhone },
  };
}

/** GET /api/config: the public configuration above. */
export function publicConfigRoutes(body: PublicConfig) {
  return new Hono<AppEnv>().get('/config', (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(body, 200);
  });
}
