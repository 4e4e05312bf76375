/** The wallet's calls: the wallet itself, a page of older movements, a top-up, a receipt's address. */
import type { ClientResponse } from 'hono/client';
import type { Amount } from '../../../shared/money/amounts';
import { request } from '../../lib/api';

export type TransactionKind =
  | 'top_up'
  | 'lesson_hold'
  | 'lesson_release'
  | 'lesson_settle'
  | 'lesson_refund'
  | 'payout'
  | 'balance_refund';

export interface Transaction {
  id: string;
  kind: TransactionKind;
  /** As seen from the reader: negative is money that left them. */
  amount: Amount;
  lesson: { id: string; subject: string; start: string } | null;
  at: string;
  memo: string;
}

export interface TopUp {
  id: string;
  amountCents: number;
  currency: string;
  method: 'manual' | 'stripe';
  status: 'pending' | 'confirmed' | 'rejected';
  reference: string;
  instructions: string;
  note: string | null;
  createdAt: string;
}

interface Page {
  payments: 'on' | 'off';
  transactions: Transaction[];
  nextBefore: string | null;
}

export interface StudentWallet extends Page {
  role: 'student';
  balance: Amount;
  held: Amount;
  stripe: boolean;
  topUps: TopUp[];
}

export interface TutorWallet extends Page {
  role: 'tutor';
  pending: Amount;
  payable: Amount;
  paidOut: Amount;
}

export type Wallet = StudentWallet | TutorWallet;

export type TopUpAnswer = { topUp: TopUp; checkoutUrl?: string };

const json = { credentials: 'same-origin', headers: { Accept: 'application/json' } } as const;

export const fetchWallet = (before: string | undefined, signal?: AbortSignal) =>
  request(
    fetch(`/api/wallet${before ? `?before=${encodeURIComponent(before)}` : ''}`, {
      ...json,
      signal: signal ?? null,
    }) as Promise<ClientResponse<Wallet, 200, 'json'>>,
  );

export const requestTopUp = (amountCents: number, method: 'manual' | 'stripe') =>
  request(
    fetch('/api/wallet/top-ups', {
      ...json,
      method: 'POST',
      headers: { ...json.headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ amountCents, method }),
    }) as Promise<ClientResponse<TopUpAnswer, 201, 'json'>>,
  );

/** The printable receipt of one movement, opened in a tab of its own. */
export const receiptUrl = (transactionId: string) =>
  `/api/wallet/transactions/${encodeURIComponent(transactionId)}/receipt`;
