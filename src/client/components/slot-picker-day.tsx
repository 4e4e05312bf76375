/**
 * One day of the slot picker (./slot-picker.tsx): the day's free times as toggle buttons in rows
 * that follow the width, the arrow keys walking them as laid out, and the confirmation of the
 * chosen time right under its row.
 */
import { plural } from '@lingui/core/macro';
import { type KeyboardEvent, type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { startOfLocalDay } from '../../shared/lessons/lesson-times';
import { clockLabel, lessonTimeLabel, shortDayLabel } from '../lib/time-labels';

export interface Slot {
  start: string;
  end: string;
}

export const countLabel = (count: number) =>
  plural(count, { 0: 'no free times', one: '# free time', other: '# free times' });

/**
 * One day's times in rows, and under the row of the chosen time what to do with it. The row's
 * length follows the width (the grid fills it), so the confirmation is placed after the last time
 * of the chosen time's row as the browser lays it out.
 */
export function DayTimes({
  day,
  slots,
  timeZone,
  selected,
  onSelect,
  children,
}: {
  day: string;
  slots: Slot[];
  timeZone: string;
  selected: string | null;
  onSelect: (slot: Slot | null) => void;
  children: ((slot: Slot) => ReactNode) | undefined;
}) {
  const grid = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const summary = useRef<HTMLParagraphElement>(null);
  // Set when a person chooses a time: the confirmation then takes the focus and comes into view.
  const reveal = useRef(false);
  const [columns, setColumns] = useState(4);

  useLayoutEffect(() => {
    const element = grid.current;
    if (!element) return;
    const measure = () => {
      const count = getComputedStyle(element).gridTemplateColumns.split(' ').filter(Boolean).length;
      if (count > 0) setColumns(count);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const chosenIndex = slots.findIndex((slot) => slot.start === selected);
  const chosen = chosenIndex >= 0 ? slots[chosenIndex] : undefined;
  // The confirmation follows the last time of the chosen time's row.
  const after =
    chosenIndex >= 0 ? Math.min(slots.length, (Math.floor(chosenIndex / columns) + 1) * columns) - 1 : -1;
  const column = chosenIndex >= 0 ? chosenIndex % columns : 0;

  useEffect(() => {
    if (!chosen || !reveal.current) return;
    reveal.current = false;
    summary.current?.focus({ preventScroll: true });
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    panel.current?.scrollIntoView({ block: 'nearest', behavior: still ? 'auto' : 'smooth' });
  }, [chosen]);

  const at = startOfLocalDay(day, timeZone);
  const confirmation =
    chosen && children ? (
      <div
        ref={panel}
        className="relative col-span-full mt-1 scroll-mt-24 scroll-mb-4 rounded-xl border border-brand-600 bg-brand-50 p-4"
      >
        {/* A notch pointing up at the chosen time's column. */}
        <span
          aria-hidden="true"
          className="absolute -top-[7px] size-3 rotate-45 border-t border-s border-brand-600 bg-brand-50"
          style={{ insetInlineStart: `calc(${((column + 0.5) / columns) * 100}% - 6px)` }}
        />
        <p ref={summary} tabIndex={-1} className="font-semibold text-slate-900">
          {lessonTimeLabel(Date.parse(chosen.start), Date.parse(chosen.end), timeZone)}
        </p>
        {children(chosen)}
      </div>
    ) : null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Arrow keys walk the times as they are laid out (right to left in a right-to-left page); Tab
    // still reaches every one.
    const forward = document.documentElement.dir === 'rtl' ? -1 : 1;
    const steps: Record<string, number> = {
      ArrowLeft: -forward,
      ArrowRight: forward,
      ArrowUp: -columns,
      ArrowDown: columns,
    };
    const step = steps[event.key];
    const target = event.target as HTMLElement;
    if (step === undefined || !target.dataset.slotIndex) return;
    const next = Number(target.dataset.slotIndex) + step;
    const button = grid.current?.querySelector<HTMLButtonElement>(`[data-slot-index="${next}"]`);
    if (!button) return;
    event.preventDefault();
    button.focus();
  };

  return (
    <fieldset>
      <legend className="text-sm font-semibold text-slate-900">
        {shortDayLabel(at, timeZone)}
        <span className="font-normal text-slate-600"> · {countLabel(slots.length)}</span>
      </legend>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the arrow keys are a shortcut over buttons that take the focus themselves */}
      <div
        ref={grid}
        onKeyDown={onKeyDown}
        className="mt-2 grid grid-cols-[repeat(auto-fill,minmax(3.25rem,1fr))] gap-1.5"
      >
        {slots.map((slot, index) => {
          const pressed = selected === slot.start;
          return (
            <FragmentWithPanel key={slot.start} panel={index === after ? confirmation : null}>
              <button
                type="button"
                aria-pressed={pressed}
                data-slot-index={index}
                onClick={() => {
                  reveal.current = !pressed;
                  onSelect(pressed ? null : slot);
                }}
                className={`rounded-lg border px-1 py-2 font-mono text-sm font-semibold transition-colors ${
                  pressed
                    ? 'border-brand-700 bg-brand-700 text-white'
                    : 'border-slate-300 bg-white text-slate-800 hover:border-brand-600 hover:bg-brand-50'
                }`}
              >
                {clockLabel(Date.parse(slot.start), timeZone)}
              </button>
            </FragmentWithPanel>
          );
        })}
      </div>
    </fieldset>
  );
}

function FragmentWithPanel({ children, panel }: { children: ReactNode; panel: ReactNode }) {
  return (
    <>
      {children}
      {panel}
    </>
  );
}
