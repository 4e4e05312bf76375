/**
 * Email verification links: 256 random bits, stored only as a SHA-256 hash, valid 24 hours, and
 * spent under a row lock so a link works exactly once even when clicked twice at once. A spent
 * link is remembered until it would have expired: opened again, it says the email is verified.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { EMAIL_VERIFICATION_TTL_SECONDS } from '../../shared/constants';
import type { DB } from '../db/schema';
import { refreshTutorListing } from '../platform/tutor-listing';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function issueVerificationToken(
  db: Kysely<DB>,
  userId: string,
  now = new Date(),
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('email_verification_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      expires_at: new Date(now.getTime() + EMAIL_VERIFICATION_TTL_SECONDS * 1000),
    })
    .execute();
  return token;
}

export type VerificationOutcome =
  | { outcome: 'verified' | 'already-verified'; userId: string }
  | { outcome: 'expired' }
  | { outcome: 'unknown' };

/** Marks the token's account verified and voids the account's other links. */
export async function consumeVerificationToken(
  db: Kysely<DB>,
  token: string,
  now = new Date(),
): Promise<VerificationOutcome> {
  if (!/^[\w-]{20,100}$/.test(token)) return { outcome: 'unknown' };
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('email_verification_tokens')
      .select(['user_id', 'expires_at', 'used_at'])
      .where('token_hash', '=', hashToken(token))
      .forUpdate()
      .executeTakeFirst();
    if (!row) return { outcome: 'unknown' };
    if (row.used_at !== null) return { outcome: 'already-verified', userId: row.user_id };
    if (new Date(row.expires_at).getTime() <= now.getTime()) return { outcome: 'expired' };
    await trx
      .deleteFrom('email_verification_tokens')
      .where('user_id', '=', row.user_id)
      .where('token_hash', '!=', hashToken(token))
      .execute();
    await trx
      .updateTable('email_verification_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', hashToken(token))
      .execute();
    await trx
      .updateTable('users')
      .set({ email_verified: true, updated_at: now })
      .where('id', '=', row.user_id)
      .execute();
    // A tutor whose profile was complete appears in search the moment the email is verified.
    await refreshTutorListing(trx, row.user_id);
    return { outcome: 'verified', userId: row.user_id };
  });
}
