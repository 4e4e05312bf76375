import { type ReactNode, useId } from 'react';

/** A titled section of a page; its heading names the region for screen readers. */
export function CardSection({
  title,
  children,
  className = '',
  action,
}: {
  title: string;
  children: ReactNode;
  className?: string;
  action?: ReactNode;
}) {
  // Not made of the title: a translated title has no Latin letters to make an id of.
  const id = `section-${useId()}`;
  return (
    <section
      aria-labelledby={id}
      className={`rounded-2xl border border-slate-200 bg-white p-6 shadow-sm ${className}`}
    >
      <div className="mb-4 flex items-center justify-between gap-4">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}
