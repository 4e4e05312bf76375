/**
 * A catalogue, compiled by the Lingui plugin when a page imports it (src/client/lib/i18n.ts): in a
 * build, the app shell's texts, and each page's own texts to load with the page (vite.config.ts).
 */
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
  export const pages: Record<string, () => Promise<{ messages: Messages }>> | undefined;
}
