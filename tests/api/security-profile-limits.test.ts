/**
 * Profile writes under load: photo uploads and profile saves are rate-limited per user,
 * the process decodes at most two photos at a time and tells the rest to come back, and no image
 * may unpack to more than a 50-megapixel photo.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from '../../src/server/rate-limit/concurrency-limit';
import * as messages from '../../src/shared/messages';
import { type CookieJar, send, signUp } from '../support/accounts';
import { createTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
/** This app's photo decoding slots: two, as in production, with a short wait so tests are quick. */
const decodes = new ConcurrencyLimit({ slots: 2, maxWaiting: 1, maxWaitMs: 300 });
let smallPng: Buffer;
beforeAll(async () => {
  t = await createTestApp({ overrides: { photoDecodes: decodes } });
  smallPng = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#0f766e' } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await t.close();
});

const tutorJar = async () => (await signUp(t, { role: 'tutor' })).jar;

function putPhoto(jar: CookieJar, body: Uint8Array) {
  return t.request('/api/profile/photo', {
    method: 'PUT',
    body: body as BodyInit,
    headers: { cookie: jar.header(), 'content-type': 'application/octet-stream' },
  });
}

/** Occupies every decoding slot until the returned function is called. */
function holdEverySlot() {
  const releases: (() => void)[] = [];
  for (let i = 0; i < decodes.options.slots; i++) {
    void decodes.run(() => new Promise<void>((resolve) => releases.push(resolve)));
  }
  expect(decodes.active).toBe(decodes.options.slots);
  return () => {
    for (const release of releases) release();
  };
}

async function expectTooMany(res: Response) {
  expect(res.status).toBe(429);
  const wait = Number(res.headers.get('retry-after'));
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(3600);
  expect(await res.json()).toEqual({ message: messages.tooManyRequests, code: 'TOO_MANY_REQUESTS' });
}

describe('photo uploads', () => {
  it('allows 20 an hour per tutor, then 429 with Retry-After; other tutors keep theirs', async () => {
    const jar = await tutorJar();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await putPhoto(jar, smallPng)).status);
    expect(statuses).toEqual(Array(20).fill(200));
    await expectTooMany(await putPhoto(jar, smallPng));
    expect((await putPhoto(await tutorJar(), smallPng)).status).toBe(200);
  });

  it('answers 503 with Retry-After while both decoding slots stay busy, and saves nothing', async () => {
    const jar = await tutorJar();
    const release = holdEverySlot();
    try {
      const res = await putPhoto(jar, smallPng);
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await res.json()).toEqual({ message: messages.serviceUnavailable, code: 'SERVER_BUSY' });
    } finally {
      release();
    }
    const details = await (
      await t.request('/api/profile/details', { headers: { cookie: jar.header() } })
    ).json();
    expect(details.hasPhoto).toBe(false);
  });

  it('lets an upload wait for a slot that frees within a moment', async () => {
    const jar = await tutorJar();
    const release = holdEverySlot();
    const upload = putPhoto(jar, smallPng);
    setTimeout(release, 100);
    const res = await upload;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ hasPhoto: true });
  });

  it('refuses, before decoding, an image larger than a 50-megapixel photo', async () => {
    const jar = await tutorJar();
    const release = holdEverySlot();
    try {
      // Both are small files; each would unpack to far more memory than its bytes suggest.
      const tooManyPixels = await sharp({
        create: { width: 8000, height: 7000, channels: 3, background: '#4338ca' },
      })
        .png()
        .toBuffer();
      const deepAndWide = await sharp({
        create: { width: 5000, height: 4000, channels: 4, background: '#4338ca80' },
      })
        .toColourspace('rgb16')
        .png()
        .toBuffer();
      for (const [label, image] of [
        ['56 megapixels', tooManyPixels],
        ['20 megapixels of 16-bit RGBA', deepAndWide],
      ] as const) {
        // Refused at once, though every decoding slot is taken: nothing was decoded.
        const res = await putPhoto(jar, image);
        expect(res.status, label).toBe(413);
        expect(await res.json(), label).toEqual({
          message: 'This image is too large. Please upload a photo of at most 50 megapixels.',
          code: 'IMAGE_TOO_LARGE',
        });
      }
    } finally {
      release();
    }
  });

  it('accepts the largest photo a 50-megapixel phone camera makes', async () => {
    const jar = await tutorJar();
    const photo = await sharp({ create: { width: 8192, height: 6144, channels: 3, background: '#b45309' } })
      .jpeg()
      .toBuffer();
    const res = await putPhoto(jar, photo);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ hasPhoto: true });
  });
});

describe('profile saves', () => {
  it('allows 60 an hour per user across /api/profile and /api/profile/details, then 429', async () => {
    const { jar } = await signUp(t);
    const statuses = new Set<number>();
    for (let i = 0; i < 30; i++) {
      statuses.add((await send(t, 'PATCH', '/api/profile', { displayName: `Name ${i}` }, jar)).status);
      statuses.add(
        (await send(t, 'PATCH', '/api/profile/details', { learningGoals: `Goal ${i}` }, jar)).status,
      );
    }
    expect([...statuses]).toEqual([200]);
    await expectTooMany(await send(t, 'PATCH', '/api/profile', { displayName: 'One more' }, jar));
    await expectTooMany(await send(t, 'PATCH', '/api/profile/details', { learningGoals: 'One more' }, jar));
    const other = await signUp(t);
    expect((await send(t, 'PATCH', '/api/profile', { displayName: 'Fresh' }, other.jar)).status).toBe(200);
  });
});
