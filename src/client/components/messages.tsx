import type { ReactNode } from 'react';

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
