/**
 * The Stripe gateway against a local stand-in of Stripe's API, through the real `stripe` package:
 * the Checkout session it asks for, the webhook signatures it accepts and refuses, and the facts it
 * reads from a paid session. Nothing here reaches Stripe.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completedTopUp,
  createStripeGateway,
  type StripeGateway,
  StripeSignatureError,
} from '../../src/server/money/stripe';
import { type FormParams, type StripeStandIn, startStripeStandIn } from '../support/stripe-stand-in';

const secretKey = 'sk_test_tutorlane_stand_in';
const webhookSecret = 'whsec_tutorlane_stand_in';
const appUrl = 'https://school.example';
const topUpId = '6f1c2a4e-8b0d-4e43-9a51-3c7d2e9f0b18';

let standIn: StripeStandIn;
let gateway: StripeGateway;
/** A webhook endpoint that answers as the app's should: 200 for a verified event, 400 otherwise. */
let receiver: Server;
let webhookUrl: string;
const received: Stripe.Event[] = [];

beforeAll(async () => {
  standIn = await startStripeStandIn({ secretKey });
  gateway = createStripeGateway({ secretKey, webhookSecret, apiUrl: standIn.url }, appUrl);
  receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const header = req.headers['stripe-signature'];
    try {
      received.push(
        gateway.verifyEvent(
          Buffer.concat(chunks).toString('utf8'),
          typeof header === 'string' ? header : undefined,
        ),
      );
      res.statusCode = 200;
    } catch (error) {
      res.statusCode = error instanceof StripeSignatureError ? 400 : 500;
    }
    res.end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/payments/stripe/webhook`;
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await standIn.close();
});

const checkout = (id = topUpId) =>
  gateway.createCheckout({
    topUpId: id,
    amountCents: 2500,
    currency: 'EUR',
    customerEmail: 'sam@example.com',
  });

const at = (params: FormParams, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], params);

describe('createCheckout', () => {
  it('opens a one-line payment session for the top-up and returns its id and address', async () => {
    const { sessionId, url } = await checkout();

    expect(sessionId).toMatch(/^cs_test_/);
    const seen = standIn.sessions.get(sessionId);
    expect(seen).toBeDefined();
    if (!seen) return;
    expect(url).toBe(seen.session.url);
    expect(seen.session).toMatchObject({
      amount_total: 2500,
      currency: 'eur',
      client_reference_id: topUpId,
      metadata: { topUpId },
      payment_status: 'unpaid',
      status: 'open',
    });
    const { params } = seen;
    expect(params.mode).toBe('payment');
    expect(params.line_items).toHaveLength(1);
    expect(at(params, 'line_items', 0, 'quantity')).toBe('1');
    expect(at(params, 'line_items', 0, 'price_data')).toEqual({
      currency: 'eur',
      unit_amount: '2500',
      product_data: { name: 'Wallet top-up' },
    });
    expect(params.customer_email).toBe('sam@example.com');
    expect(params.success_url).toBe(`${appUrl}/wallet?topUp=${topUpId}&paid=1`);
    expect(params.cancel_url).toBe(`${appUrl}/wallet?topUp=${topUpId}&cancelled=1`);
  });

  it('returns the session already opened when asked again for the same top-up', async () => {
    const id = '0b7e3f10-5d2c-4a8e-b6f1-9e4d3c2a1b00';
    const first = await checkout(id);
    const again = await checkout(id);
    expect(again).toEqual(first);
    expect([...standIn.sessions.values()].filter((s) => s.session.client_reference_id === id)).toHaveLength(
      1,
    );
  });

  it("fails with Stripe's authentication error when the secret key is wrong", async () => {
    const wrongKey = createStripeGateway(
      { secretKey: 'sk_test_not_this_school', webhookSecret, apiUrl: `${standIn.url}/` },
      appUrl,
    );
    await expect(
      wrongKey.createCheckout({
        topUpId,
        amountCents: 500,
        currency: 'usd',
        customerEmail: 'sam@example.com',
      }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });
});

describe('verifyEvent', () => {
  it("accepts the stand-in's signed delivery of a paid session, and the same delivery replayed", async () => {
    const { sessionId } = await checkout('9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d');
    const before = received.length;

    const delivery = await standIn.completeSession(sessionId, { webhookUrl, secret: webhookSecret });

    expect(delivery.status).toBe(200);
    expect(received).toHaveLength(before + 1);
    expect(received.at(-1)?.id).toBe(delivery.event.id);
    expect(standIn.sessions.get(sessionId)?.session.payment_status).toBe('paid');
    // Stripe may deliver an event twice: the signature still holds, and crediting only once is the
    // ledger's part.
    expect(gateway.verifyEvent(delivery.payload, delivery.header).id).toBe(delivery.event.id);
  });

  it('refuses a delivery signed with another secret', async () => {
    const { sessionId } = await checkout('1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a');
    const delivery = await standIn.completeSession(sessionId, {
      webhookUrl,
      secret: webhookSecret,
      tamper: true,
    });
    expect(delivery.status).toBe(400);
    expect(() => gateway.verifyEvent(delivery.payload, delivery.header)).toThrow(StripeSignatureError);
    expect(standIn.sessions.get(sessionId)?.session.payment_status).toBe('unpaid');
  });

  it('refuses a body changed after it was signed', async () => {
    const { sessionId } = await checkout('2e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b');
    const { payload, header } = standIn.paidEvent(sessionId, { secret: webhookSecret });
    const richer = payload.replace('"amount_total": 2500', '"amount_total": 250000');
    expect(richer).not.toBe(payload);
    expect(() => gateway.verifyEvent(richer, header)).toThrow(StripeSignatureError);
  });

  it('refuses a correct delivery when the gateway holds another webhook secret', async () => {
    const { sessionId } = await checkout('3f4a5b6c-7d8e-4f9a-8b1c-2d3e4f5a6b7c');
    const { payload, header } = standIn.paidEvent(sessionId, { secret: webhookSecret });
    const otherEndpoint = createStripeGateway(
      { secretKey, webhookSecret: 'whsec_another_endpoint', apiUrl: standIn.url },
      appUrl,
    );
    expect(() => otherEndpoint.verifyEvent(payload, header)).toThrow(StripeSignatureError);
  });

  it('refuses a delivery without a signature header', async () => {
    const { sessionId } = await checkout('4a5b6c7d-8e9f-4a0b-9c2d-3e4f5a6b7c8d');
    const { payload } = standIn.paidEvent(sessionId, { secret: webhookSecret });
    expect(() => gateway.verifyEvent(payload, undefined)).toThrow(StripeSignatureError);
    expect(() => gateway.verifyEvent(payload, '')).toThrow(StripeSignatureError);
  });

  it('refuses a delivery signed more than five minutes ago (a captured one sent again later)', async () => {
    const { sessionId } = await checkout('5b6c7d8e-9f0a-4b1c-8d3e-4f5a6b7c8d9e');
    const { payload } = standIn.paidEvent(sessionId, { secret: webhookSecret });
    const old = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: webhookSecret,
      timestamp: Math.floor(Date.now() / 1000) - 10 * 60,
    });
    expect(() => gateway.verifyEvent(payload, old)).toThrow(StripeSignatureError);
  });
});

describe('completedTopUp', () => {
  /** A Checkout session event as Stripe sends it, with only the fields completedTopUp reads. */
  const sessionEvent = (type: string, session: Record<string, unknown>) =>
    ({
      id: 'evt_test_1',
      object: 'event',
      type,
      data: {
        object: {
          id: 'cs_test_1',
          object: 'checkout.session',
          amount_total: 2500,
          currency: 'eur',
          client_reference_id: topUpId,
          metadata: { topUpId },
          payment_status: 'paid',
          ...session,
        },
      },
    }) as unknown as Stripe.Event;

  it('reads the top-up, the amount and the currency from a paid session', async () => {
    const { sessionId } = await checkout('6c7d8e9f-0a1b-4c2d-9e4f-5a6b7c8d9e0f');
    const { event } = standIn.paidEvent(sessionId, { secret: webhookSecret });
    expect(completedTopUp(event)).toEqual({
      sessionId,
      topUpId: '6c7d8e9f-0a1b-4c2d-9e4f-5a6b7c8d9e0f',
      amountCents: 2500,
      currency: 'EUR',
    });
  });

  it('counts a session paid later by a slow method as paid', () => {
    expect(completedTopUp(sessionEvent('checkout.session.async_payment_succeeded', {}))).toMatchObject({
      topUpId,
      amountCents: 2500,
    });
  });

  it('falls back on the client reference when the metadata is missing', () => {
    expect(completedTopUp(sessionEvent('checkout.session.completed', { metadata: {} }))?.topUpId).toBe(
      topUpId,
    );
  });

  it('ignores a session not yet paid, one naming no top-up, and every other event', () => {
    expect(
      completedTopUp(sessionEvent('checkout.session.completed', { payment_status: 'unpaid' })),
    ).toBeNull();
    expect(
      completedTopUp(sessionEvent('checkout.session.completed', { metadata: {}, client_reference_id: null })),
    ).toBeNull();
    expect(completedTopUp(sessionEvent('checkout.session.expired', { payment_status: 'unpaid' }))).toBeNull();
    expect(completedTopUp(sessionEvent('checkout.session.async_payment_failed', {}))).toBeNull();
    expect(
      completedTopUp({
        id: 'evt_test_2',
        object: 'event',
        type: 'payment_intent.succeeded',
        data: { object: { id: 'pi_test_1', object: 'payment_intent', amount: 2500, currency: 'eur' } },
      } as unknown as Stripe.Event),
    ).toBeNull();
  });
});
