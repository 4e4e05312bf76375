import { Hono } from 'hono';
import type { CaptchaVerifier } from '../captcha/captcha';
import type { Config } from '../config/config';
import type { AppEnv } from '../http/app-env';

/**
 * What the browser needs to know of the configuration, and nothing secret. Every page carries it
 * (static-site.ts), so the sign-up and contact pages draw their captcha and support details with
 * their first render; GET /api/config answers the same for any other caller. The captcha is the
 * app's verifier's; without one (pages served while the database opens), the configuration's
 * choice, as createApp makes it: reCAPTCHA when its keys are set, else ALTCHA.
 */
export function publicConfig(config: Config, captcha?: Pick<CaptchaVerifier, 'siteKey'>) {
  const siteKey = captcha ? captcha.siteKey : config.recaptcha?.siteKey;
  return {
    captcha: siteKey ? { kind: 'recaptcha', siteKey } : { kind: 'altcha' },
    support: { email: config.supportEmail, phone: config.supportPhone },
  };
}

/** GET /api/config: the public configuration above. */
export function publicConfigRoutes(body: ReturnType<typeof publicConfig>) {
  return new Hono<AppEnv>().get('/config', (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(body);
  });
}
