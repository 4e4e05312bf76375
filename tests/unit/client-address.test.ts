/**
 * The client address behind TRUST_PROXY proxies: only entries a trusted proxy
 * wrote count, so a forged X-Forwarded-For never names the client.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddress } from '../../src/server/http/client-address';

const SOCKET = '192.0.2.10';

/** What the server takes as the client address of a request from SOCKET carrying this header. */
async function addressOf(trustedProxies: number, forwardedFor?: string) {
  const app = new Hono();
  app.get('/', (c) => c.text(clientAddress(c, trustedProxies)));
  const res = await app.request(
    '/',
    { headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } },
    { incoming: { socket: { remoteAddress: SOCKET, remotePort: 40000, remoteFamily: 'IPv4' } } },
  );
  return res.text();
}

describe('client address', () => {
  it('is the socket address when no proxy is trusted, whatever the header says', async () => {
    expect(await addressOf(0)).toBe(SOCKET);
    expect(await addressOf(0, '203.0.113.5')).toBe(SOCKET);
  });

  it('is the entry the one trusted proxy appended, even with a forged entry before it', async () => {
    expect(await addressOf(1, '198.51.100.1')).toBe('198.51.100.1');
    expect(await addressOf(1, '203.0.113.66, 198.51.100.1')).toBe('198.51.100.1');
    expect(await addressOf(1, '203.0.113.66,203.0.113.67 , 198.51.100.1')).toBe('198.51.100.1');
  });

  it('is the TRUST_PROXY-th entry from the right behind several proxies', async () => {
    // The client's proxy chain: outer proxy saw 198.51.100.1, inner proxy saw the outer one.
    expect(await addressOf(2, '198.51.100.1, 10.0.0.2')).toBe('198.51.100.1');
    expect(await addressOf(2, '203.0.113.66, 198.51.100.1, 10.0.0.2')).toBe('198.51.100.1');
  });

  it('falls back to the socket when the header has fewer entries than trusted proxies', async () => {
    expect(await addressOf(1)).toBe(SOCKET);
    expect(await addressOf(1, '')).toBe(SOCKET);
    expect(await addressOf(1, ' , ')).toBe(SOCKET);
    // One entry behind two trusted proxies: the client wrote it, or it skipped a proxy.
    expect(await addressOf(2, '203.0.113.66')).toBe(SOCKET);
    expect(await addressOf(3, '203.0.113.66, 198.51.100.1')).toBe(SOCKET);
  });
});
