/**
 * The home page's featured tutor (GET /api/tutors/featured), on both stores: a real listed tutor
 * with a photo, the best rated by the search's own average (then more reviews, then the newest),
 * or nobody at all; with REQUIRE_TUTOR_APPROVAL, only an approved one.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../src/server/admin/admin-command';
import type { Database } from '../../src/server/db/database';
import { type CookieJar, send, signIn, verifiedPerson } from '../support/accounts';
import { insertLesson } from '../support/lessons';
import { type MailCatcher, startMailCatcher } from '../support/mail-catcher';
import { createTestApp, type TestApp } from '../support/test-app';

let mailbox: MailCatcher;
let png: Buffer;
beforeAll(async () => {
  mailbox = await startMailCatcher();
  png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#0f766e' } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await mailbox.close();
});

interface Person {
  jar: CookieJar;
  id: string;
  email: string;
  name: string;
}

/** A published tutor, with a photo unless told otherwise. */
async function tutor(t: TestApp, name: string, subjects: string[], photo = true): Promise<Person> {
  const who = await verifiedPerson(t, mailbox, 'tutor', name);
  const res = await send(
    t,
    'PATCH',
    '/api/profile/details',
    {
      headline: `${subjects[0]} lessons`,
      about: 'Patient and clear.',
      subjects,
      hourlyRate: 35,
      languages: ['English'],
    },
    who.jar,
  );
  expect(res.status, await res.clone().text()).toBe(200);
  if (photo) {
    const put = await t.request('/api/profile/photo', {
      method: 'PUT',
      body: new Uint8Array(png),
      headers: { cookie: who.jar.header(), 'content-type': 'image/png' },
    });
    expect(put.status, await put.clone().text()).toBe(200);
  }
  return who;
}

/** Reviews with these ratings, each from a student after a lesson that took place. */
async function reviewed(t: TestApp, who: Person, ratings: number[]) {
  for (const rating of ratings) {
    const student = await verifiedPerson(t, mailbox, 'student', `Reviewer Of${who.name.replace(/\s/g, '')}`);
    await insertLesson(t.database.db, {
      tutorId: who.id,
      studentId: student.id,
      status: 'completed',
      start: Date.now() - 3 * 24 * 60 * 60 * 1000,
    });
    const res = await send(
      t,
      'PUT',
      `/api/tutors/${who.id}/review`,
      { rating, text: 'Clear explanations and good practice problems.' },
      student.jar,
    );
    expect(res.status, await res.clone().text()).toBe(201);
  }
}

async function featured(t: TestApp) {
  const res = await t.request('/api/tutors/featured');
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=60');
  return (await res.json()).tutor;
}

describe('the featured tutor', () => {
  it('is nobody without a listed tutor with a photo, then the best rated with one, by the search’s average', async () => {
    const t = await createTestApp({ env: { SMTP_URL: mailbox.smtpUrl } });
    try {
      expect(await featured(t)).toBeNull();
      // The best reviews of all, but no photo: never featured.
      const faceless = await tutor(t, 'Fay Faceless', ['Physics'], false);
      await reviewed(t, faceless, [5, 5]);
      expect(await featured(t)).toBeNull();

      const newcomer = await tutor(t, 'Nina Newcomer', ['Spanish']);
      expect(await featured(t)).toMatchObject({ id: newcomer.id, rating: { average: null, count: 0 } });
      // One 5-star review weighs less than two (as in the search's "Best rated").
      const once = await tutor(t, 'Otto Once', ['Piano']);
      await reviewed(t, once, [5]);
      const twice = await tutor(t, 'Tess Twice', ['Calculus', 'Algebra']);
      await reviewed(t, twice, [5, 5]);
      const best = await featured(t);
      expect(best).toEqual({
        id: twice.id,
        displayName: 'Tess Twice',
        subject: 'Calculus',
        photoVersion: expect.any(String),
        rating: { average: 5, count: 2 },
        verified: false,
      });
      // Its photo is the one the tutor's page shows.
      const photo = await t.request(`/api/tutors/${twice.id}/photo?v=${best.photoVersion}`);
      expect(photo.status).toBe(200);
      expect(JSON.stringify(best)).not.toContain('@');
    } finally {
      await t.close();
    }
  });

  it('between equal averages, prefers more reviews, then the most recently published', async () => {
    const t = await createTestApp({ env: { SMTP_URL: mailbox.smtpUrl } });
    try {
      // No review yet scores the prior, 4 stars: as much as four 4-star reviews, but on none.
      await tutor(t, 'Nico Nothing', ['French']);
      const more = await tutor(t, 'Mo More', ['Chemistry']);
      await reviewed(t, more, [4, 4, 4, 4]);
      const later = await tutor(t, 'Lea Later', ['Chemistry']);
      await reviewed(t, later, [4, 4, 4, 4]);
      expect((await featured(t)).id).toBe(later.id);
      await reviewed(t, more, [4]);
      expect((await featured(t)).id).toBe(more.id);
    } finally {
      await t.close();
    }
  });

  it('with tutor approval required, is only ever an approved tutor', async () => {
    const t = await createTestApp({ env: { SMTP_URL: mailbox.smtpUrl, REQUIRE_TUTOR_APPROVAL: 'true' } });
    // The same school before it required approval: an unlisted tutor cannot be reviewed, but
    // reviews written before approval was required stay.
    const before = await createTestApp({ database: t.database, env: { SMTP_URL: mailbox.smtpUrl } });
    try {
      const unapproved = await tutor(t, 'Una Unapproved', ['Guitar']);
      await reviewed(before, unapproved, [5, 5, 5]);
      expect(await featured(t)).toBeNull();

      const approved = await tutor(t, 'Abe Approved', ['Drawing']);
      expect((await send(t, 'POST', '/api/profile/verification-request', {}, approved.jar)).status).toBe(200);
      const admin = await verifiedPerson(t, mailbox, 'student', 'Ada Admin');
      const database = async (): Promise<Database> => ({ ...t.database, close: async () => {} });
      expect(await runAdminCommand(['grant', admin.email], database)).toMatchObject({ exitCode: 0 });
      const { jar } = await signIn(t, admin.email);
      expect((await send(t, 'POST', `/api/admin/verifications/${approved.id}/approve`, {}, jar)).status).toBe(
        200,
      );

      expect(await featured(t)).toMatchObject({ id: approved.id, verified: true, subject: 'Drawing' });
    } finally {
      await t.close();
    }
  });
});
