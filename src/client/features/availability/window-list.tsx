/**
 * One day's windows, a weekday's or a date's: each a start and an end select with a Remove
 * button, then Add window. Every control's name says which day and which window it is, and a
 * problem the server found with a window is shown under it.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '../../components/button';
import { FieldProblemLine, useFieldProblem } from '../../components/form';
import { type WindowDraft, windowControl } from './availability-draft';
import { END_TIMES, START_TIMES, timeChoices } from './window-times';

const selectClass =
  'rounded-lg border border-slate-300 bg-white py-2 pe-2 ps-2.5 text-base text-slate-900 tabular-nums shadow-sm focus:border-brand-600 aria-invalid:border-red-600';

function TimeSelect({
  name,
  part,
  place,
  value,
  times,
  problemId,
  onChange,
}: {
  name: string;
  part: 'start' | 'end';
  place: string;
  value: string;
  times: readonly string[];
  problemId: string | undefined;
  onChange: (time: string) => void;
}) {
  const { t } = useLingui();
  return (
    <div className="flex items-center gap-2">
      {/* On a phone the row reads "09:00 To 12:00": there is no room for a visible "From". */}
      <label htmlFor={name} className={`text-sm text-slate-700 ${part === 'start' ? 'max-sm:sr-only' : ''}`}>
        {part === 'start' ? t`From` : t`To`}
        <span className="sr-only"> ({place})</span>
      </label>
      <select
        id={name}
        name={name}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={problemId ? true : undefined}
        aria-describedby={problemId}
        className={selectClass}
      >
        {timeChoices(times, value).map((time) => (
          <option key={time} value={time}>
            {time}
          </option>
        ))}
      </select>
    </div>
  );
}

function WindowRow({
  window,
  place,
  onChange,
  onRemove,
}: {
  window: WindowDraft;
  /** "Monday, window 1". */
  place: string;
  onChange: (part: 'start' | 'end', time: string) => void;
  onRemove: () => void;
}) {
  const startName = windowControl(window.id, 'start');
  const endName = windowControl(window.id, 'end');
  const startProblem = useFieldProblem(startName, `${startName}-problem`);
  const endProblem = useFieldProblem(endName, `${endName}-problem`);
  return (
    <li>
      <div className="flex flex-wrap items-center gap-x-2 gap-y-2 sm:gap-x-4">
        <TimeSelect
          name={startName}
          part="start"
          place={place}
          value={window.start}
          times={START_TIMES}
          problemId={startProblem?.describedBy}
          onChange={(time) => onChange('start', time)}
        />
        <TimeSelect
          name={endName}
          part="end"
          place={place}
          value={window.end}
          times={END_TIMES}
          problemId={endProblem?.describedBy}
          onChange={(time) => onChange('end', time)}
        />
        <Button variant="ghost" className="px-2 sm:px-3" onClick={onRemove}>
          {/* One span: the button spaces its children apart, and the hidden words would take room. */}
          <span>
            <Trans>
              Remove<span className="sr-only"> {place}</span>
            </Trans>
          </span>
        </Button>
      </div>
      <FieldProblemLine id={`${startName}-problem`} problem={startProblem} />
      <FieldProblemLine id={`${endName}-problem`} problem={endProblem} />
    </li>
  );
}

export function WindowList({
  day,
  windows,
  addButtonId,
  onAdd,
  onChange,
  onRemove,
}: {
  /** The day as the controls' names say it: "Monday", "Fri, Dec 4". */
  day: string;
  windows: WindowDraft[];
  addButtonId: string;
  onAdd: () => void;
  onChange: (id: string, part: 'start' | 'end', time: string) => void;
  onRemove: (id: string) => void;
}) {
  const { t } = useLingui();
  return (
    <div className="space-y-2">
      {windows.length > 0 ? (
        <ul className="space-y-3">
          {windows.map((window, i) => {
            const number = i + 1;
            return (
              <WindowRow
                key={window.id}
                window={window}
                place={t`${day}, window ${number}`}
                onChange={(part, time) => onChange(window.id, part, time)}
                onRemove={() => onRemove(window.id)}
              />
            );
          })}
        </ul>
      ) : null}
      <Button id={addButtonId} variant="ghost" className="-ms-3 px-3" onClick={onAdd}>
        <span>
          <span aria-hidden="true">+ </span>
          <Trans>
            Add window<span className="sr-only"> to {day}</span>
          </Trans>
        </span>
      </Button>
    </div>
  );
}
