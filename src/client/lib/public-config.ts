import { api } from './api-client';
import { readPageData } from './page-data';

export interface PublicConfig {
  captcha: { kind: 'altcha' } | { kind: 'recaptcha'; siteKey: string };
  support: { email: string; phone: string };
}

let cached: Promise<PublicConfig> | undefined;

/** The server's public settings as the page carries them, so the first render can use them. */
export function publicConfigInPage(): PublicConfig | undefined {
  return readPageData<PublicConfig>('tl-config');
}

/** The server's public settings: the page's, else GET /api/config, fetched once per tab. */
export function getPublicConfig(): Promise<PublicConfig> {
  const inPage = publicConfigInPage();
  if (inPage) return Promise.resolve(inPage);
  cached ??= api<PublicConfig>('/api/config').catch((error) => {
    cached = undefined;
    throw error;
  });
  return cached;
}
