/**
 * Security headers on every response (issue #5): a Content-Security-Policy that allows no inline
 * script, no plugins, no <base> and no framing; nosniff; a strict referrer policy (none at all on
 * the pages whose URL carries a token); HSTS when the site is served over https.
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { paths } from '../../shared/routes';
import type { AppEnv } from './app-env';

/** Pages whose URL carries a secret token: the token must never leave in a Referer header. */
const tokenPages = new Set<string>([paths.resetPassword, paths.verifyEmail]);

export function securityHeaders(options: { https: boolean; recaptcha: boolean }): MiddlewareHandler<AppEnv> {
  const google = options.recaptcha
    ? ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/']
    : [];
  const headers = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...google],
      // Inline style attributes (progress bars, the captcha widget) are harmless; inline scripts are not.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'", ...google],
      workerSrc: ["'self'", 'blob:'],
      frameSrc: options.recaptcha ? google : ["'none'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      ...(options.https ? { upgradeInsecureRequests: [] } : {}),
    },
    strictTransportSecurity: options.https ? 'max-age=63072000; includeSubDomains' : false,
    xContentTypeOptions: 'nosniff',
    xFrameOptions: 'DENY',
    referrerPolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin',
    crossOriginResourcePolicy: 'same-origin',
    crossOriginEmbedderPolicy: false,
    originAgentCluster: '?1',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [] },
    xXssProtection: '0',
  });
  return async (c, next) => {
    await headers(c, next);
    if (tokenPages.has(c.req.path)) c.res.headers.set('Referrer-Policy', 'no-referrer');
  };
}
