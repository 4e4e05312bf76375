/**
 * The JSON data blocks the server puts in every page (src/server/http/static-site.ts): what the
 * app would otherwise fetch before it can draw the page.
 */

/** Blocks read again from the server since the page came (the site settings an admin changed here). */
const replaced = new Map<string, unknown>();

/** From now on, this tab reads `value` for the block `id`. */
export function replacePageData(id: string, value: unknown): void {
  replaced.set(id, value);
}

/** The block with this id, parsed; undefined when the page has none or it does not parse. */
export function readPageData<T>(id: string): T | undefined {
  if (replaced.has(id)) return replaced.get(id) as T;
  const element = typeof document === 'undefined' ? null : document.getElementById(id);
  if (!element?.textContent) return undefined;
  try {
    return JSON.parse(element.textContent) as T;
  } catch {
    return undefined;
  }
}
