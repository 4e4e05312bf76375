/**
 * Money over HTTP for the people who pay and are paid (docs/api.md, "Wallet"):
 * - GET /api/wallet and GET /api/wallet/summary (verified users);
 * - POST /api/wallet/top-ups (verified students; by bank transfer, or by card through Stripe
 *   Checkout when it is configured), and POST /api/wallet/top-ups/:id/withdraw (its student);
 * - GET /api/wallet/transactions/:id/receipt (the transaction's owner; anyone else: 404);
 * - POST /api/payments/stripe/webhook (Stripe; the signature is the only key). A card top-up is
 *   credited here and nowhere else, never by the page Stripe sends the student back to.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { UnappliedPaymentReason } from '../../shared/money/unapplied-payments';
import type { PaymentsConfig } from '../config/config';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { idempotent } from '../http/idempotency';
import { languageOf } from '../http/language';
import { validate } from '../http/validation';
import { type SessionReader, verifiedOnly, verifiedWithRole } from '../platform/session-guards';
import { browserZoneQuery, zoneOf } from '../platform/user-time-zone';
import { limitByUser, type RateLimiters } from '../rate-limit/rate-limits';
import type { SettingsSnapshot } from '../settings/settings-snapshot';
import { receiptHtml, receiptOf } from './receipts';
import {
  applyCardPayment,
  attachCheckoutSession,
  type CardPayment,
  checkTopUpAmount,
  createTopUp,
  isTopUpId,
  topUpMessages,
  toTopUpView,
  withdrawTopUp,
} from './top-ups';
import { balanceSummary, studentWallet, tutorWallet, type WalletSettings } from './wallet';

/** Card payments through Stripe (./stripe.ts), as the routes need them. */
export interface CardPayments {
  createCheckout(input: {
    topUpId: string;
    amountCents: number;
    currency: string;
    customerEmail: string;
  }): Promise<{ sessionId: string; url: string }>;
  /** The facts of a paid Checkout session, from a delivery whose signature checks; throws otherwise. */
  paidSession(rawBody: string, signature: string | undefined): CardPayment | null;
}

/** Told of each card payment newly kept for an admin (the metrics count them). */
export interface PaymentObserver {
  unapplied(reason: UnappliedPaymentReason): void;
}

export const walletMessages = {
  paymentsOff: /*i18n*/ 'This school does not take payments through Tutorlane',
  stripeOff: /*i18n*/ 'Card payments are not set up at this school. Please choose a bank transfer.',
  studentsTopUp: /*i18n*/ 'Only students top up a wallet',
  cardUnavailable: /*i18n*/ 'The card payment page could not be opened. Please try again in a moment.',
  receiptNotFound: /*i18n*/ 'This receipt does not exist',
  badSignature: /*i18n*/ 'The webhook signature does not match',
} as const;

const topUpSchema = z.strictObject({
  amountCents: z
    .number({
      error:
        /*i18n*/ 'Please give the amount in the currency’s minor unit (cents for USD), as a whole number',
    })
    .int(/*i18n*/ 'Please give the amount in the currency’s minor unit (cents for USD), as a whole number'),
  method: z.enum(['manual', 'stripe'], { error: /*i18n*/ 'Please choose a bank transfer or a card' }),
});
const pageSchema = z.object({
  before: z.coerce
    .number({ error: /*i18n*/ 'before must be a transaction id' })
    .int(/*i18n*/ 'before must be a transaction id')
    .positive(/*i18n*/ 'before must be a transaction id')
    .optional(),
});
const topUpParam = z.object({ id: z.string().refine(isTopUpId) });
const receiptParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

const studentsOnly = verifiedWithRole(['student', 'parent'], walletMessages.studentsTopUp);

export function walletRoutes(deps: {
  db: Kysely<DB>;
  sessions: SessionReader;
  limiters: RateLimiters;
  payments: PaymentsConfig;
  settings: SettingsSnapshot;
  cards: CardPayments | undefined;
  observer?: PaymentObserver;
}) {
  const { db, payments, cards } = deps;
  const { loadSession } = deps.sessions;
  // The payment instructions are a site setting: read with each request, so a change shows at once.
  const instructions = async () => (await deps.settings.get()).paymentInstructions;
  const walletSettings = async (): Promise<WalletSettings> => ({
    on: payments.on,
    currency: payments.currency,
    instructions: await instructions(),
    stripe: cards !== undefined,
  });
  return new Hono<AppEnv>()
    .get('/wallet/summary', loadSession, verifiedOnly, async (c) => {
      const user = c.var.user;
      return c.json(
        {
          payments: payments.on ? ('on' as const) : ('off' as const),
          role: user.role,
          balance: await balanceSummary(db, payments, user),
        },
        200,
      );
    })
    .get('/wallet', loadSession, verifiedOnly, validate('query', pageSchema), async (c) => {
      const user = c.var.user;
      const { before } = c.req.valid('query');
      const settings = await walletSettings();
      // A parent's wallet is a student's: a balance, top-ups, and the holds of what it paid for.
      return user.role === 'student' || user.role === 'parent'
        ? c.json(await studentWallet(db, settings, user.id, before), 200)
        : c.json(await tutorWallet(db, settings, user.id, before), 200);
    })
    .post(
      '/wallet/top-ups',
      loadSession,
      studentsOnly,
      limitByUser(deps.limiters, 'topUps'),
      idempotent(db),
      validate('json', topUpSchema),
      async (c) => {
        const { amountCents, method } = c.req.valid('json');
        if (!payments.on) throw new ApiError(409, walletMessages.paymentsOff, 'PAYMENTS_OFF');
        checkTopUpAmount(amountCents, payments.currency);
        if (method === 'stripe' && !cards)
          throw new ApiError(409, walletMessages.stripeOff, 'STRIPE_NOT_CONFIGURED');
        const user = c.var.user;
        const row = await createTopUp(db, {
          studentId: user.id,
          amountCents,
          currency: payments.currency,
          method,
          now: Date.now(),
          requestKey: c.var.requestKey,
        });
        const topUp = toTopUpView(row, await instructions());
        if (method === 'manual' || !cards) return c.json({ topUp }, 201);
        let checkout: { sessionId: string; url: string };
        try {
          checkout = await cards.createCheckout({
            topUpId: row.id,
            amountCents,
            currency: payments.currency,
            customerEmail: user.email,
          });
        } catch (error) {
          c.get('logger').warn({ err: (error as Error).message, topUpId: row.id }, 'stripe checkout failed');
          throw new ApiError(502, walletMessages.cardUnavailable, 'PAYMENT_PROVIDER_UNAVAILABLE');
        }
        await attachCheckoutSession(db, row.id, checkout.sessionId);
        return c.json({ topUp, checkoutUrl: checkout.url }, 201);
      },
    )
    .post(
      '/wallet/top-ups/:id/withdraw',
      loadSession,
      studentsOnly,
      validate('param', topUpParam, topUpMessages.notFound),
      async (c) => {
        const row = await withdrawTopUp(db, c.var.user.id, c.req.valid('param').id, Date.now());
        return c.json({ topUp: toTopUpView(row, await instructions()) }, 200);
      },
    )
    .get(
      '/wallet/transactions/:id/receipt',
      loadSession,
      verifiedOnly,
      validate('param', receiptParam, walletMessages.receiptNotFound),
      validate('query', browserZoneQuery),
      async (c) => {
        const receipt = await receiptOf(db, c.var.user.id, c.req.valid('param').id);
        if (!receipt) throw new ApiError(404, walletMessages.receiptNotFound, 'NOT_FOUND');
        const support = (await deps.settings.get()).support.email;
        const { timeZone } = await zoneOf(db, c.var.user.id, c.req.valid('query').timeZone);
        c.header('Cache-Control', 'private, no-store');
        return c.html(
          receiptHtml({
            ...receipt,
            supportEmail: support,
            name: c.var.user.displayName,
            timeZone,
            language: languageOf(c),
          }),
        );
      },
    )
    .post('/payments/stripe/webhook', async (c) => {
      // Without Stripe's keys there is no signature to check a delivery against: no such endpoint.
      if (!cards) throw new ApiError(404, walletMessages.stripeOff, 'NOT_FOUND');
      const body = await c.req.text();
      let paid: ReturnType<CardPayments['paidSession']>;
      try {
        paid = cards.paidSession(body, c.req.header('stripe-signature'));
      } catch {
        c.get('logger').warn({}, 'stripe webhook with a bad signature');
        throw new ApiError(400, walletMessages.badSignature, 'BAD_SIGNATURE');
      }
      // Anything but a paid session (another event, a session of something else) changes nothing.
      // A paid one is credited, or kept for an admin when it cannot be (a rejected top-up, another
      // amount): the money is in the school's Stripe account either way. Both are acknowledged,
      // so Stripe stops sending them; a repeated delivery is neither credited nor kept twice.
      if (paid) {
        const applied = await applyCardPayment(db, paid, Date.now());
        const logger = c.get('logger');
        const facts = {
          topUpId: paid.topUpId,
          sessionId: paid.sessionId,
          amountCents: paid.amountCents,
          currency: paid.currency,
        };
        if (applied.outcome === 'credited') logger.info({ topUpId: paid.topUpId }, 'card top-up credited');
        else if (applied.outcome === 'unapplied' && applied.recorded) {
          logger.error(
            { ...facts, reason: applied.reason },
            'card payment not applied to any wallet: kept for an admin',
          );
          deps.observer?.unapplied(applied.reason);
        } else if (applied.outcome === 'unapplied')
          logger.info({ ...facts, reason: applied.reason }, 'card payment already kept for an admin');
      }
      return c.json({ received: true }, 200);
    });
}
