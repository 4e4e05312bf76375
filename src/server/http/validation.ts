/**
 * Input validation at the edge of every route, with the one answer Tutorlane gives to bad input:
 * 400 with { message, code, field? } naming the first problem in words a person understands, and
 * where it is (`field`: "weekly.2.end") when it is in one field.
 * - `validate(target, schema)` is @hono/zod-validator with that answer.
 * - `validate('param', schema, notFound)` answers 404 with `notFound` instead: a path naming
 *   something that cannot exist is not found, however it is malformed.
 * - `validateBy(target, pick)` checks against the schema `pick` chooses for the request (a
 *   profile's fields depend on the signed-in user's role).
 */
import { zValidator } from '@hono/zod-validator';
import type { Context, ValidationTargets } from 'hono';
import { validator } from 'hono/validator';
import { z } from 'zod';
import * as messages from '../../shared/messages';
import { translate } from '../i18n/translations';
import type { AppEnv } from './app-env';
import { languageOf } from './language';

/** "weekly.2.end": where in the input the problem is, as a caller would look it up. */
const fieldOf = (path: readonly PropertyKey[]) => path.map(String).join('.');

interface Issue {
  message: string;
  path: readonly PropertyKey[];
  code?: string;
  keys?: readonly PropertyKey[];
  params?: unknown;
}

/** What a problem whose words hold values says (src/shared/schemas.ts: issueWith, noSuchField). */
const paramsSchema = z.object({
  text: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.number()])),
  translated: z.array(z.string()).catch([]),
});

/**
 * A schema's problem in `language`. Its message is an English text marked for translation
 * (src/shared/schemas.ts); one with values carries its text and values in `params`; the fields an
 * object does not have are named in its text, which holds `{keys}` in the catalogue.
 */
export function sayIssue(language: string, issue: Issue | undefined): string {
  if (!issue) return translate(language, messages.invalidRequest);
  const withValues = paramsSchema.safeParse(issue.params);
  if (withValues.success) {
    const { text, values, translated } = withValues.data;
    const said = Object.fromEntries(
      Object.entries(values).map(([name, value]) => [
        name,
        translated.includes(name) && typeof value === 'string' ? translate(language, value) : value,
      ]),
    );
    return translate(language, text, said);
  }
  if (issue.code === 'unrecognized_keys' && issue.keys?.length) {
    const keys = issue.keys.map(String).join(', ');
    // (slice to a length, not to -keys.length: an empty key name is -0, which would keep nothing)
    if (issue.message.endsWith(keys))
      return translate(language, `${issue.message.slice(0, issue.message.length - keys.length)}{keys}`, {
        keys,
      });
  }
  return translate(language, issue.message);
}

function refusal(c: Context, error: { issues: readonly Issue[] }) {
  const issue = error.issues[0];
  const message = sayIssue(languageOf(c), issue);
  const field = issue?.path.length ? fieldOf(issue.path) : undefined;
  return c.json({ message, code: 'VALIDATION_ERROR', ...(field ? { field } : {}) }, 400);
}

export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  schema: Schema,
  notFound?: string,
) {
  return zValidator(target, schema, (result, c) => {
    if (result.success) return;
    if (notFound !== undefined)
      return c.json({ message: translate(languageOf(c), notFound), code: 'NOT_FOUND' }, 404);
    return refusal(c, result.error);
  });
}

export function validateBy<Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  pick: (c: Context<AppEnv>) => Schema,
) {
  const check = async (value: unknown, c: Context<AppEnv>) => {
    const result = await pick(c).safeParseAsync(value);
    return result.success ? (result.data as z.output<Schema>) : refusal(c, result.error);
  };
  // Given explicitly, so the browser's client sees what it may send (the schemas' input), not
  // what the route receives.
  return validator<z.input<Schema>, string, string, Target, string, typeof check>(target, check);
}
