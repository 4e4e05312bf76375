/**
 * The weekly hours: one group per weekday, Monday first, and a way to give Monday's to the
 * workweek. Folded on a phone, it says which days have hours and how many a week.
 */
import type { I18n } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { formatLocale } from '../../../shared/format-locale';
import { clockMinutes } from '../../../shared/lessons/availability';
import { Button } from '../../components/button';
import { FoldingSection } from '../../components/fold';
import { FieldProblemLine, useFieldProblem } from '../../components/form';
import {
  type DraftChange,
  dayControl,
  newId,
  WEEK_ORDER,
  type WindowDraft,
  weekdayName,
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
  const day = weekdayName(weekday);
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
        {windows.length === 0 ? (
          <p className="pb-1 text-sm text-slate-600 sm:pt-2.5">
            <Trans>Unavailable</Trans>
          </p>
        ) : null}
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
function weekSummary(weekly: WindowDraft[][], i18n: I18n): string {
  const days = WEEK_ORDER.filter((weekday) => (weekly[weekday] ?? []).length > 0).map((weekday) =>
    weekdayName(weekday, 'short'),
  );
  if (days.length === 0) return i18n._(msg`No weekly hours yet: students cannot book a weekday.`);
  const minutes = weekly
    .flat()
    .reduce((sum, window) => sum + Math.max(0, clockMinutes(window.end) - clockMinutes(window.start)), 0);
  const hours = Math.round((minutes / 60) * 10) / 10;
  const dayList = new Intl.ListFormat(formatLocale(), { type: 'unit', style: 'short' }).format(days);
  const perWeek = i18n._(msg`${plural(hours, { one: '# hour a week', other: '# hours a week' })}`);
  return `${dayList} · ${perWeek}`;
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
  const { t, i18n } = useLingui();
  const [copied, setCopied] = useState(false);
  const problem = useFieldProblem('weekly', 'weekly-problem');
  const monday = weekly[1] ?? [];
  // The note stands while the workweek still has Monday's hours.
  const copiedNow = copied && [2, 3, 4, 5].every((weekday) => sameTimes(weekly[weekday] ?? [], monday));
  return (
    <FoldingSection
      id="weekly"
      headingId="weekly-heading"
      title={t`Weekly hours`}
      summary={weekSummary(weekly, i18n)}
      action={
        monday.length > 0 ? (
          <Button
            variant="secondary"
            onClick={() => {
              change({ type: 'copyMondayToWeekdays' });
              setCopied(true);
            }}
          >
            <Trans>Copy Monday to Tuesday–Friday</Trans>
          </Button>
        ) : null
      }
    >
      <p className="mt-1 text-sm text-slate-700">
        <Trans>
          Students can book inside these windows every week. A window that ends at 24:00 runs until midnight.
        </Trans>
      </p>
      <p role="status" className="text-sm font-medium text-emerald-800">
        {copiedNow ? t`Monday's hours were copied to Tuesday, Wednesday, Thursday and Friday.` : ''}
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
