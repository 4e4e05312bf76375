/**
 * The wallet's calls: the wallet itself, a page of older movements, a top-up asked for or
 * withdrawn, a receipt's address.
 */
import type { InferResponseType } from 'hono/client';
import { api, request } from '../../lib/api';
import { idempotencyHeaders } from '../../lib/idempotency';
import { browserTimeZone } from '../../lib/time-zones';

export type Wallet = InferResponseType<typeof api.wallet.$get, 200>;
export type StudentWallet = Extract<Wallet, { role: 'student' }>;
export type TutorWallet = Extract<Wallet, { role: 'tutor' }>;
/** One movement; its amount as seen from the reader (negative is money that left them). */
export type Transaction = Wallet['transactions'][number];
export type TransactionKind = Transaction['kind'];
export type TopUp = StudentWallet['topUps'][number];

export const fetchWallet = (before: string | undefined, signal?: AbortSignal) =>
  request(api.wallet.$get({ query: before ? { before } : {} }, { init: { signal: signal ?? null } }));

/** Asks for a top-up; a card payment's answer carries the address of the payment page. */
export const requestTopUp = (amountCents: number, method: 'manual' | 'stripe', key?: string) =>
  request(api.wallet['top-ups'].$post({ json: { amountCents, method } }, idempotencyHeaders(key)));

/** Withdraws a pending top-up the student will not pay. */
export const withdrawTopUp = (id: string) =>
  request(api.wallet['top-ups'][':id'].withdraw.$post({ param: { id } }));

/**
 * The printable receipt of one movement, opened in a tab of its own, its time in the reader's saved
 * zone or, where they saved none, this browser's.
 */
export const receiptUrl = (transactionId: string) =>
  // The client's paths are under its base, /api (api.ts); a link needs the whole path.
  `/api${api.wallet.transactions[':id'].receipt.$path({ param: { id: transactionId }, query: { timeZone: browserTimeZone() } })}`;
