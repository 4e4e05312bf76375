/**
 * Security headers on every response, set here and nowhere else: a Content-Security-Policy that
 * allows no inline script, no plugins, no <base> and no framing; nosniff; a strict referrer policy
 * (none at all on the pages whose URL carries a token); HSTS when the site is served over https.
 */
import type { MiddlewareHandler } from 'hono';
import { paths } from '../../shared/routes';
import type { AppEnv } from './app-env';
import { PRINTABLE_STYLE_SOURCE } from './printable-page';

/** Pages whose URL carries a secret token: the token must never leave in a Referer header. */
const tokenPages = new Set<string>([paths.resetPassword, paths.verifyEmail]);

/** The browser app routes /reset-password/ and /Reset-Password like /reset-password: so must we. */
const isTokenPage = (path: string) => tokenPages.has(path.replace(/\/+$/, '').toLowerCase());

/**
 * What a response is decides its headers: a document (a page, or a file the browser may render)
 * gets the page policy; an API answer is data that nothing may render or load from, so it gets
 * OWASP's policy for APIs, `default-src 'none'`, and none of the headers that only mean something
 * to a document (framing, opener, agent cluster, permissions). Fewer bytes on the busiest answers
 * (the health check, the session check) too. An HTML page the API renders for printing (a
 * receipt: printable-page.ts) is that same policy with its one stylesheet let in.
 */
export type ResponseKind = 'document' | 'api' | 'printable';

const HSTS: [string, string] = ['Strict-Transport-Security', 'max-age=63072000; includeSubDomains'];

export function securityHeaderList(
  options: { https: boolean; recaptcha: boolean },
  kind: ResponseKind = 'document',
): [string, string][] {
  if (kind === 'api' || kind === 'printable') {
    // A page the API renders (printable-page.ts) may use its own stylesheet, and nothing more.
    const style = kind === 'printable' ? `; style-src ${PRINTABLE_STYLE_SOURCE}` : '';
    return [
      [
        'Content-Security-Policy',
        `default-src 'none'${style}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
      ],
      ['X-Content-Type-Options', 'nosniff'],
      ['Referrer-Policy', 'same-origin'],
      ['Cross-Origin-Resource-Policy', 'same-origin'],
      ...(options.https ? [HSTS] : []),
    ];
  }
  const google = options.recaptcha
    ? ' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/'
    : '';
  const csp = [
    "default-src 'self'",
    `script-src 'self'${google}`,
    // Inline style attributes (progress bars, the captcha widget) are harmless; inline scripts are not.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${google}`,
    "worker-src 'self' blob:",
    `frame-src ${options.recaptcha ? google.trim() : "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
  return [
    ['Content-Security-Policy', csp],
    ['X-Content-Type-Options', 'nosniff'],
    ['X-Frame-Options', 'DENY'],
    ['Referrer-Policy', 'same-origin'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ['Origin-Agent-Cluster', '?1'],
    // The lesson room uses the camera, the microphone and screen sharing; the app is one page, so
    // every document of this site may ask for them (the browser still asks the person), and no
    // frame of any other site may.
    [
      'Permissions-Policy',
      'camera=(self), microphone=(self), display-capture=(self), geolocation=(), payment=()',
    ],
    ...(options.https ? [HSTS] : []),
  ];
}

export function securityHeaders(options: { https: boolean; recaptcha: boolean }): MiddlewareHandler<AppEnv> {
  const lists = {
    document: securityHeaderList(options),
    api: securityHeaderList(options, 'api'),
    printable: securityHeaderList(options, 'printable'),
  };
  return async (c, next) => {
    await next();
    const list = !c.req.path.startsWith('/api/')
      ? lists.document
      : c.res.headers.get('Content-Type')?.startsWith('text/html')
        ? lists.printable
        : lists.api;
    for (const [name, value] of list) c.res.headers.set(name, value);
    if (isTokenPage(c.req.path)) c.res.headers.set('Referrer-Policy', 'no-referrer');
  };
}
