/** The reCAPTCHA check on the server, against a fake of Google's siteverify API. */
import { describe, expect, it } from 'vitest';
import { createRecaptchaVerifier } from '../../src/server/captcha/captcha';
import { createLogger } from '../../src/server/logging/logger';

const logger = createLogger({ level: 'silent' });

/** A fetch that answers like siteverify and records what it was sent. */
function fakeSiteverify(answer: () => Promise<Response>) {
  const calls: Array<{ url: string; form: URLSearchParams }> = [];
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), form: new URLSearchParams(String(init?.body)) });
    return answer();
  }) as typeof globalThis.fetch;
  const verifier = createRecaptchaVerifier({
    siteKey: 'site-key',
    secretKey: 'secret-key',
    hostname: 'tutorlane.example',
    logger,
    fetch,
  });
  return { verifier, calls };
}

const json = (body: unknown) => async () => Response.json(body);

describe('reCAPTCHA verifier', () => {
  it('accepts a token Google confirms for our host, sending the secret, token and client address', async () => {
    const { verifier, calls } = fakeSiteverify(json({ success: true, hostname: 'tutorlane.example' }));
    expect(await verifier.verify('browser-token', '203.0.113.7')).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('https://www.google.com/recaptcha/api/siteverify');
    expect(Object.fromEntries(calls[0]?.form ?? [])).toEqual({
      secret: 'secret-key',
      response: 'browser-token',
      remoteip: '203.0.113.7',
    });
  });

  it('refuses a token Google does not confirm', async () => {
    const { verifier } = fakeSiteverify(json({ success: false, 'error-codes': ['invalid-input-response'] }));
    expect(await verifier.verify('browser-token', '203.0.113.7')).toBe(false);
  });

  it('refuses a token solved on another site that uses our key', async () => {
    const { verifier } = fakeSiteverify(json({ success: true, hostname: 'evil.example' }));
    expect(await verifier.verify('browser-token', '203.0.113.7')).toBe(false);
    const { verifier: noHost } = fakeSiteverify(json({ success: true }));
    expect(await noHost.verify('browser-token', '203.0.113.7')).toBe(false);
  });

  it('refuses when Google cannot be reached or answers nonsense', async () => {
    const { verifier: offline } = fakeSiteverify(async () => {
      throw new TypeError('fetch failed');
    });
    expect(await offline.verify('browser-token', '203.0.113.7')).toBe(false);
    const { verifier: garbled } = fakeSiteverify(
      async () => new Response('<html>502</html>', { status: 502 }),
    );
    expect(await garbled.verify('browser-token', '203.0.113.7')).toBe(false);
  });

  it('refuses a missing or oversized token without asking Google', async () => {
    const { verifier, calls } = fakeSiteverify(json({ success: true, hostname: 'tutorlane.example' }));
    expect(await verifier.verify(undefined, '203.0.113.7')).toBe(false);
    expect(await verifier.verify('', '203.0.113.7')).toBe(false);
    expect(await verifier.verify('x'.repeat(4001), '203.0.113.7')).toBe(false);
    expect(calls).toEqual([]);
  });
});
