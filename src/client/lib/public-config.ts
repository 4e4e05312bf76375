import { api } from './api-client';

export interface PublicConfig {
  captcha: { kind: 'altcha' } | { kind: 'recaptcha'; siteKey: string };
  support: { email: string; phone: string };
}

let cached: Promise<PublicConfig> | undefined;

/** The server's public settings (GET /api/config), fetched once per tab. */
export function getPublicConfig(): Promise<PublicConfig> {
  cached ??= api<PublicConfig>('/api/config').catch((error) => {
    cached = undefined;
    throw error;
  });
  return cached;
}
