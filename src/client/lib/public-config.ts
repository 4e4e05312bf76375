/** The server's public settings (the captcha in use, support's email and phone). */
import type { InferResponseType } from 'hono/client';
import { api, request } from './api';
import { readPageData } from './page-data';

export type PublicConfig = InferResponseType<typeof api.config.$get>;

let cached: Promise<PublicConfig> | undefined;

/** The server's public settings as the page carries them, so the first render can use them. */
export function publicConfigInPage(): PublicConfig | undefined {
  return readPageData<PublicConfig>('tl-config');
}

/** The server's public settings: the page's, else GET /api/config, fetched once per tab. */
export function getPublicConfig(): Promise<PublicConfig> {
  const inPage = publicConfigInPage();
  if (inPage) return Promise.resolve(inPage);
  cached ??= request(api.config.$get()).catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}
