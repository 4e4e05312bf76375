/**
 * Card top-ups through Stripe Checkout, against a local stand-in of Stripe's API
 * (tests/support/stripe-stand-in.ts, reached through STRIPE_API_URL) whose webhooks are signed as
 * Stripe signs them. The balance is credited by the verified webhook only, once per payment: not
 * by the page the student returns to, not by a forged or replayed delivery; and also for a top-up
 * the student withdrew, since the card was charged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, send, verifiedPerson } from '../support/accounts';
import { type MailCatcher, startMailCatcher } from '../support/mail-catcher';
import { financeTotals, makeAdmin, walletOf } from '../support/money';
import { type StripeStandIn, startStripeStandIn } from '../support/stripe-stand-in';
import { createTestApp, type TestApp } from '../support/test-app';

const SECRET_KEY = 'sk_test_tutorlane_stand_in';
const WEBHOOK_SECRET = 'whsec_tutorlane_stand_in';

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

  it('acknowledges, and ignores, a signed event for a session it never opened', async () => {
    const student = await verifiedPerson(t, mailbox, 'student', 'Other Student');
    const res = await send(
      t,
      'POST',
      '/api/wallet/top-ups',
      { amountCents: 1000, method: 'stripe' },
      student.jar,
    );
    const { topUp } = await res.json();
    const [sessionId, opened] = [...stripe.sessions.entries()].at(-1) ?? [];
    // Another system's session that happens to name this top-up.
    if (opened) opened.session.id = 'cs_test_someone_else';
    const foreign = stripe.paidEvent(sessionId ?? '', { secret: WEBHOOK_SECRET });
    expect((await deliver(foreign.payload, foreign.header)).status).toBe(200);
    const wallet = await walletOf(t, student);
    expect(wallet.balance.amountCents).toBe(0);
    expect(wallet.topUps[0]).toMatchObject({ id: topUp.id, status: 'pending' });
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
