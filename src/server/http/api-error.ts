/**
 * Every API error is JSON of one shape, { message, code? }, with a message a person understands,
 * in their language (./language.ts), and never a stack trace. The `code` never changes with the
 * language: callers act on it.
 */
import type { Context } from 'hono';
import type { ClientErrorStatusCode, ServerErrorStatusCode } from 'hono/utils/http-status';
import { intlLocaleOf, isLanguage, type PageLanguage } from '../../shared/languages';
import * as messages from '../../shared/messages';
import { type Database, isUnansweredInTime } from '../db/database';
import { type TextValues, translate } from '../i18n/translations';
import { languageOf } from './language';

export interface ApiErrorBody {
  message: string;
  code?: string;
}

/** What an error may say besides its message and code, for a caller to act on (an amount missing). */
export type ErrorDetails = Record<string, unknown>;

/** The statuses an error answers with (typed so, the browser's client never takes one for success). */
export type ErrorStatus = ClientErrorStatusCode | ServerErrorStatusCode;

/**
 * What an error says: an English text marked for translation (`/*i18n*\/ 'This lesson does not
 * exist'`), or one with values in its placeholders (`{ text: /*i18n*\/ 'Please choose a subject
 * {name} teaches', values: { name } }`).
 */
export type ErrorText =
  | string
  | { text: string; values: TextValues | LocalValues }
  | ((language: PageLanguage) => string);

/**
 * Values written for the caller's locale (amounts, dates: "31,50 €" in Spanish), known only once
 * the answer's language is: `values: (locale) => ({ missing: formatAmount(cents, currency, { locale }) })`.
 */
export type LocalValues = (locale: string) => TextValues;

/** An error's text in a language. */
export const sayError = (language: string, message: ErrorText) => {
  if (typeof message === 'string') return translate(language, message);
  // A text made of several, each said in the language (the money an account still holds).
  if (typeof message === 'function') return message(isLanguage(language) ? language : 'en');
  const values =
    typeof message.values === 'function'
      ? message.values(intlLocaleOf(isLanguage(language) ? language : 'en'))
      : message.values;
  return translate(language, message.text, values);
};

export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly text: ErrorText,
    readonly code?: string,
    readonly details?: ErrorDetails,
  ) {
    // In English for the logs; the answer says it in the caller's language.
    super(sayError('en', text));
  }
}

export function errorResponse(
  c: Context,
  status: ErrorStatus,
  text: ErrorText,
  code?: string,
  details?: ErrorDetails,
) {
  const message = sayError(languageOf(c), text);
  const body: ApiErrorBody = code ? { ...details, message, code } : { message };
  return c.json(body, status);
}

/** True when the database does not answer a trivial query at once: failures are then its fault. */
export async function isDatabaseDown(database: Database): Promise<boolean> {
  try {
    await database.ping(500);
    return false;
  } catch {
    return true;
  }
}

/** True when the database did not answer this request in time, or does not answer at all now. */
export async function isDatabaseUnavailable(database: Database, error: unknown): Promise<boolean> {
  // Under load PostgreSQL may well answer the ping after a query it left waiting: the error says it.
  return isUnansweredInTime(error) || isDatabaseDown(database);
}

/** 503 with Retry-After: the request may succeed once the database is back. */
export function serviceUnavailable(c: Context) {
  c.header('Retry-After', '5');
  return errorResponse(c, 503, messages.serviceUnavailable, 'SERVICE_UNAVAILABLE');
}
