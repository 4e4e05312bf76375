/**
 * The JSON data blocks the server puts in every page (src/server/http/static-site.ts): what the
 * app would otherwise fetch before it can draw the page.
 */

/** The block with this id, parsed; undefined when the page has none or it does not parse. */
export function readPageData<T>(id: string): T | undefined {
  const element = typeof document === 'undefined' ? null : document.getElementById(id);
  if (!element?.textContent) return undefined;
  try {
    return JSON.parse(element.textContent) as T;
  } catch {
    return undefined;
  }
}
