/**
 * fetch for our JSON API: sends and reads JSON, and turns every failure into an ApiError with a
 * message a person can read (the server's, or ours when the server could not be reached).
 */
import { messages } from '../../shared/messages';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, messages.networkError, 'NETWORK');
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's error page): handled below.
  }
  if (!res.ok) {
    const body = (data ?? {}) as { message?: unknown; code?: unknown };
    const fallback =
      res.status === 429
        ? messages.tooManyRequests
        : res.status >= 500
          ? messages.unexpectedError
          : messages.invalidRequest;
    throw new ApiError(
      res.status,
      typeof body.message === 'string' && body.message ? body.message : fallback,
      typeof body.code === 'string' ? body.code : undefined,
    );
  }
  return data as T;
}
