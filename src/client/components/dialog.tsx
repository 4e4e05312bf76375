/**
 * A modal dialog on the browser's own <dialog>: showModal() keeps focus inside it (on its first
 * control when it opens), Escape closes it, and the page behind is inert, so nothing here
 * re-implements a focus trap. `alert` makes it an alertdialog: a question that must be answered
 * before going on, read out with its `description`.
 */
import { type ReactNode, useEffect, useId, useRef } from 'react';

export function Dialog({
  open,
  onClose,
  title,
  description,
  alert = false,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  alert?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      role={alert ? 'alertdialog' : undefined}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={onClose}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-2xl p-0 shadow-xl backdrop:bg-slate-900/50"
    >
      {open ? (
        <div className="p-5 sm:p-6">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          {description ? (
            <p id={descriptionId} className="mt-2 text-sm text-slate-700">
              {description}
            </p>
          ) : null}
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
