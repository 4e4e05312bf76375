/**
 * The Idempotency-Key a request that moves money carries (docs/api.md, "Safe to retry"): one per
 * form or dialog, the same on each resend of it, so a request sent again after a timeout or a lost
 * answer is answered as the first was and moves no money twice.
 */

/** A new key, for a form sent for the first time. */
export const newIdempotencyKey = () => crypto.randomUUID();

/** The request options that carry `key` (none without one). */
export const idempotencyHeaders = (key: string | undefined) =>
  key ? { headers: { 'Idempotency-Key': key } } : {};

/** The name of the hidden field that carries a form's key to its action. */
export const IDEMPOTENCY_KEY_FIELD = 'idempotencyKey';

/** The key a submitted form carried. */
export function idempotencyKeyOf(values: Record<string, string | string[]>): string | undefined {
  const sent = values[IDEMPOTENCY_KEY_FIELD];
  return typeof sent === 'string' && sent ? sent : undefined;
}
