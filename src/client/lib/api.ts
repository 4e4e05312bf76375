/**
 * The browser's one way to call the server's API: Hono's client, built from the server's own type
 * (`AppType`), so a request's input and a response's fields are written once, on the server, and
 * a field renamed there breaks this build. `request()` turns every failure into an ApiError whose
 * message a person can read: the server's `{ message }`, or ours when it could not be reached.
 */
import { type ClientResponse, hc, parseResponse } from 'hono/client';
import type { AppType } from '../../server/app';
import * as messages from '../../shared/messages';
import { translated } from './i18n';

export const api = hc<AppType>('/api', {
  init: { credentials: 'same-origin' },
  headers: { Accept: 'application/json' },
});

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    /** Where in the input the problem is, when the server says ("weekly.2.end"). */
    readonly field?: string,
    /** The whole answer, for a refusal that carries more than words (the amount a booking lacks). */
    readonly body?: unknown,
  ) {
    super(message);
  }
}

/** A message for a failed answer whose body says nothing readable (a proxy's error page). */
function fallbackMessage(status: number): string {
  if (status === 429) return messages.tooManyRequests;
  return status >= 500 ? messages.unexpectedError : messages.invalidRequest;
}

/** Reads the answer of an API call: its success body, or an ApiError. An abort is passed on as it is. */
export async function request<R extends ClientResponse<unknown>>(send: Promise<R>) {
  let res: R;
  try {
    res = await send;
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, messages.networkError, 'NETWORK');
  }
  if (!res.ok) {
    const body: unknown = await res.json().catch(() => null);
    const { message, code, field } = (body ?? {}) as { message?: unknown; code?: unknown; field?: unknown };
    throw new ApiError(
      res.status,
      typeof message === 'string' && message ? message : fallbackMessage(res.status),
      typeof code === 'string' ? code : undefined,
      typeof field === 'string' && field ? field : undefined,
      body ?? undefined,
    );
  }
  return parseResponse(res);
}

/** What to tell a person about a failed call: the server's words, or `fallback` when it gave none. */
export const failureMessage = (error: unknown, fallback: string = messages.unexpectedError) =>
  translated(error instanceof ApiError ? error.message : fallback);
