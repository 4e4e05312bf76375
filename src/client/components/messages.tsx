import { type ReactNode, useState } from 'react';

/** An error the user must read: announced at once (role="alert"). */
export function ErrorMessage({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
      {children}
    </div>
  );
}

/** A success or a note: announced politely (role="status"). */
export function StatusMessage({
  children,
  tone = 'success',
}: {
  children: ReactNode;
  tone?: 'success' | 'info';
}) {
  const colors =
    tone === 'success'
      ? 'border-emerald-200 bg-emerald-50 text-emerald-900'
      : 'border-sky-200 bg-sky-50 text-sky-900';
  return (
    <div role="status" className={`rounded-lg border px-4 py-3 text-sm ${colors}`}>
      {children}
    </div>
  );
}

/** The newest outcome of a person's actions on a page; `tell` replaces it, even with the same text. */
export function useDoneNotice() {
  const [done, setDone] = useState<{ text: string; id: number } | null>(null);
  const tell = (text: string) => setDone((before) => ({ text, id: (before?.id ?? 0) + 1 }));
  return { done, tell };
}

/**
 * Where useDoneNotice's outcome shows. The region is always in the page and each outcome is a new
 * element in it, so a screen reader hears every one as it is told, a repeated one too.
 */
export function DoneNotice({ done }: { done: { text: string; id: number } | null }) {
  return (
    <div role="status">
      {done ? (
        <p
          key={done.id}
          className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900"
        >
          {done.text}
        </p>
      ) : null}
    </div>
  );
}
