import { type ComponentProps, type ReactNode, useId, useState } from 'react';
import { translated } from '../lib/i18n';
import { CharacterCount, countedLength, countShown } from './character-count';
import { fieldClass } from './field-class';
import { FieldProblemLine, useFieldProblem } from './form';

/**
 * A field's label, the field, its hint and, when the form's answer names it (or a form that calls
 * the API itself passes one), its problem: marked (aria-invalid) and described by the problem
 * (said below it, or by the form's alert), then the hint.
 */
function Field({
  label,
  hint,
  name,
  id,
  problem: given,
  className = '',
  count,
  children,
}: {
  label: string;
  hint?: string | undefined;
  name?: string | undefined;
  id?: string | undefined;
  problem?: string | null | undefined;
  className?: string;
  /** The length of the text and its limit, for a count once it comes near the limit. */
  count?: { length: number; limit: number } | undefined;
  children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const generated = useId();
  const fieldId = id ?? generated;
  const answered = useFieldProblem(name, `${fieldId}-problem`);
  const problem = given
    ? { message: translated(given), saidHere: true, describedBy: `${fieldId}-problem` }
    : answered;
  const hintId = hint ? `${fieldId}-hint` : undefined;
  const countId = count && countShown(count.length, count.limit) ? `${fieldId}-count` : undefined;
  const describedBy = [problem?.describedBy, hintId, countId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={fieldId} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children({
        id: fieldId,
        ...(problem ? { 'aria-invalid': true as const } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      })}
      <FieldProblemLine id={`${fieldId}-problem`} problem={problem} />
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {count ? (
        <CharacterCount
          id={`${fieldId}-count`}
          length={count.length}
          limit={count.limit}
          className="mt-1 text-end text-sm"
        />
      ) : null}
    </div>
  );
}

/**
 * The counted length of a text field's value, followed as it is typed (the field may be
 * uncontrolled), for a field with a `limit`.
 */
function useCountedLength(
  limit: number | undefined,
  value: unknown,
  defaultValue: unknown,
): [{ length: number; limit: number } | undefined, (text: string) => void] {
  const [typed, setTyped] = useState(() => countedLength(String(value ?? defaultValue ?? '')));
  const length = value === undefined ? typed : countedLength(String(value));
  if (limit === undefined) return [undefined, () => {}];
  return [{ length, limit }, (text) => setTyped(countedLength(text))];
}

interface TextFieldProps extends ComponentProps<'input'> {
  label: string;
  hint?: string;
  /** A problem found by a form that calls the API itself (a page's form names it in its answer). */
  problem?: string | null;
  /**
   * The most characters the value may have: a count shows near it. Nothing is cut (unlike
   * maxLength); the form's check refuses a value over it.
   */
  limit?: number;
}

export function TextField({ label, hint, id, className, limit, problem, onChange, ...rest }: TextFieldProps) {
  const [count, follow] = useCountedLength(limit, rest.value, rest.defaultValue);
  return (
    <Field
      label={label}
      hint={hint}
      name={rest.name}
      id={id}
      problem={problem}
      className={className}
      count={count}
    >
      {(props) => (
        <input
          className={fieldClass}
          {...rest}
          {...props}
          onChange={(event) => {
            follow(event.target.value);
            onChange?.(event);
          }}
        />
      )}
    </Field>
  );
}

interface TextAreaProps extends ComponentProps<'textarea'> {
  label: string;
  hint?: string;
  /** As a text field's `problem`. */
  problem?: string | null;
  /** As a text field's `limit`. */
  limit?: number;
}

export function TextArea({ label, hint, id, className, limit, problem, onChange, ...rest }: TextAreaProps) {
  const [count, follow] = useCountedLength(limit, rest.value, rest.defaultValue);
  return (
    <Field
      label={label}
      hint={hint}
      name={rest.name}
      id={id}
      problem={problem}
      className={className}
      count={count}
    >
      {(props) => (
        <textarea
          className={fieldClass}
          {...rest}
          {...props}
          onChange={(event) => {
            follow(event.target.value);
            onChange?.(event);
          }}
        />
      )}
    </Field>
  );
}

interface SelectFieldProps extends ComponentProps<'select'> {
  label: string;
  hint?: string;
  problem?: string | null;
}

export function SelectField({ label, hint, id, className, problem, children, ...rest }: SelectFieldProps) {
  return (
    <Field label={label} hint={hint} name={rest.name} id={id} problem={problem} className={className}>
      {(props) => (
        <select className={fieldClass} {...rest} {...props}>
          {children}
        </select>
      )}
    </Field>
  );
}
