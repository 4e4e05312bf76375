import { type ComponentProps, type ReactNode, useId } from 'react';
import { useFieldProblem } from './form';

// No focus style of its own: the global :focus-visible outline (styles.css, 3 px brand-600, over 6:1 on
// white) marks the focused field, as it does every button and link.
const fieldClass =
  'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-600 aria-invalid:border-red-600';

/**
 * A field's label, the field, its hint and, when the form's answer names it (or a form that calls
 * the API itself passes one), its problem: marked (aria-invalid) and described by the problem,
 * then the hint.
 */
function Field({
  label,
  hint,
  name,
  id,
  problem: given,
  className = '',
  children,
}: {
  label: string;
  hint?: string | undefined;
  name?: string | undefined;
  id?: string | undefined;
  problem?: string | null | undefined;
  className?: string;
  children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const generated = useId();
  const fieldId = id ?? generated;
  const answered = useFieldProblem(name);
  const problem = given || answered;
  const problemId = problem ? `${fieldId}-problem` : undefined;
  const hintId = hint ? `${fieldId}-hint` : undefined;
  const describedBy = [problemId, hintId].filter(Boolean).join(' ') || undefined;
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
      {problem ? (
        <p id={problemId} className="mt-1 text-sm font-medium text-red-700">
          {problem}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

interface TextFieldProps extends ComponentProps<'input'> {
  label: string;
  hint?: string;
}

export function TextField({ label, hint, id, className, ...rest }: TextFieldProps) {
  return (
    <Field label={label} hint={hint} name={rest.name} id={id} className={className}>
      {(props) => <input className={fieldClass} {...rest} {...props} />}
    </Field>
  );
}

interface TextAreaProps extends ComponentProps<'textarea'> {
  label: string;
  hint?: string;
}

export function TextArea({ label, hint, id, className, ...rest }: TextAreaProps) {
  return (
    <Field label={label} hint={hint} name={rest.name} id={id} className={className}>
      {(props) => <textarea className={fieldClass} {...rest} {...props} />}
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

export { fieldClass };
