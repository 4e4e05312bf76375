/**
 * Temporal in the browser: the browser's own where it has one (Chromium and Firefox do), else the
 * polyfill's, which the router installs before any page's code runs (`temporalReady`). The build
 * points `temporal-polyfill` here (vite.config.ts), so the code in src/shared imports Temporal as
 * the server does, and a page whose browser has Temporal does not load the polyfill's 18 kB gzip.
 */
type TemporalApi = typeof import('temporal-polyfill').Temporal;

export const Temporal = (globalThis as { Temporal?: TemporalApi }).Temporal as TemporalApi;
