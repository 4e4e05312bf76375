/**
 * Who is asking: the socket's address, or, when TRUST_PROXY says N proxies stand in front, the
 * address the outermost trusted proxy saw: the Nth entry of X-Forwarded-For counted from the right.
 * Entries left of it were written by the client and prove nothing, so a forged header never buys
 * a fresh rate-limit bucket. A header with fewer entries than trusted proxies did not come through
 * all of them (a misconfiguration, or a request that went round the proxies): the socket is then
 * the only address we know to be true.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

export function clientAddress(c: Context, trustedProxies: number): string {
  let socketAddress = 'unknown';
  try {
    socketAddress = getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // Called in-process (tests): there is no socket.
  }
  if (trustedProxies <= 0) return socketAddress;
  const forwarded = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return forwarded[forwarded.length - trustedProxies] ?? socketAddress;
}
