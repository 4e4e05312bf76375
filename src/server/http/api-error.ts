/**
 * Every API error is JSON of one shape, { message, code? }, with a message a person understands
 * and never a stack trace.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export interface ApiErrorBody {
  message: string;
  code?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export function errorResponse(c: Context, status: ContentfulStatusCode, message: string, code?: string) {
  const body: ApiErrorBody = code ? { message, code } : { message };
  return c.json(body, status);
}
