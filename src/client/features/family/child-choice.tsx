/**
 * "For": which of a parent's children a lesson, a package or a class seat is for. Required: with
 * no child chosen yet the first choice says so, and one child is chosen for the parent.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { type Ref, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { ChildView } from '../../../shared/family/family-constants';
import { paths } from '../../../shared/routes';
import { SelectField } from '../../components/text-field';

export function ChildChoice({
  family,
  value,
  onChange,
  problem,
  selectRef,
  className,
}: {
  family: ChildView[] | null;
  value: string;
  onChange: (childId: string) => void;
  problem?: string | null;
  selectRef?: Ref<HTMLSelectElement>;
  className?: string;
}) {
  const { t } = useLingui();
  if (family === null)
    return (
      <p className={`text-sm text-slate-600 ${className ?? ''}`}>
        <Trans>Reading your children…</Trans>
      </p>
    );
  if (family.length === 0)
    return (
      <p className={`rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-950 ${className ?? ''}`}>
        <Trans>
          Add a child on your{' '}
          <Link to={paths.family} className="font-semibold underline">
            Family
          </Link>{' '}
          page to book for them.
        </Trans>
      </p>
    );
  return (
    <SelectField
      ref={selectRef}
      label={t`For`}
      value={value}
      required
      problem={problem}
      className={className}
      onChange={(event) => onChange(event.target.value)}
    >
      {value === '' ? <option value="">{t`Choose a child`}</option> : null}
      {family.map((child) => (
        <option key={child.id} value={child.id}>
          {child.firstName}
        </option>
      ))}
    </SelectField>
  );
}

/** The child chosen first: the only one, when there is one. */
export const firstChoice = (family: ChildView[] | null) =>
  family?.length === 1 ? (family[0]?.id ?? '') : '';

/**
 * The state of a "For" choice: the child chosen (one child is chosen for the parent once the
 * children arrive), the problem shown under it, and `require`, which says the problem and moves
 * the focus there when none is chosen (false then).
 */
export function useChildChoice(family: ChildView[] | null) {
  const [value, setValue] = useState(() => firstChoice(family));
  const [problem, setProblem] = useState<string | null>(null);
  const selectRef = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    if (family?.length === 1) setValue((chosen) => chosen || (family[0]?.id ?? ''));
  }, [family]);
  return {
    value,
    require(message: string) {
      if (value) return true;
      setProblem(message);
      selectRef.current?.focus();
      return false;
    },
    props: {
      family,
      value,
      problem,
      selectRef,
      onChange: (chosen: string) => {
        setValue(chosen);
        setProblem(null);
      },
    },
  };
}
