import { type ComponentProps, useId } from 'react';

// No focus style of its own: the global :focus-visible outline (styles.css, 3 px brand-600, over 6:1 on
// white) marks the focused field, as it does every button and link.
const fieldClass =
  'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-600 aria-invalid:border-red-600';

interface TextFieldProps extends ComponentProps<'input'> {
  label: string;
  hint?: string;
}

export function TextField({ label, hint, id, className = '', ...rest }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = hint ? `${inputId}-hint` : undefined;
  return (
    <div className={className}>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input id={inputId} aria-describedby={hintId} className={fieldClass} {...rest} />
      {hint ? (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

interface TextAreaProps extends ComponentProps<'textarea'> {
  label: string;
}

export function TextArea({ label, id, className = '', ...rest }: TextAreaProps) {
  const generated = useId();
  const inputId = id ?? generated;
  return (
    <div className={className}>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea id={inputId} className={fieldClass} {...rest} />
    </div>
  );
}

export { fieldClass };
