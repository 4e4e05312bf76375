/**
 * Card top-ups through Stripe Checkout, against a local stand-in of Stripe's API
 * (tests/support/stripe-stand-in.ts, reached through STRIPE_API_URL) whose webhooks are signed as
 * Stripe signs them. The balance is credited by the verified webhook only, once per payment: not
 * by the page the student returns to, not by a forged or replayed delivery; and also for a top-up
 * the student withdrew, since the card was charged. A payment that cannot be credited (a rejected
 * top-up, another amount, another payment page) is kept for an admin, logged as an error and
 * counted, once per payment; an admin cannot reject a card top-up that Stripe may still charge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CookieJar, get, send, verifiedPerson } from '../support/accounts';
import { type MailCatcher, startMailCatcher } from '../support/mail-catcher';
import { financeTotals, makeAdmin, walletOf } from '../support/money';
import { type StripeStandIn, startStripeStandIn } from '../support/stripe-stand-in';
import { createTestApp, type TestApp } from '../support/test-app';

const SECRET_KEY = 'sk_test_tutorlane_stand_in';
const WEBHOOK_SECRET = 'whsec_tutorlane_stand_in';
const METRICS_TOKEN = 'card-top-ups-metrics-token';

let t: TestApp;
let mailbox: MailCatcher;
let stripe: StripeStandIn;
beforeAll(async () => {
  mailbox = await startMailCatcher();
  stripe = await startStripeStandIn({ secretKey: SECRET_KEY });
  t = await createTestApp({
    env: {
      SMTP_URL: mailbox.smtpUrl,
      PAYMENTS: 'on',
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
      METRICS_TOKEN,
    },
  });
});
afterAll(async () => {
  await t.close();
  await stripe.close();
  await mailbox.close();
});

const deliver = (payload: string, header?: string) =>
  t.request('/api/payments/stripe/webhook', {
    method: 'POST',
    body: payload,
    headers: { 'content-type': 'application/json', ...(header ? { 'stripe-signature': header } : {}) },
  });

/** A card top-up asked for by the student, and the Checkout session the stand-in opened for it. */
async function cardTopUp(student: { jar: CookieJar }, amountCents: number) {
  const res = await send(t, 'POST', '/api/wallet/top-ups', { amountCents, method: 'stripe' }, student.jar);
  expect(res.status, await res.clone().text()).toBe(201);
  const { topUp } = (await res.json()) as { topUp: { id: string } };
  const [sessionId, opened] = [...stripe.sessions.entries()].at(-1) ?? [];
  if (!sessionId || !opened) throw new Error('the stand-in opened no session');
  return { topUp, sessionId, session: opened.session };
}

interface Unapplied {
  id: string;
  provider: string;
  topUpId: string;
  amountCents: number;
  currency: string;
  reportedAt: string;
  reason: string;
}

async function unappliedPayments(admin: { jar: CookieJar }, topUpId: string): Promise<Unapplied[]> {
  const res = await get(t, '/api/admin/finance', admin.jar);
  expect(res.status, await res.clone().text()).toBe(200);
  const { unappliedPayments: all } = (await res.json()) as { unappliedPayments: Unapplied[] };
  return all.filter((payment) => payment.topUpId === topUpId);
}

async function unappliedCount(): Promise<number> {
  const res = await t.request('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  const line = (await res.text())
    .split('\n')
    .find((text) => text.startsWith('tutorlane_unapplied_payments_total'));
  return Number(line?.split(' ')[1]);
}

describe('card top-ups', () => {
  it('opens a Checkout session for the amount and credits the balance only from the signed webhook, once', async () => {
    const student = await verifiedPerson(t, mailbox, 'student', 'Card Student');
    const admin = await makeAdmin(t, await verifiedPerson(t, mailbox, 'student', 'Card Admin'));
    expect((await (await get(t, '/api/config')).json()).payments).toMatchObject({ on: true, stripe: true });
    const res = await send(
      t,
      'POST',
      '/api/wallet/top-ups',
      { amountCents: 2500, method: 'stripe' },
      student.jar,
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const { topUp, checkoutUrl } = await res.json();
    expect(topUp).toMatchObject({ method: 'stripe', status: 'pending', amountCents: 2500, instructions: '' });
    const [sessionId, opened] = [...stripe.sessions.entries()].at(-1) ?? [];
    expect(checkoutUrl).toBe(opened?.session.url);
    expect(opened?.session).toMatchObject({
      amount_total: 2500,
      currency: 'usd',
      client_reference_id: topUp.id,
    });

    // Coming back from Stripe's page proves nothing: the balance waits for the webhook.
    expect((await walletOf(t, student)).balance.amountCents).toBe(0);

    // A forged delivery: 400, nothing credited; an unsigned one too.
    const forged = stripe.paidEvent(sessionId ?? '', { secret: WEBHOOK_SECRET, tamper: true });
    expect((await deliver(forged.payload, forged.header)).status).toBe(400);
    expect((await deliver(forged.payload)).status).toBe(400);
    expect((await walletOf(t, student)).balance.amountCents).toBe(0);

    // The real one, then the same delivery again and again: credited once.
    const paid = stripe.paidEvent(sessionId ?? '', { secret: WEBHOOK_SECRET });
    const answers = await Promise.all([1, 2, 3].map(() => deliver(paid.payload, paid.header)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const wallet = await walletOf(t, student);
    expect(wallet.balance.amountCents).toBe(2500);
    expect(wallet.topUps[0]).toMatchObject({ id: topUp.id, status: 'confirmed' });
    const totals = await financeTotals(t, admin);
    expect(totals.stripe).toBe(-2500);
    // An admin cannot credit a card payment by hand.
    expect((await send(t, 'POST', `/api/admin/top-ups/${topUp.id}/confirm`, {}, admin.jar)).status).toBe(409);
  });

  it('acknowledges a signed event for a session it never opened, crediting nothing and keeping it for an admin', async () => {
    const student = await verifiedPerson(t, mailbox, 'student', 'Other Student');
    const admin = await makeAdmin(t, await verifiedPerson(t, mailbox, 'student', 'Other Admin'));
    const { topUp, sessionId, session } = await cardTopUp(student, 1000);
    // Another payment page, paid, that happens to name this top-up.
    session.id = 'cs_test_someone_else';
    const foreign = stripe.paidEvent(sessionId, { secret: WEBHOOK_SECRET });
    expect((await deliver(foreign.payload, foreign.header)).status).toBe(200);
    const wallet = await walletOf(t, student);
    expect(wallet.balance.amountCents).toBe(0);
    expect(wallet.topUps[0]).toMatchObject({ id: topUp.id, status: 'pending' });
    expect(await unappliedPayments(admin, topUp.id)).toMatchObject([
      { topUpId: topUp.id, amountCents: 1000, currency: 'USD', reason: 'session_differs' },
    ]);
  });

  it('refuses to let an admin reject a card top-up that Stripe may still charge', async () => {
    const student = await verifiedPerson(t, mailbox, 'student', 'Patient Student');
    const admin = await makeAdmin(t, await verifiedPerson(t, mailbox, 'student', 'Hasty Admin'));
    const { topUp, sessionId } = await cardTopUp(student, 1000);
    const refused = await send(
      t,
      'POST',
      `/api/admin/top-ups/${topUp.id}/reject`,
      { note: 'Nothing arrived' },
      admin.jar,
    );
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      code: 'CARD_TOP_UP',
      message:
        'A card top-up cannot be rejected: Stripe may still charge the card, and only Stripe settles it',
    });
    expect((await walletOf(t, student)).topUps[0]).toMatchObject({ id: topUp.id, status: 'pending' });
    // Stripe charges the card later: the money reaches the wallet.
    const paid = stripe.paidEvent(sessionId, { secret: WEBHOOK_SECRET });
    expect((await deliver(paid.payload, paid.header)).status).toBe(200);
    expect((await walletOf(t, student)).balance.amountCents).toBe(1000);
    expect(await unappliedPayments(admin, topUp.id)).toEqual([]);
  });

  it('keeps a payment of another amount for an admin, logged as an error and counted once however often Stripe delivers it', async () => {
    const student = await verifiedPerson(t, mailbox, 'student', 'Odd Amount Student');
    const admin = await makeAdmin(t, await verifiedPerson(t, mailbox, 'student', 'Odd Amount Admin'));
    const countBefore = await unappliedCount();
    const cases = [
      { paidCents: 999, reason: 'amount_differs' },
      { paidCents: 100_000, reason: 'amount_differs' },
    ];
    for (const { paidCents, reason } of cases) {
      const { topUp, sessionId, session } = await cardTopUp(student, 1000);
      session.amount_total = paidCents;
      const paid = stripe.paidEvent(sessionId, { secret: WEBHOOK_SECRET });
      // Delivered three times at once, and once more later: every answer a 200, kept once.
      const answers = await Promise.all([1, 2, 3].map(() => deliver(paid.payload, paid.header)));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect((await deliver(paid.payload, paid.header)).status).toBe(200);
      const kept = await unappliedPayments(admin, topUp.id);
      expect(kept).toEqual([
        {
          id: expect.any(String),
          provider: 'stripe',
          topUpId: topUp.id,
          amountCents: paidCents,
          currency: 'USD',
          reportedAt: expect.any(String),
          reason,
        },
      ]);
      expect(Date.now() - Date.parse(kept[0]?.reportedAt ?? '')).toBeLessThan(60_000);
      const wallet = await walletOf(t, student);
      expect(wallet.balance.amountCents).toBe(0);
      expect(wallet.topUps[0]).toMatchObject({ id: topUp.id, status: 'pending' });
      const errors = t.logLines.filter(
        (line) => line.includes('"level":50') && line.includes(topUp.id) && line.includes('card payment'),
      );
      expect(errors).toHaveLength(1);
    }
    expect(await unappliedCount()).toBe(countBefore + cases.length);
    // Nothing reached a wallet, so the ledger holds none of it.
    expect((await financeTotals(t, admin)).stripe).toBe(-2500 - 1000);
  });

  it('keeps a payment for a top-up rejected before the card was charged', async () => {
    const student = await verifiedPerson(t, mailbox, 'student', 'Late Payer');
    const admin = await makeAdmin(t, await verifiedPerson(t, mailbox, 'student', 'Late Admin'));
    const { topUp, sessionId } = await cardTopUp(student, 1500);
    // As a card top-up rejected before admins were stopped from doing so would be.
    await t.database.db
      .updateTable('top_ups')
      .set({ status: 'rejected' })
      .where('id', '=', topUp.id)
      .execute();
    const paid = stripe.paidEvent(sessionId, { secret: WEBHOOK_SECRET });
    expect((await deliver(paid.payload, paid.header)).status).toBe(200);
    expect((await walletOf(t, student)).balance.amountCents).toBe(0);
    expect(await unappliedPayments(admin, topUp.id)).toMatchObject([
      { topUpId: topUp.id, amountCents: 1500, currency: 'USD', reason: 'top_up_rejected' },
    ]);
  });

  it('credits a withdrawn card top-up that is paid all the same: the card was charged', async () => {
    const student = await verifiedPerson(t, mailbox, 'student', 'Changed Mind');
    const res = await send(
      t,
      'POST',
      '/api/wallet/top-ups',
      { amountCents: 1500, method: 'stripe' },
      student.jar,
    );
    const { topUp } = await res.json();
    const [sessionId] = [...stripe.sessions.entries()].at(-1) ?? [];
    const withdrawn = await send(t, 'POST', `/api/wallet/top-ups/${topUp.id}/withdraw`, {}, student.jar);
    expect((await withdrawn.json()).topUp).toMatchObject({ status: 'withdrawn' });
    // The payment page was still open, and the student paid there.
    const paid = stripe.paidEvent(sessionId ?? '', { secret: WEBHOOK_SECRET });
    expect((await deliver(paid.payload, paid.header)).status).toBe(200);
    const wallet = await walletOf(t, student);
    expect(wallet.balance.amountCents).toBe(1500);
    expect(wallet.topUps[0]).toMatchObject({ id: topUp.id, status: 'confirmed' });
  });
});
