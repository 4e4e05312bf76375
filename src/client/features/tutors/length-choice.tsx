/**
 * The booking box's length: a choice of the tutor's lengths (and their trial, when offered), each
 * with its price, or a sentence when there is only one.
 */
import { plural } from '@lingui/core/macro';
import { Plural, useLingui } from '@lingui/react/macro';
import { SelectField } from '../../components/text-field';

const TRIAL_CHOICE = 'trial';

export function LengthChoice({
  lengths,
  trial,
  chosenMinutes,
  minutes,
  trialLabel,
  priceOf,
  price,
  onChoose,
}: {
  lengths: number[];
  trial: boolean;
  chosenMinutes: number;
  minutes: number;
  /** The trial's option, or null when the tutor offers none. */
  trialLabel: string | null;
  priceOf: (minutes: number) => string;
  /** The chosen lesson's price, for the sentence of a single length. */
  price: string;
  onChoose: (choice: 'trial' | number) => void;
}) {
  const { t } = useLingui();
  if (lengths.length <= 1 && trialLabel === null)
    return (
      <p className="mt-4 text-sm text-slate-800">
        <Plural
          value={minutes}
          one={`Lessons last # minute · ${price}`}
          other={`Lessons last # minutes · ${price}`}
        />
      </p>
    );
  return (
    <SelectField
      label={t`Lesson length`}
      className="mt-4 max-w-xs"
      value={trial ? TRIAL_CHOICE : String(chosenMinutes)}
      onChange={(event) => {
        const value = event.target.value;
        onChoose(value === TRIAL_CHOICE ? 'trial' : Number(value));
      }}
    >
      {trialLabel !== null ? <option value={TRIAL_CHOICE}>{trialLabel}</option> : null}
      {lengths.map((length) => {
        const amount = priceOf(length);
        return (
          <option key={length} value={length}>
            {t`${plural(length, { one: '# minute', other: '# minutes' })} · ${amount}`}
          </option>
        );
      })}
    </SelectField>
  );
}
