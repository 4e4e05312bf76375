/**
 * One zod schema per field, reused by every form and every route that takes the field.
 * Messages come from the catalogue so the browser and the server say the same thing.
 */
import { z } from 'zod';
import {
  CONTACT_SUBJECT_VALUES,
  MAX_CONTACT_MESSAGE_LENGTH,
  MAX_CONTACT_NAME_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  ROLES,
} from './constants';
import { LANGUAGE_CODES } from './languages';
import * as messages from './messages';

/**
 * Control characters (C0, DEL and C1) other than tab, line feed and carriage return. PostgreSQL
 * refuses a NUL in text outright, and none of the others belongs in anything a person types.
 */
const CONTROL_CHARACTERS = /(?![\t\n\r])\p{Cc}/u;
/** Any control character at all, line breaks included: for text that must stay on one line. */
const ANY_CONTROL_CHARACTER = /\p{Cc}/u;
/**
 * Letters and symbols that are drawn as nothing at all: the Hangul fillers (choseong, jungseong,
 * the compatibility and the halfwidth one), the blank Braille pattern, the combining grapheme
 * joiner and the Khmer inherent vowels. A name of them looks empty; beside other letters they pass
 * for a space.
 */
const BLANK_CHARACTERS = String.raw`\u034F\u115F\u1160\u17B4\u17B5\u2800\u3164\uFFA0`;
/**
 * Characters that change how the text around them is shown, or take up room, without showing
 * themselves: every format character (Unicode's category Cf: bidi embeddings, overrides and
 * isolates, zero-width spaces and joiners, the byte order mark, the soft hyphen, the tag
 * characters U+E0000-E007F), the line and paragraph separators, and the blank characters above.
 * In a name they let one person's name pose as another's on a card or in a mail, or show nothing.
 */
const INVISIBLE_FORMATTING = new RegExp(
  `[\\p{Cf}\\p{Zl}\\p{Zp}\\u{E0000}-\\u{E007F}${BLANK_CHARACTERS}]`,
  'u',
);
/** A character that shows: a letter, digit, punctuation mark or symbol that is not drawn blank. */
const VISIBLE_CHARACTER = new RegExp(`(?![${BLANK_CHARACTERS}])[\\p{L}\\p{N}\\p{P}\\p{S}]`, 'u');

/**
 * What a text field's problems are called, each an English text marked for translation with its
 * numbers written out (`/*i18n*\/ 'The note must be at most 1000 characters'`): a translation needs
 * the whole sentence.
 */
export interface TextProblems {
  /** Not text (or missing, when the field is not required). */
  notText: string;
  /** Over the field's `max` characters. */
  tooLong: string;
  /** A control character (freeText), a line break (oneLineText). */
  badCharacters: string;
  /** Missing or blank, when the field is required. */
  required?: string;
}

/** Trimmed text of at most `max` characters; required when `says.required` is given. */
const text = (max: number, says: TextProblems) => {
  const trimmed = z.string({ error: says.required ?? says.notText }).trim();
  return (says.required ? trimmed.min(1, says.required) : trimmed).max(max, says.tooLong);
};

/** Text a person writes, over several lines if they like: no control characters but line breaks. */
export const freeText = (max: number, says: TextProblems) =>
  text(max, says).refine((value) => !CONTROL_CHARACTERS.test(value), says.badCharacters);

/** Text that must stay on one line (a headline, a subject, anything that ends up in a mail header). */
export const oneLineText = (max: number, says: TextProblems) =>
  text(max, says).refine((value) => !ANY_CONTROL_CHARACTER.test(value), says.badCharacters);

/** An English text with values in its placeholders: `said('{date} is overridden twice', { date })`. */
export const said = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (all, name: string) => (name in values ? String(values[name]) : all));

/**
 * A problem whose words hold values (a date, a day, field names), for `ctx.addIssue` or `refine`:
 * its English message in full, and in `params` its marked text and values, which the server says in
 * the caller's language (src/server/http/validation.ts). Values named in `translated` are marked
 * texts too (a weekday's name).
 */
export const issueWith = (
  text: string,
  values: Record<string, string | number>,
  translated: string[] = [],
) => ({ message: said(text, values), params: { text, values, translated } });

/** The refusal of fields an object does not have, `{keys}` naming them (the server finds them again). */
export const noSuchField = (text: string, keys: readonly PropertyKey[] | undefined) =>
  said(text, { keys: (keys ?? []).map(String).join(', ') });

/** Trimmed and lower-cased, so "Ann@Example.com " and "ann@example.com" are one account. */
export const emailSchema = z
  .string({ error: messages.fillAllFields })
  .trim()
  .min(1, messages.fillAllFields)
  .max(MAX_EMAIL_LENGTH, messages.invalidEmail)
  .pipe(z.email({ error: messages.invalidEmail }))
  .transform((email) => email.toLowerCase());

/**
 * Whether text shows as it was typed: no format characters (bidi marks, zero-width characters,
 * byte order marks, soft hyphens, tags), no line or paragraph separators, no blank letters.
 */
export const showsAsTyped = (text: string) => !INVISIBLE_FORMATTING.test(text);
/** Whether text has something to see: at least one letter, digit, punctuation mark or symbol. */
export const hasVisibleCharacter = (text: string) => VISIBLE_CHARACTER.test(text);
const invisibleInName =
  /*i18n*/ 'Name must not contain invisible formatting characters (such as text direction marks)';
const nothingVisibleInName = /*i18n*/ 'Name must contain at least one visible letter, digit or symbol';

/** A person's name as others see it: one line, and nothing that changes how the text around it shows. */
export const displayNameSchema = z
  .string({ error: messages.fillAllFields })
  .trim()
  .min(1, messages.fillAllFields)
  .max(MAX_NAME_LENGTH, /*i18n*/ 'Name must be at most 80 characters')
  .refine((name) => !ANY_CONTROL_CHARACTER.test(name), /*i18n*/ 'Name must not contain control characters')
  .refine(showsAsTyped, invisibleInName)
  .refine(hasVisibleCharacter, nothingVisibleInName);

export const roleSchema = z.enum(ROLES, { error: /*i18n*/ 'Role must be student, tutor or parent' });

export const languageSchema = z.enum(LANGUAGE_CODES, {
  error: /*i18n*/ 'Please choose one of the languages offered',
});

/** The token of a mailed link, as we issue them: letters, digits, - and _ only. */
export const linkTokenSchema = z.string().regex(/^[\w-]{16,128}$/);

export const contactMessageSchema = z.object({
  // Support reads it in a mail and answers by it: shown as it was typed, as any other name.
  name: oneLineText(MAX_CONTACT_NAME_LENGTH, {
    notText: /*i18n*/ 'Name must be text',
    tooLong: /*i18n*/ 'Name must be at most 80 characters',
    badCharacters: /*i18n*/ 'Name must be on one line',
    required: /*i18n*/ 'Name is required',
  })
    .refine(showsAsTyped, invisibleInName)
    .refine(hasVisibleCharacter, nothingVisibleInName),
  email: emailSchema,
  subject: z.enum(CONTACT_SUBJECT_VALUES, { error: /*i18n*/ 'Please choose a subject' }),
  message: freeText(MAX_CONTACT_MESSAGE_LENGTH, {
    notText: /*i18n*/ 'Message must be text',
    tooLong: /*i18n*/ 'Message must be at most 5000 characters',
    badCharacters: /*i18n*/ 'Message must not contain control characters',
    required: /*i18n*/ 'Message is required',
  }),
});

/**
 * What the account endpoints take, as the browser sends it. Only the shape is checked here, any
 * value that is not text reading as empty: the product's checks, in the order its messages are
 * given, run in Better Auth's hooks (src/server/accounts/auth.ts), where Better Auth runs its own.
 */
const field = z.string().catch('');
export const signUpBodySchema = z.object({
  name: field,
  email: field,
  password: field,
  confirmPassword: field,
  role: z.string().optional(),
  /** The sign-up page's language: saved on the account, so the verification mail is in it. */
  language: z.string().optional(),
});
export const signInBodySchema = z.object({
  email: field,
  password: field,
  rememberMe: z.boolean().optional(),
});
export const emailBodySchema = z.object({ email: field });

/** An authenticator app's code: six digits, spaces (as some apps show it) left out. */
export const totpCodeSchema = z.preprocess(
  (value) => (typeof value === 'string' ? value.replace(/\s+/g, '') : value),
  z
    .string({ error: /*i18n*/ 'Enter the 6-digit code from your authenticator app' })
    .regex(/^\d{6}$/, /*i18n*/ 'Enter the 6-digit code from your authenticator app'),
);
/** One of the backup codes shown at setup (ten characters and a dash, as Better Auth makes them). */
export const backupCodeSchema = z
  .string({ error: /*i18n*/ 'Enter one of your backup codes' })
  .trim()
  .regex(/^[A-Za-z0-9-]{1,64}$/, /*i18n*/ 'Enter one of your backup codes');
const currentPassword = z
  .string({ error: /*i18n*/ 'Please enter your password' })
  .min(1, /*i18n*/ 'Please enter your password')
  .max(MAX_PASSWORD_LENGTH, messages.passwordTooLong);
/** Turning two-factor on: the password again. */
export const twoFactorPasswordBodySchema = z.strictObject({ password: currentPassword });
export const verifyTotpBodySchema = z.strictObject({
  code: totpCodeSchema,
  trustDevice: z.boolean({ error: /*i18n*/ 'trustDevice must be true or false' }).optional(),
});
export const verifyBackupCodeBodySchema = z.strictObject({
  code: backupCodeSchema,
  trustDevice: z.boolean({ error: /*i18n*/ 'trustDevice must be true or false' }).optional(),
});
/**
 * Turning two-factor off, reading the authenticator key again, new backup codes: the password and
 * a current code (authenticator or backup), so a password alone (or a session someone took) opens
 * none of them.
 */
export const twoFactorPasswordAndCodeBodySchema = z.strictObject({
  password: currentPassword,
  code: z.union([totpCodeSchema, backupCodeSchema], {
    error: /*i18n*/ 'Enter a code from your authenticator app, or a backup code',
  }),
});
export const resetPasswordBodySchema = z.object({
  token: field,
  newPassword: field,
  confirmPassword: z.string().optional(),
});
export const verifyEmailBodySchema = z.object({ token: field });
