/**
 * Whether a CSS media query matches, following the window as it is resized or turned: for what a
 * page draws differently by width in its markup, not only in its styles (one element rather than
 * two with one hidden, a title that is a button only where sections fold).
 */
import { useSyncExternalStore } from 'react';

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}
