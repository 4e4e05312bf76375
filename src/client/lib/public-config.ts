/**
 * The server's public settings: the captcha in use, support's details, the home page's figures and
 * the subject catalogue. Every page carries them; an admin who changes them here reloads them, so
 * the pages this tab draws next show the change.
 */
import type { InferResponseType } from 'hono/client';
import { useEffect, useState } from 'react';
import { api, request } from './api';
import { readPageData, replacePageData } from './page-data';

export type PublicConfig = InferResponseType<typeof api.config.$get, 200>;

let cached: Promise<PublicConfig> | undefined;

/** The server's public settings as this tab knows them without asking: the page's, or reloaded since. */
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

/** Asks the server again (after this tab changed the site settings); the answer replaces the page's. */
export async function reloadPublicConfig(): Promise<PublicConfig> {
  const config = await request(api.config.$get());
  replacePageData('tl-config', config);
  cached = undefined;
  return config;
}

/** The public settings for a component: the page's at once, else once GET /api/config answers. */
export function usePublicConfig(): PublicConfig | undefined {
  const [config, setConfig] = useState(publicConfigInPage);
  useEffect(() => {
    if (config) return;
    let current = true;
    getPublicConfig().then(
      (answer) => current && setConfig(answer),
      () => {},
    );
    return () => {
      current = false;
    };
  }, [config]);
  return config;
}
