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
import { type Amount, formatAmount } from '../../shared/amounts';
import { PRODUCT_NAME } from '../../shared/constants';
import { type SessionReader, verifiedOnly, verifiedWithRole } from '../accounts/session';
import type { PaymentsConfig } from '../config/config';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { validate } from '../http/validation';
import { escapeHtml } from '../mail/html';
import { limitByUser, type RateLimiters } from '../rate-limit/rate-limits';
import type { SettingsSnapshot } from '../settings/settings-snapshot';
import {
  attachCheckoutSession,
  checkTopUpAmount,
  confirmCardTopUp,
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
  paidSession(
    rawBody: string,
    signature: string | undefined,
  ): { sessionId: string; topUpId: string; amountCents: number; currency: string } | null;
}

export const walletMessages = {
  paymentsOff: 'This school does not take payments through Tutorlane',
  stripeOff: 'Card payments are not set up at this school. Please choose a bank transfer.',
  studentsTopUp: 'Only students top up a wallet',
  cardUnavailable: 'The card payment page could not be opened. Please try again in a moment.',
  receiptNotFound: 'This receipt does not exist',
  badSignature: 'The webhook signature does not match',
} as const;

const topUpSchema = z.strictObject({
  amountCents: z
    .number({ error: 'Please give the amount in cents, as a whole number' })
    .int('Please give the amount in cents, as a whole number'),
  method: z.enum(['manual', 'stripe'], { error: 'Please choose a bank transfer or a card' }),
});
const pageSchema = z.object({
  before: z.coerce
    .number({ error: 'before must be a transaction id' })
    .int('before must be a transaction id')
    .positive('before must be a transaction id')
    .optional(),
});
const topUpParam = z.object({ id: z.string().refine(isTopUpId) });
const receiptParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

const studentsOnly = verifiedWithRole('student', walletMessages.studentsTopUp);

export function walletRoutes(deps: {
  db: Kysely<DB>;
  sessions: SessionReader;
  limiters: RateLimiters;
  payments: PaymentsConfig;
  settings: SettingsSnapshot;
  cards: CardPayments | undefined;
}) {
  const { db, payments, cards } = deps;
  const { loadSession } = deps.sessions;
  const settings: WalletSettings = {
    on: payments.on,
    currency: payments.currency,
    instructions: payments.instructions,
    stripe: cards !== undefined,
  };
  return new Hono<AppEnv>()
    .get('/wallet/summary', loadSession, verifiedOnly, async (c) => {
      const user = c.var.user;
      return c.json(
        {
          payments: payments.on ? ('on' as const) : ('off' as const),
          role: user.role,
          balance: await balanceSummary(db, settings, user),
        },
        200,
      );
    })
    .get('/wallet', loadSession, verifiedOnly, validate('query', pageSchema), async (c) => {
      const user = c.var.user;
      const { before } = c.req.valid('query');
      return user.role === 'student'
        ? c.json(await studentWallet(db, settings, user.id, before), 200)
        : c.json(await tutorWallet(db, settings, user.id, before), 200);
    })
    .post(
      '/wallet/top-ups',
      loadSession,
      studentsOnly,
      limitByUser(deps.limiters, 'topUps'),
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
        });
        const topUp = toTopUpView(row, payments.instructions);
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
        return c.json({ topUp: toTopUpView(row, payments.instructions) }, 200);
      },
    )
    .get(
      '/wallet/transactions/:id/receipt',
      loadSession,
      verifiedOnly,
      validate('param', receiptParam, walletMessages.receiptNotFound),
      async (c) => {
        const receipt = await receiptOf(db, c.var.user.id, c.req.valid('param').id);
        if (!receipt) throw new ApiError(404, walletMessages.receiptNotFound, 'NOT_FOUND');
        const support = (await deps.settings.get()).support.email;
        c.header('Cache-Control', 'private, no-store');
        return c.html(receiptHtml({ ...receipt, supportEmail: support, name: c.var.user.displayName }));
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
      // Anything but a paid session (another event, a session we never made, a replay) changes
      // nothing and is still acknowledged, so Stripe stops sending it.
      if (paid) {
        const credited = await confirmCardTopUp(db, paid, Date.now());
        if (credited) c.get('logger').info({ topUpId: paid.topUpId }, 'card top-up credited');
      }
      return c.json({ received: true }, 200);
    });
}

/** A transaction that touched the user's own balance or payable account, as their receipt shows it. */
async function receiptOf(db: Kysely<DB>, userId: string, transactionId: number) {
  const row = await db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .innerJoin('ledger_accounts as a', 'a.id', 'e.account_id')
    .select(['t.id', 't.kind', 't.memo', 't.created_at', 'e.amount_cents', 'a.currency'])
    .where('t.id', '=', transactionId)
    .where('a.user_id', '=', userId)
    .where('a.kind', 'in', ['balance', 'payable'])
    .executeTakeFirst();
  return row
    ? {
        number: row.id,
        kind: row.kind,
        memo: row.memo,
        at: row.created_at,
        amount: { amountCents: row.amount_cents, currency: row.currency },
      }
    : undefined;
}

const KIND_TITLES: Record<string, string> = {
  top_up: 'Wallet top-up',
  lesson_hold: 'Lesson booked',
  lesson_release: 'Lesson price returned',
  lesson_settle: 'Lesson earnings',
  lesson_refund: 'Lesson refund',
  payout: 'Payout',
  balance_refund: 'Balance refund',
  package_buy: 'Lesson package',
  package_end: 'Lesson package ended',
  package_refund: 'Lesson package refunded',
};

/** A receipt number as people read it: R- and at least six digits. */
export const receiptNumber = (id: number) => `R-${String(id).padStart(6, '0')}`;

function receiptHtml(receipt: {
  number: number;
  kind: string;
  memo: string;
  at: Date;
  amount: Amount;
  supportEmail: string;
  name: string;
}) {
  const title = `${PRODUCT_NAME} receipt ${receiptNumber(receipt.number)}`;
  const rows: [string, string][] = [
    ['Receipt number', receiptNumber(receipt.number)],
    ['Date', `${receipt.at.toISOString().slice(0, 16).replace('T', ' ')} UTC`],
    ['For', receipt.name],
    ['What', KIND_TITLES[receipt.kind] ?? receipt.kind],
    ['Details', receipt.memo],
    ['Amount', formatAmount(receipt.amount.amountCents, receipt.amount.currency)],
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#0f172a}
h1{font-size:1.5rem}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.5rem;border-bottom:1px solid #cbd5e1;vertical-align:top}
th{width:10rem;color:#334155}footer{margin-top:2rem;color:#334155}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>
<table>${rows.map(([label, value]) => `<tr><th scope="row">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>
<footer><p>${escapeHtml(PRODUCT_NAME)} · Questions about this receipt: <a href="mailto:${escapeHtml(receipt.supportEmail)}">${escapeHtml(receipt.supportEmail)}</a></p></footer></main></body></html>`;
}
