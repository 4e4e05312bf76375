/**
 * A page the API itself renders for people to read and print, such as a receipt: plain HTML with
 * one stylesheet and no script. It is served under /api/, whose policy lets nothing load or run;
 * that policy lets in this stylesheet alone, by its hash (security-headers.ts), so the page is
 * styled without opening the policy to any other inline style.
 */
import { createHash } from 'node:crypto';
import { directionOf, type PageLanguage } from '../../shared/languages';
import { escapeHtml } from '../mail/html';

const STYLE = `body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#0f172a;line-height:1.5}
h1{font-size:1.5rem}table{border-collapse:collapse;width:100%}
th,td{text-align:start;padding:.5rem;border-bottom:1px solid #cbd5e1;vertical-align:top}
th{width:10rem;color:#334155;font-weight:600}td.amount{font-variant-numeric:tabular-nums}
footer{margin-top:2rem;color:#334155}.number{white-space:nowrap}a{color:#1d4ed8}
@media (max-width:30rem){th{width:auto}}
@media print{body{margin:0}a{color:inherit}}`;

/** The CSP source that allows the printable pages' stylesheet and nothing else. */
export const PRINTABLE_STYLE_SOURCE = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** A whole document: `body` is HTML the caller has already escaped. */
export function printablePage(page: { title: string; body: string; language: PageLanguage }): string {
  return `<!doctype html>
<html lang="${page.language}" dir="${directionOf(page.language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style>${STYLE}</style></head>
<body><main>${page.body}</main></body></html>`;
}
