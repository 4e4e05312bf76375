/**
 * The console's calls to /api/admin/ and the shapes they answer, inferred from the server's routes:
 * each page's loader reads with these, and each decision posts through them, then revalidates.
 */
import type { ClientResponse, InferRequestType, InferResponseType } from 'hono/client';
import type { Amount } from '../../../shared/money/amounts';
import { api, request } from '../../lib/api';
import { dateTimeLabel as momentLabel } from '../../lib/time-labels';
import { browserTimeZone } from '../../lib/time-zones';

const admin = api.admin;

export type Overview = InferResponseType<typeof admin.overview.$get, 200>;
export type VerificationQueue = InferResponseType<typeof admin.verifications.$get, 200>;
export type VerificationCase = VerificationQueue['waiting'][number];
export type Report = InferResponseType<typeof admin.reports.$get, 200>['reports'][number];
export type AdminSettings = InferResponseType<typeof admin.settings.$get, 200>;
export type SettingsChange = InferRequestType<typeof admin.settings.$patch>['json'];

export const fetchOverview = (signal?: AbortSignal) => request(admin.overview.$get({}, { init: { signal } }));
export const fetchVerifications = (signal?: AbortSignal) =>
  request(admin.verifications.$get({}, { init: { signal } }));
export const fetchReports = (signal?: AbortSignal) => request(admin.reports.$get({}, { init: { signal } }));
export const fetchAudit = (before: string | undefined, signal?: AbortSignal) =>
  request(admin.audit.$get({ query: before ? { before } : {} }, { init: { signal } }));

export const fetchSettings = (signal?: AbortSignal) => request(admin.settings.$get({}, { init: { signal } }));
/** Changes the site settings; the answer says what changed, in words (nothing, when all was as sent). */
export const changeSettings = (json: SettingsChange) => request(admin.settings.$patch({ json }));

export const decideVerification = (tutorId: string, decision: 'approve' | 'decline', note: string) =>
  decision === 'approve'
    ? request(
        admin.verifications[':tutorId'].approve.$post({ param: { tutorId }, json: note ? { note } : {} }),
      )
    : request(admin.verifications[':tutorId'].decline.$post({ param: { tutorId }, json: { note } }));

export const settleReport = (id: string, action: 'dismiss' | 'hide', note: string) => {
  const input = { param: { id }, json: note ? { note } : {} };
  return action === 'dismiss'
    ? request(admin.reports[':id'].dismiss.$post(input))
    : request(admin.reports[':id'].hide.$post(input));
};

export const suspendUser = (id: string, reason: string) =>
  request(admin.users[':id'].suspend.$post({ param: { id }, json: { reason } }));

/** "Dec 1, 2026, 17:05": a moment in the console, in this browser's zone, as every page shows one. */
export const dateTimeLabel = (iso: string) => momentLabel(Date.parse(iso), browserTimeZone());

/** Someone money is owed to or held for, as the finance page names them. */
export interface FinancePerson {
  id: string;
  displayName: string;
  email: string;
}

export interface Finance {
  currency: string;
  payments: 'on' | 'off';
  totals: {
    studentBalances: Amount;
    held: Amount;
    tutorPayable: Amount;
    schoolRevenue: Amount;
    clearing: { manual: Amount; stripe: Amount };
  };
  pendingTopUps: {
    id: string;
    student: FinancePerson;
    amountCents: number;
    currency: string;
    method: 'manual' | 'stripe';
    reference: string;
    createdAt: string;
  }[];
  payables: { tutor: FinancePerson; payable: Amount }[];
  balances: { student: FinancePerson; balance: Amount }[];
}

const jsonCall = (path: string, init: RequestInit = {}) =>
  fetch(`/api/admin/${path}`, {
    credentials: 'same-origin',
    ...init,
    headers: { Accept: 'application/json', ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
  });
const post = (path: string, body: unknown) => jsonCall(path, { method: 'POST', body: JSON.stringify(body) });

export const fetchFinance = (signal?: AbortSignal) =>
  request(jsonCall('finance', { signal: signal ?? null }) as Promise<ClientResponse<Finance, 200, 'json'>>);

type TopUpAnswer = ClientResponse<{ topUp: { id: string; status: string } }, 200, 'json'>;
export const confirmTopUp = (id: string) =>
  request(post(`top-ups/${encodeURIComponent(id)}/confirm`, {}) as Promise<TopUpAnswer>);
export const rejectTopUp = (id: string, note: string) =>
  request(post(`top-ups/${encodeURIComponent(id)}/reject`, { note }) as Promise<TopUpAnswer>);

type Recorded = ClientResponse<{ transactionId: string }, 201, 'json'>;
export const recordPayout = (json: { tutorId: string; amountCents: number; reference: string }) =>
  request(post('payouts', json) as Promise<Recorded>);
export const recordBalanceRefund = (json: { studentId: string; amountCents: number; reference: string }) =>
  request(post('refunds', json) as Promise<Recorded>);

/** The downloads: every ledger entry between two dates, and what each tutor is owed. */
export const entriesCsvUrl = (from: string, to: string) =>
  `/api/admin/finance/entries.csv?${new URLSearchParams({ from, to })}`;
export const payablesCsvUrl = '/api/admin/finance/payables.csv';
