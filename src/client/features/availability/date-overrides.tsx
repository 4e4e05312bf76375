/**
 * Dates with hours of their own: a day off (no windows) or special hours, which replace that
 * date's weekly hours. A date is picked first, then made a day off or given hours. Folded on a
 * phone, it says how many dates to come have their own hours.
 */
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { type KeyboardEvent, useState } from 'react';
import { Button } from '../../components/button';
import { fieldClass } from '../../components/field-class';
import { FoldingSection } from '../../components/fold';
import { FieldProblemLine, useFieldProblem } from '../../components/form';
import { calendarDayLabel } from '../../lib/time-labels';
import {
  type DraftChange,
  newId,
  type OverrideDraft,
  overrideControl,
  windowControl,
} from './availability-draft';
import { WindowList } from './window-list';

const DATE_INPUT_ID = 'override-date';

/** "Friday, December 4, 2026": a local date as words, whatever the zone. */
const dateWords = calendarDayLabel;

function OverrideItem({
  override,
  past,
  change,
  focus,
}: {
  override: OverrideDraft;
  past: boolean;
  change: (change: DraftChange) => void;
  focus: (id: string) => void;
}) {
  const name = overrideControl(override.id);
  const problem = useFieldProblem(name, `${name}-problem`);
  const words = dateWords(override.date);
  const addId = `add-date-window-${override.id}`;
  return (
    <li>
      <fieldset
        id={name}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem?.describedBy}
        className="border-y border-slate-200 pt-1 pb-3 sm:rounded-xl sm:border-x sm:px-4"
      >
        <legend className="px-1 font-semibold text-slate-900">
          {words}
          {past ? (
            <span className="font-normal text-slate-600">
              {' '}
              <Trans>(past)</Trans>
            </span>
          ) : null}
        </legend>
        {override.windows.length === 0 ? (
          <p className="mt-1 text-sm text-slate-700">
            <Trans>Day off: no lessons can be booked on this date.</Trans>
          </p>
        ) : (
          <p className="mt-1 text-sm text-slate-700">
            <Trans>These hours replace the weekly hours of this date.</Trans>
          </p>
        )}
        <div className="mt-2">
          <WindowList
            day={words}
            windows={override.windows}
            addButtonId={addId}
            onAdd={() => {
              const id = newId();
              change({ type: 'addDateWindow', overrideId: override.id, id });
              focus(windowControl(id, 'start'));
            }}
            onChange={(id, part, time) => change({ type: 'changeWindow', id, part, time })}
            onRemove={(id) => {
              change({ type: 'removeWindow', id });
              focus(addId);
            }}
          />
        </div>
        <FieldProblemLine id={`${name}-problem`} problem={problem} />
        <Button
          variant="ghost"
          className="-ms-3 px-3 text-red-700 hover:bg-red-50"
          onClick={() => {
            change({ type: 'removeOverride', id: override.id });
            focus(DATE_INPUT_ID);
          }}
        >
          <span>
            <Trans>
              Remove date<span className="sr-only"> {words}</span>
            </Trans>
          </span>
        </Button>
      </fieldset>
    </li>
  );
}

export function DateOverrides({
  overrides,
  today,
  change,
  focus,
}: {
  overrides: OverrideDraft[];
  /** The tutor's local date today, "YYYY-MM-DD". */
  today: string;
  change: (change: DraftChange) => void;
  focus: (id: string) => void;
}) {
  const { t } = useLingui();
  const [date, setDate] = useState('');
  const [dateProblem, setDateProblem] = useState<string | null>(null);
  const problem = useFieldProblem('overrides', 'overrides-problem');

  const add = (dayOff: boolean) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) {
      setDateProblem(t`Choose a date first.`);
      focus(DATE_INPUT_ID);
      return;
    }
    if (date < today) {
      const first = dateWords(today);
      setDateProblem(t`This date has passed: choose ${first} or a later date.`);
      focus(DATE_INPUT_ID);
      return;
    }
    const existing = overrides.find((override) => override.date === date);
    if (existing) {
      const listed = dateWords(date);
      setDateProblem(t`${listed} is already in the list below: change its hours there.`);
      focus(DATE_INPUT_ID);
      return;
    }
    const id = newId();
    const windowId = newId();
    change({ type: 'addOverride', id, date, dayOff, windowId });
    setDate('');
    setDateProblem(null);
    focus(dayOff ? `add-date-window-${id}` : windowControl(windowId, 'start'));
  };

  // Enter in the date field would save the whole form: it only picks the date.
  const keepEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') event.preventDefault();
  };

  // Folded on a phone, the section says how many dates have their own hours.
  const coming = overrides.filter((override) => override.date >= today);
  const daysOff = coming.filter((override) => override.windows.length === 0).length;
  const dates = coming.length;
  const datesText = t`${plural(dates, { one: '# date with their own hours', other: '# dates with their own hours' })}`;
  const daysOffText = t`${plural(daysOff, { one: '# day off', other: '# days off' })}`;
  const summary = dates === 0 ? t`No days off or special hours to come.` : `${datesText} (${daysOffText})`;

  return (
    <FoldingSection
      id="overrides"
      headingId="overrides-heading"
      title={t`Days off and special hours`}
      summary={summary}
    >
      <p className="mt-1 text-sm text-slate-700">
        <Trans>
          Give a date its own hours, or none for a day off. They replace that date's weekly hours.
        </Trans>
      </p>
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <div className="w-full sm:w-auto">
          <label htmlFor={DATE_INPUT_ID} className="block text-sm font-medium text-slate-800">
            <Trans>Date</Trans>
          </label>
          <input
            id={DATE_INPUT_ID}
            type="date"
            min={today}
            value={date}
            onChange={(event) => {
              setDate(event.target.value);
              setDateProblem(null);
            }}
            onKeyDown={keepEnter}
            aria-invalid={dateProblem ? true : undefined}
            aria-describedby={dateProblem ? `${DATE_INPUT_ID}-problem` : undefined}
            className={`${fieldClass} sm:w-48`}
          />
        </div>
        {/* Right under the date on a phone, where the buttons come after it; under the row above. */}
        {dateProblem ? (
          <p
            id={`${DATE_INPUT_ID}-problem`}
            role="alert"
            className="w-full text-sm font-medium text-red-700 sm:order-last"
          >
            {dateProblem}
          </p>
        ) : null}
        <Button variant="secondary" onClick={() => add(true)}>
          <Trans>Add day off</Trans>
        </Button>
        <Button variant="secondary" onClick={() => add(false)}>
          <Trans>Add special hours</Trans>
        </Button>
      </div>
      <FieldProblemLine id="overrides-problem" problem={problem} className="mt-2" />
      {overrides.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">
          <Trans>No dates yet: every date follows the weekly hours.</Trans>
        </p>
      ) : (
        <ul className="mt-4 space-y-3">
          {overrides.map((override) => (
            <OverrideItem
              key={override.id}
              override={override}
              past={override.date < today}
              change={change}
              focus={focus}
            />
          ))}
        </ul>
      )}
    </FoldingSection>
  );
}
