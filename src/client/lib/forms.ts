/**
 * What every form's action shares: reading the submitted values, checking them with the form's
 * schema from src/shared/form-checks.ts (loaded when a form is first touched), and turning a
 * refusal, the browser's or the server's, into the one shape the form shows (components/form.tsx).
 */
import type { z } from 'zod';
import * as messages from '../../shared/messages';
import { failureMessage } from './api';
import { translated, withTexts } from './i18n';

/** What is wrong with a submitted form: the first problem's message, and each field's own. */
export interface FormProblem {
  message: string;
  fields: Partial<Record<string, string>>;
}

/** A form action's answer: a problem to show, or a note that it went through. */
export type FormAnswer = { problem: FormProblem; done?: undefined } | { done: string; problem?: undefined };

let checks: Promise<typeof import('../../shared/form-checks')> | undefined;

/** The forms' schemas, fetched once; a failed fetch is tried again next time. */
export function loadFormChecks() {
  checks ??= withTexts(import('../../shared/form-checks'), '../shared/form-checks.ts').catch(
    (error: unknown) => {
      checks = undefined;
      throw error;
    },
  );
  return checks;
}

/** The submitted values: one string per field, a list for the fields in `lists`. */
export async function formValues(request: Request, lists: readonly string[] = []) {
  const data = await request.formData();
  const values: Record<string, string | string[]> = {};
  for (const key of new Set(data.keys())) {
    const all = data.getAll(key).filter((value): value is string => typeof value === 'string');
    values[key] = lists.includes(key) ? all : (all[0] ?? '');
  }
  for (const key of lists) values[key] ??= [];
  return values;
}

/** The values checked: the schema's output, or the problem to show (the first issue's message first). */
export function check<S extends z.ZodType>(
  schema: S,
  values: unknown,
): { data: z.output<S>; problem?: undefined } | { problem: FormProblem; data?: undefined } {
  const result = schema.safeParse(values);
  if (result.success) return { data: result.data };
  const fields: Partial<Record<string, string>> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (field) fields[field] ??= translated(issue.message);
  }
  const first = result.error.issues[0]?.message ?? messages.invalidRequest;
  return { problem: { message: translated(first), fields } };
}

/** A call the server refused, or could not answer, as the form shows it. */
export function refused(error: unknown, prefix = ''): { problem: FormProblem } {
  const message = failureMessage(error);
  return { problem: { message: `${prefix ? translated(prefix) : ''}${message}`, fields: {} } };
}
