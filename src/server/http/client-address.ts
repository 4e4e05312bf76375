/**
 * Who is asking: the socket's address, or, when TRUST_PROXY says N proxies stand in front, the
 * address the Nth proxy from the right saw in X-Forwarded-For. Without TRUST_PROXY a forged
 * header is ignored, so it cannot buy a fresh rate-limit bucket.
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
  // Each trusted proxy appended the address it saw; the client is the entry just left of theirs.
  const index = forwarded.length - trustedProxies;
  return index >= 0 ? (forwarded[index] ?? socketAddress) : (forwarded[0] ?? socketAddress);
}
