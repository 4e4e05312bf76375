/**
 * The signed-in user's wallet in brief (GET /api/wallet/summary): whether payments are on and, for
 * a student, the balance. The navigation bar and the booking box show it. It is kept here, outside
 * React, so that what changes the balance (a top-up, a booking, the wallet page reading the whole
 * wallet) updates every place at once, and so that moving between pages asks the server again only
 * once the figure is a little old: the bar stays light.
 */

import type { InferResponseType } from 'hono/client';
import { useEffect, useSyncExternalStore } from 'react';
import { api, request } from './api';

/** Whether payments are on, the role, and a student's balance (null for a tutor). */
export type WalletSummary = InferResponseType<typeof api.wallet.summary.$get, 200>;

/** How old a figure may be before a page change asks again. */
const FRESH_FOR_MS = 15_000;

interface Known {
  userId: string;
  summary: WalletSummary;
  at: number;
}

let known: Known | null = null;
let asking: { userId: string; answer: Promise<void> } | null = null;
const listeners = new Set<() => void>();

function set(next: Known | null) {
  known = next;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => known;

/** Asks the server for this user's summary; a call already under way for them is shared. */
export function refreshWalletSummary(userId: string): Promise<void> {
  if (asking?.userId === userId) return asking.answer;
  const answer = request(api.wallet.summary.$get())
    .then((summary) => {
      // The answer may come after a sign-out or a change of account: it is then nobody's.
      if (asking?.userId === userId) set({ userId, summary, at: Date.now() });
    })
    .catch(() => {
      // Without a figure the bar says "Wallet" alone; the next page change asks again.
    })
    .finally(() => {
      if (asking?.userId === userId) asking = null;
    });
  asking = { userId, answer };
  return answer;
}

/** What a page that read the whole wallet knows: the bar shows it without asking. */
export function rememberWalletSummary(userId: string, summary: WalletSummary): void {
  set({ userId, summary, at: Date.now() });
}

/** Forgets the figure (at sign-out), so the next person never sees it. */
export function forgetWalletSummary(): void {
  asking = null;
  if (known) set(null);
}

/**
 * The summary for this user, asked for when none is known or it is older than a few seconds each
 * time `freshness` changes (the bar passes the page's path), and at once when `freshness` is
 * 'now' (the booking box, which weighs a price against it). Nothing is asked for without a user
 * or while `enabled` is false (payments off).
 */
export function useWalletSummary(
  userId: string | null,
  { enabled = true, freshness = '' }: { enabled?: boolean; freshness?: string } = {},
): WalletSummary | null {
  const current = useSyncExternalStore(subscribe, snapshot, snapshot);
  useEffect(() => {
    if (!userId || !enabled) return;
    // The freshness key is read only to run again when it changes.
    const old = !known || known.userId !== userId || Date.now() - known.at > FRESH_FOR_MS;
    if (freshness === 'now' || old) void refreshWalletSummary(userId);
  }, [userId, enabled, freshness]);
  useEffect(() => {
    if (!userId || !enabled) return;
    // Back in this tab after a while (an admin may have confirmed a top-up): the figure is read again.
    const onVisible = () => {
      if (document.visibilityState === 'visible' && (!known || Date.now() - known.at > FRESH_FOR_MS)) {
        void refreshWalletSummary(userId);
      }
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [userId, enabled]);
  return current && current.userId === userId ? current.summary : null;
}
