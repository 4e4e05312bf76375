/**
 * Parts of a long page that fold on a phone, where every section open makes a page thousands of
 * pixels tall. Below Tailwind's `sm` width (640 px) a section starts folded: its title is a button
 * (aria-expanded, controlling what it shows) with a line saying what is inside; wider, the title
 * is plain text and the section always open. A folded section opens by itself when something in
 * it must be seen or take the focus (`unfoldAround`: a refused field, "Go to the problem").
 */
import { type ComponentProps, type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useMediaQuery } from '../lib/media-query';

const UNFOLD = 'tl-unfold';

/** Whether sections fold at this width: below Tailwind's `sm`. */
export const useFoldingWidth = () => useMediaQuery('(max-width: 639.98px)');

export interface Fold {
  /** Folded now: its body is hidden. */
  shut: boolean;
  /** Sections fold at this width (a title is a button). */
  folds: boolean;
  toggle(): void;
  /** Opens it (a problem found inside must be seen). */
  unfold(): void;
  bodyId: string;
  /** For the element that holds the fold (where `unfoldAround` finds it). */
  ref: (node: HTMLElement | null) => void;
}

/** One fold's state: shut on a phone until opened. */
export function useFold(): Fold {
  const folds = useFoldingWidth();
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const element = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const holder = element.current;
    if (!holder) return;
    const unfold = (event: Event) => {
      // Opened at once when the caller is about to move the focus inside.
      if ((event as CustomEvent<{ now?: boolean }>).detail?.now) flushSync(() => setOpen(true));
      else setOpen(true);
    };
    holder.addEventListener(UNFOLD, unfold);
    return () => holder.removeEventListener(UNFOLD, unfold);
  }, []);
  const ref = useCallback((node: HTMLElement | null) => {
    element.current = node;
    node?.setAttribute('data-fold', '');
  }, []);
  return {
    shut: folds && !open,
    folds,
    toggle: () => setOpen((was) => !was),
    unfold: () => setOpen(true),
    bodyId,
    ref,
  };
}

/**
 * Opens every folded section holding `element`. With `now`, before this returns (the caller moves
 * the focus next); else with the next render. Call it from an event handler, not while rendering.
 */
export function unfoldAround(element: Element | null | undefined, options: { now?: boolean } = {}) {
  let holder = element?.closest('[data-fold]') ?? null;
  while (holder) {
    holder.dispatchEvent(new CustomEvent(UNFOLD, { detail: options }));
    holder = holder.parentElement?.closest('[data-fold]') ?? null;
  }
}

/** The title of a fold: a disclosure button where sections fold, else the title as it is. */
export function FoldTitle({
  fold,
  children,
  summaryId,
}: {
  fold: Fold;
  children: ReactNode;
  /** The line that says what is inside, read after the title's name. */
  summaryId?: string | undefined;
}) {
  if (!fold.folds) return <>{children}</>;
  return (
    <button
      type="button"
      aria-expanded={!fold.shut}
      aria-controls={fold.bodyId}
      aria-describedby={fold.shut ? summaryId : undefined}
      onClick={fold.toggle}
      className="-my-2 flex min-h-11 w-full items-center justify-between gap-3 text-start"
    >
      <span>{children}</span>
      <svg
        viewBox="0 0 20 20"
        aria-hidden="true"
        className={`size-5 shrink-0 text-slate-600 transition-transform motion-reduce:transition-none ${fold.shut ? '' : 'rotate-180'}`}
        fill="currentColor"
      >
        <path d="M5.2 7.2a.75.75 0 0 1 1.06 0L10 10.94l3.74-3.74a.75.75 0 1 1 1.06 1.06l-4.27 4.27a.75.75 0 0 1-1.06 0L5.2 8.26a.75.75 0 0 1 0-1.06z" />
      </svg>
    </button>
  );
}

/**
 * A card section of a page (a region named by its heading) that folds on a phone. `summary` says
 * what is inside while it is folded; `action` stands beside the title while it is open.
 */
export function FoldingSection({
  headingId,
  title,
  summary,
  action,
  className = '',
  bodyClassName,
  children,
  ...props
}: Omit<ComponentProps<'section'>, 'title'> & {
  headingId: string;
  title: ReactNode;
  summary?: ReactNode;
  action?: ReactNode;
  bodyClassName?: string;
}) {
  const fold = useFold();
  const summaryId = `${headingId}-summary`;
  return (
    <section
      {...props}
      ref={fold.ref}
      aria-labelledby={headingId}
      className={`rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 ${className}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="min-w-0 flex-1 text-lg font-semibold text-slate-900">
          <FoldTitle fold={fold} summaryId={summary ? summaryId : undefined}>
            {title}
          </FoldTitle>
        </h2>
        {fold.shut ? null : action}
      </div>
      {fold.shut && summary ? (
        <p id={summaryId} className="mt-1 text-sm text-slate-700">
          {summary}
        </p>
      ) : null}
      <div id={fold.bodyId} hidden={fold.shut} className={bodyClassName}>
        {children}
      </div>
    </section>
  );
}
