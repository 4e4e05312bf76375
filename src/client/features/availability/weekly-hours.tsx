/** The weekly hours: one group per weekday, Monday first, and a way to give Monday's to the workweek. */
import { useState } from 'react';
import { WEEKDAY_NAMES } from '../../../shared/lessons/lesson-constants';
import { Button } from '../../components/button';
import { FieldProblemLine, useFieldProblem } from '../../components/form';
import {
  type DraftChange,
  dayControl,
  newId,
  WEEK_ORDER,
  type WindowDraft,
  windowControl,
} from './availability-draft';
import { WindowList } from './window-list';

const sameTimes = (a: WindowDraft[], b: WindowDraft[]) =>
  a.length === b.length && a.every((window, i) => window.start === b[i]?.start && window.end === b[i]?.end);

export const addWindowButtonId = (weekday: number) => `add-window-${weekday}`;

function DayHours({
  weekday,
  windows,
  change,
  focus,
}: {
  weekday: number;
  windows: WindowDraft[];
  change: (change: DraftChange) => void;
  focus: (id: string) => void;
}) {
  const name = dayControl(weekday);
  const problem = useFieldProblem(name, `${name}-problem`);
  const day = WEEKDAY_NAMES[weekday] ?? '';
  return (
    <fieldset
      id={name}
      aria-invalid={problem ? true : undefined}
      aria-describedby={problem?.describedBy}
      className="flow-root py-4"
    >
      <legend className="mb-1 font-semibold text-slate-900 sm:float-left sm:mb-0 sm:w-32 sm:pt-2">
        {day}
      </legend>
      <div className="sm:ml-32">
        {windows.length === 0 ? <p className="pb-1 text-sm text-slate-600 sm:pt-2.5">Unavailable</p> : null}
        <WindowList
          day={day}
          windows={windows}
          addButtonId={addWindowButtonId(weekday)}
          onAdd={() => {
            const id = newId();
            change({ type: 'addWindow', weekday, id });
            focus(windowControl(id, 'start'));
          }}
          onChange={(id, part, time) => change({ type: 'changeWindow', id, part, time })}
          onRemove={(id) => {
            change({ type: 'removeWindow', id });
            focus(addWindowButtonId(weekday));
          }}
        />
        <FieldProblemLine id={`${name}-problem`} problem={problem} />
      </div>
    </fieldset>
  );
}

export function WeeklyHours({
  weekly,
  change,
  focus,
}: {
  weekly: WindowDraft[][];
  change: (change: DraftChange) => void;
  focus: (id: string) => void;
}) {
  const [copied, setCopied] = useState(false);
  const problem = useFieldProblem('weekly', 'weekly-problem');
  const monday = weekly[1] ?? [];
  // The note stands while the workweek still has Monday's hours.
  const copiedNow = copied && [2, 3, 4, 5].every((weekday) => sameTimes(weekly[weekday] ?? [], monday));
  return (
    <section
      id="weekly"
      aria-labelledby="weekly-heading"
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="weekly-heading" className="text-lg font-semibold text-slate-900">
          Weekly hours
        </h2>
        {monday.length > 0 ? (
          <Button
            variant="secondary"
            onClick={() => {
              change({ type: 'copyMondayToWeekdays' });
              setCopied(true);
            }}
          >
            Copy Monday to Tuesday–Friday
          </Button>
        ) : null}
      </div>
      <p className="mt-1 text-sm text-slate-700">
        Students can book inside these windows every week. A window that ends at 24:00 runs until midnight.
      </p>
      <p role="status" className="text-sm font-medium text-emerald-800">
        {copiedNow ? "Monday's hours were copied to Tuesday, Wednesday, Thursday and Friday." : ''}
      </p>
      <FieldProblemLine id="weekly-problem" problem={problem} className="mt-2" />
      <div className="mt-2 divide-y divide-slate-200">
        {WEEK_ORDER.map((weekday) => (
          <DayHours
            key={weekday}
            weekday={weekday}
            windows={weekly[weekday] ?? []}
            change={change}
            focus={focus}
          />
        ))}
      </div>
    </section>
  );
}
