/**
 * The weekly hours: one group per weekday, Monday first, and a way to give Monday's to the
 * workweek. Folded on a phone, it says which days have hours and how many a week.
 */
import { useState } from 'react';
import { clockMinutes } from '../../../shared/lessons/availability';
import { WEEKDAY_NAMES } from '../../../shared/lessons/lesson-constants';
import { Button } from '../../components/button';
import { FoldingSection } from '../../components/fold';
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
      <legend className="mb-1 font-semibold text-slate-900 sm:float-start sm:mb-0 sm:w-32 sm:pt-2">
        {day}
      </legend>
      <div className="sm:ms-32">
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

/** "Mon, Tue, Wed · 24 hours a week": what a folded section says of the week. */
function weekSummary(weekly: WindowDraft[][]): string {
  const days = WEEK_ORDER.filter((weekday) => (weekly[weekday] ?? []).length > 0).map((weekday) =>
    (WEEKDAY_NAMES[weekday] ?? '').slice(0, 3),
  );
  if (days.length === 0) return 'No weekly hours yet: students cannot book a weekday.';
  const minutes = weekly
    .flat()
    .reduce((sum, window) => sum + Math.max(0, clockMinutes(window.end) - clockMinutes(window.start)), 0);
  const hours = Math.round((minutes / 60) * 10) / 10;
  return `${days.join(', ')} · ${hours === 1 ? '1 hour' : `${hours} hours`} a week`;
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
    <FoldingSection
      id="weekly"
      headingId="weekly-heading"
      title="Weekly hours"
      summary={weekSummary(weekly)}
      action={
        monday.length > 0 ? (
          <Button
            variant="secondary"
            onClick={() => {
              change({ type: 'copyMondayToWeekdays' });
              setCopied(true);
            }}
          >
            Copy Monday to Tuesday–Friday
          </Button>
        ) : null
      }
    >
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
    </FoldingSection>
  );
}
