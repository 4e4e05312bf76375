/**
 * The schedule page's status line, where each change made on the page is told.
 */
import { useEffect, useRef } from 'react';

/** What the last change on this page was: one at a time, each replacing the one before. */
export interface Notice {
  text: string;
  /** Counts the changes, so the same words twice are told twice. */
  id: number;
}

/**
 * The page's one status line: a change is told here rather than beside its lesson, which may
 * have left the list (a cancelled lesson) or moved in it. The region stays in the page so that
 * screen readers announce each new text; when the button that was used has gone, the focus
 * comes here rather than being lost.
 */
export function ChangeNotice({ notice }: { notice: Notice | null }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!notice) return;
    const focused = document.activeElement;
    if (!focused || focused === document.body || !focused.isConnected) box.current?.focus();
  }, [notice]);
  return (
    // Out of the flow while empty, so the cards below keep their place; never hidden, so a
    // screen reader hears what arrives in it.
    <div role="status" className={notice ? undefined : 'absolute'}>
      {notice ? (
        <div
          key={notice.id}
          ref={box}
          tabIndex={-1}
          className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600"
        >
          {notice.text}
        </div>
      ) : null}
    </div>
  );
}
