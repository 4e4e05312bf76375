/**
 * Email verification links: 256 random bits, stored only as a SHA-256 hash, valid 24 hours, and
 * consumed by a single DELETE so a link works exactly once even when clicked twice at once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { EMAIL_VERIFICATION_TTL_SECONDS } from '../../shared/constants';
import type { DB } from '../db/schema';
import { refreshTutorListing } from '../tutors/tutor-listing';

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

/**
 * Marks the token's account verified and voids every link of that account.
 * Returns the user id, or null when the token is unknown, used or expired.
 */
export async function consumeVerificationToken(
  db: Kysely<DB>,
  token: string,
  now = new Date(),
): Promise<string | null> {
  if (!/^[\w-]{20,100}$/.test(token)) return null;
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .deleteFrom('email_verification_tokens')
      .where('token_hash', '=', hashToken(token))
      .returning(['user_id', 'expires_at'])
      .executeTakeFirst();
    if (!row || new Date(row.expires_at).getTime() <= now.getTime()) return null;
    await trx.deleteFrom('email_verification_tokens').where('user_id', '=', row.user_id).execute();
    await trx
      .updateTable('users')
      .set({ email_verified: true, updated_at: now })
      .where('id', '=', row.user_id)
      .execute();
    // A tutor whose profile was complete appears in search the moment the email is verified.
    await refreshTutorListing(trx, row.user_id);
    return row.user_id;
  });
}
