/**
 * Better Auth's two-factor plugin keeps an account's trusted devices and its sign-ins waiting for a
 * code in `verifications`, naming the account in `value` as a password reset link does. Their
 * identifiers begin with their kind (accounts/auth.ts stores them so), which tells them apart.
 */
import type { ExpressionBuilder } from 'kysely';
import type { DB } from '../db/schema';

export const TWO_FACTOR_KINDS = ['trust-device-', '2fa-'] as const;

/** Whether a `verifications` row is one of the plugin's, not a link. */
export const isTwoFactorRow = (eb: ExpressionBuilder<DB, 'verifications'>) =>
  eb.or(TWO_FACTOR_KINDS.map((kind) => eb('identifier', 'like', `${kind}%`)));
