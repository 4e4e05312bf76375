/**
 * The size limit on request bodies: 413 with a message, before the body is read.
 *
 * Hono's `bodyLimit` looks at `c.req.raw.body` first, and under @hono/node-server that builds a
 * whole WHATWG Request for the request: a ReadableStream over the socket, an AbortController, and
 * a second Request once the body has been counted. The route's `c.req.json()` then reads through
 * them. When the client states the body's length (Content-Length without Transfer-Encoding, as
 * browsers and fetch do), Node's HTTP parser never hands over more than that, so the header alone
 * decides, as it does inside Hono's middleware, and the route reads the body straight from the
 * socket. A body of unstated length (chunked) is still counted by Hono's middleware as it arrives.
 * See docs/decisions/0012-body-limit-by-content-length.md.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorResponse } from './api-error';

export function limitBody(maxBytes: number, message: string): MiddlewareHandler {
  const refuse = (c: Context) => errorResponse(c, 413, message, 'BODY_TOO_LARGE');
  const counting = bodyLimit({ maxSize: maxBytes, onError: refuse });
  return async (c, next) => {
    // GET and HEAD carry no body; asking a node request for one would build the Request for nothing.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length === undefined || c.req.header('transfer-encoding') !== undefined) return counting(c, next);
    return Number(length) > maxBytes ? refuse(c) : next();
  };
}
