import { Hono } from 'hono';
import type { CaptchaVerifier } from '../captcha/captcha';
import type { Config } from '../config/config';
import type { AppEnv } from '../http/app-env';

/** GET /api/config: what the browser needs to know of the configuration, and nothing secret. */
export function publicConfigRoutes(config: Config, captcha: CaptchaVerifier) {
  const body = {
    captcha:
      captcha.kind === 'recaptcha' ? { kind: 'recaptcha', siteKey: captcha.siteKey } : { kind: 'altcha' },
    support: { email: config.supportEmail, phone: config.supportPhone },
  };
  return new Hono<AppEnv>().get('/config', (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(body);
  });
}
