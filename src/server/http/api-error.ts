/**
 * Every API error is JSON of one shape, { message, code? }, with a message a person understands
 * and never a stack trace.
 */
import type { Context } from 'hono';
import type { ClientErrorStatusCode, ServerErrorStatusCode } from 'hono/utils/http-status';
import * as messages from '../../shared/messages';
import type { Database } from '../db/database';

export interface ApiErrorBody {
  message: string;
  code?: string;
}

/** What an error may say besides its message and code, for a caller to act on (an amount missing). */
export type ErrorDetails = Record<string, unknown>;

/** The statuses an error answers with (typed so, the browser's client never takes one for success). */
export type ErrorStatus = ClientErrorStatusCode | ServerErrorStatusCode;

export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    message: string,
    readonly code?: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
  }
}

export function errorResponse(
  c: Context,
  status: ErrorStatus,
  message: string,
  code?: string,
  details?: ErrorDetails,
) {
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

/** 503 with Retry-After: the request may succeed once the database is back. */
export function serviceUnavailable(c: Context) {
  c.header('Retry-After', '5');
  return errorResponse(c, 503, messages.serviceUnavailable, 'SERVICE_UNAVAILABLE');
}
