/** A group of checkboxes or radio buttons, marked and described as one field when the form's answer names it. */
import type { ReactNode } from 'react';
import { FieldProblemLine, useFieldProblem } from './form';

export function ChoiceGroup({
  legend,
  name,
  id,
  children,
}: {
  /** The group's name: text, or a fold's title (a button, whose words name the group). */
  legend: ReactNode;
  /** The field's name in the form's answer. */
  name: string;
  /** For a form that brings the field at fault into view by its id. */
  id?: string;
  children: ReactNode;
}) {
  const problemId = `${name}-problem`;
  const problem = useFieldProblem(name, problemId);
  return (
    <fieldset id={id} aria-invalid={problem ? true : undefined} aria-describedby={problem?.describedBy}>
      <legend className="w-full text-sm font-medium text-slate-800">{legend}</legend>
      {children}
      <FieldProblemLine id={problemId} problem={problem} />
    </fieldset>
  );
}
