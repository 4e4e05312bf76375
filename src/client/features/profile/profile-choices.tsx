/** The profile form's lists of checkboxes (subjects, languages), which fold on a phone. */
import { Trans } from '@lingui/react/macro';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { formatLocale } from '../../../shared/format-locale';
import { ChoiceGroup } from '../../components/choice-group';
import { FoldTitle, useFold } from '../../components/fold';
import { useFieldProblem } from '../../components/form';
import { translated } from '../../lib/i18n';

/**
 * A list of checkboxes that folds on a phone: its legend is then the button that opens it, and
 * while folded it says what is ticked. It opens by itself when the form's answer finds fault in it.
 */
export function FoldingChoices({
  legend,
  name,
  chosen,
  children,
}: {
  legend: string;
  name: string;
  chosen: readonly string[];
  children: ReactNode;
}) {
  const fold = useFold();
  const summaryId = useId();
  const [ticked, setTicked] = useState(chosen);
  const faulted = useFieldProblem(name, `${name}-problem`) !== undefined;
  const { unfold } = fold;
  useEffect(() => {
    if (faulted) unfold();
  }, [faulted, unfold]);
  return (
    <div
      ref={fold.ref}
      // What is ticked, in the list's order, for the line a folded list shows.
      onChange={(event) => {
        const boxes = event.currentTarget.querySelectorAll<HTMLInputElement>(`input[name="${name}"]:checked`);
        setTicked([...boxes].map((box) => box.value));
      }}
    >
      <ChoiceGroup
        legend={
          <FoldTitle fold={fold} summaryId={summaryId}>
            {legend}
          </FoldTitle>
        }
        name={name}
      >
        {fold.shut ? (
          <p id={summaryId} className="text-sm text-slate-700">
            {ticked.length > 0 ? (
              new Intl.ListFormat(formatLocale(), { type: 'unit', style: 'short' }).format(
                ticked.map((name) => translated(name)),
              )
            ) : (
              <Trans>None chosen yet</Trans>
            )}
          </p>
        ) : null}
        <div id={fold.bodyId} hidden={fold.shut}>
          {children}
        </div>
      </ChoiceGroup>
    </div>
  );
}

export function Choice({
  name,
  value,
  chosen,
  note,
}: {
  name: string;
  value: string;
  chosen: readonly string[];
  note?: string;
}) {
  return (
    <label className="flex items-center gap-2 py-1 text-sm text-slate-800">
      <input
        type="checkbox"
        name={name}
        value={value}
        defaultChecked={chosen.includes(value)}
        className="size-4 shrink-0 accent-brand-700"
      />
      <span className="min-w-0 break-words">
        {translated(value)}
        {note ? <span className="text-slate-600"> ({note})</span> : null}
      </span>
    </label>
  );
}
