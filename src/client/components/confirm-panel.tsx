/**
 * A question asked in place before something that cannot be undone (cancelling a lesson, the rest
 * of a series): a group named by its question, which takes the focus when it opens so a screen
 * reader reads it out; Escape, like the "keep" button, closes it (the caller gives the focus back
 * to the button that opened it). What the question says and the buttons are the caller's.
 */
import { type KeyboardEvent, type ReactNode, useEffect, useRef } from 'react';

export function ConfirmPanel({
  question,
  onKeep,
  children,
}: {
  question: string;
  /** Closes the panel without doing anything: Escape calls it too. */
  onKeep: () => void;
  children: ReactNode;
}) {
  const legend = useRef<HTMLLegendElement>(null);
  useEffect(() => legend.current?.focus(), []);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onKeep();
    }
  };
  return (
    <fieldset onKeyDown={onKeyDown} className="space-y-3 rounded-xl border border-red-200 bg-red-50/50 p-4">
      <legend
        ref={legend}
        tabIndex={-1}
        className="float-start w-full font-semibold text-slate-900 focus:outline-none"
      >
        {question}
      </legend>
      {children}
    </fieldset>
  );
}
