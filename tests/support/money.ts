/**
 * What the money tests share: a published tutor who can be booked, an admin, a wallet topped up
 * through the admin's confirmation, and the finance totals, which must always sum to zero.
 */
import { expect } from 'vitest';
import { grantAdmin } from '../../src/server/admin/admins';
import { type CookieJar, get, send } from './accounts';
import { openAvailability } from './lessons';
import type { TestApp } from './test-app';

interface Someone {
  jar: CookieJar;
  id: string;
  email: string;
}

/** Publishes `who` as a tutor at `hourlyRate` (Algebra and Calculus) with open availability. */
export async function publishTutor<Who extends Someone>(
  t: TestApp,
  who: Who,
  options: { hourlyRate?: number; instantBooking?: boolean } = {},
) {
  const profile = await send(
    t,
    'PATCH',
    '/api/profile/details',
    {
      headline: 'Algebra made calm',
      about: 'Step by step, at your pace.',
      subjects: ['Algebra', 'Calculus'],
      hourlyRate: options.hourlyRate ?? 40,
      languages: ['English'],
    },
    who.jar,
  );
  expect(profile.status, await profile.clone().text()).toBe(200);
  const availability = { ...openAvailability, instantBooking: options.instantBooking ?? true };
  const res = await send(t, 'PUT', '/api/availability', availability, who.jar);
  expect(res.status, await res.clone().text()).toBe(200);
  return who;
}

export async function makeAdmin<Who extends Someone>(t: TestApp, who: Who) {
  await grantAdmin(t.database.db, who.email);
  return who;
}

/** A manual top-up asked for by the student and confirmed by the admin: the balance is credited. */
export async function topUp(t: TestApp, student: Someone, admin: Someone, amountCents: number) {
  const asked = await send(t, 'POST', '/api/wallet/top-ups', { amountCents, method: 'manual' }, student.jar);
  expect(asked.status, await asked.clone().text()).toBe(201);
  const { topUp: pending } = (await asked.json()) as { topUp: { id: string } };
  const confirmed = await send(t, 'POST', `/api/admin/top-ups/${pending.id}/confirm`, {}, admin.jar);
  expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  return pending.id;
}

export async function walletOf(t: TestApp, who: Someone) {
  const res = await get(t, '/api/wallet', who.jar);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

/** The admin's finance totals, checked to sum to zero, in cents. */
export async function financeTotals(t: TestApp, admin: Someone) {
  const res = await get(t, '/api/admin/finance', admin.jar);
  expect(res.status, await res.clone().text()).toBe(200);
  const { totals } = (await res.json()) as {
    totals: Record<string, { amountCents: number }> & {
      clearing: { manual: { amountCents: number }; stripe: { amountCents: number } };
    };
  };
  const cents = {
    studentBalances: totals.studentBalances?.amountCents ?? 0,
    held: totals.held?.amountCents ?? 0,
    packages: totals.packages?.amountCents ?? 0,
    tutorPayable: totals.tutorPayable?.amountCents ?? 0,
    schoolRevenue: totals.schoolRevenue?.amountCents ?? 0,
    manual: totals.clearing.manual.amountCents,
    stripe: totals.clearing.stripe.amountCents,
  };
  expect(Object.values(cents).reduce((sum, value) => sum + value, 0)).toBe(0);
  return cents;
}
