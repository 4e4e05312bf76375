/** A catalogue, compiled by the Lingui plugin when a page imports it (src/client/lib/i18n.ts). */
declare module '*.po' {
  import type { Messages } from '@lingui/core';
  export const messages: Messages;
}
