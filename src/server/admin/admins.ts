/**
 * Who is an admin: granted, revoked and listed only from the server's command line
 * (scripts/admin.ts), never through the API, and each change written to the audit log with
 * "command line" as its actor. The flag sits beside `role` (student or tutor), which it leaves as
 * it is. Admin routes read it from the database with the session on every request, so a
 * revocation holds from the next request.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Role } from '../../shared/constants';
import { emailSchema } from '../../shared/schemas';
import type { DB } from '../db/schema';
import { type Actor, accountTarget, commandLine, recordAudit } from '../platform/audit-log';
import { refreshTutorListing } from '../platform/tutor-listing';
import { isTwoFactorRow } from '../platform/two-factor-rows';

export class AdminCommandError extends Error {}

export interface AdminAccount {
  email: string;
  displayName: string;
  role: Role;
}

function normalised(email: string): string {
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) throw new AdminCommandError(`"${email}" is not an email address`);
  return parsed.data;
}

/** The account with this email, locked for the rest of the transaction; `missing` when there is none. */
async function lockAccount(trx: Transaction<DB>, address: string, missing: string) {
  const user = await trx
    .selectFrom('users')
    .select(['id', 'email', 'display_name', 'is_admin', 'suspended_at'])
    .where('email', '=', address)
    .forUpdate()
    .executeTakeFirst();
  if (!user) throw new AdminCommandError(missing);
  return user;
}

/** Sets the flag; `changed` is false when the account already had it. */
async function setAdmin(db: Kysely<DB>, email: string, admin: boolean, actor: Actor) {
  const address = normalised(email);
  return db.transaction().execute(async (trx) => {
    const user = await lockAccount(
      trx,
      address,
      `No account has the email ${address}. The person signs up first, then you grant the role.`,
    );
    if (user.is_admin === admin) return { changed: false, email: user.email };
    await trx.updateTable('users').set({ is_admin: admin }).where('id', '=', user.id).execute();
    await recordAudit(trx, actor, admin ? 'admin.granted' : 'admin.revoked', accountTarget(user));
    return { changed: true, email: user.email };
  });
}

export const grantAdmin = (db: Kysely<DB>, email: string, actor: Actor = commandLine) =>
  setAdmin(db, email, true, actor);

export const revokeAdmin = (db: Kysely<DB>, email: string, actor: Actor = commandLine) =>
  setAdmin(db, email, false, actor);

export async function listAdmins(db: Kysely<DB>): Promise<AdminAccount[]> {
  const rows = await db
    .selectFrom('users')
    .select(['email', 'display_name', 'role'])
    .where('is_admin', '=', true)
    .orderBy('email')
    .execute();
  return rows.map((row) => ({ email: row.email, displayName: row.display_name, role: row.role }));
}

/**
 * Lifts a suspension: the person may sign in again and, for a complete tutor profile, is listed
 * again. Lessons cancelled at the suspension stay cancelled. From the command line only, as a
 * deliberate act of whoever runs the server, and audited.
 */
export async function liftSuspension(db: Kysely<DB>, email: string, actor: Actor = commandLine) {
  const address = normalised(email);
  return db.transaction().execute(async (trx) => {
    const user = await lockAccount(trx, address, `No account has the email ${address}.`);
    if (user.suspended_at === null) return { changed: false, email: user.email };
    await trx
      .updateTable('users')
      .set({ suspended_at: null, suspension_reason: null })
      .where('id', '=', user.id)
      .execute();
    await refreshTutorListing(trx, user.id);
    await recordAudit(trx, actor, 'user.suspension_lifted', accountTarget(user));
    return { changed: true, email: user.email };
  });
}

/**
 * Turns off someone's two-factor sign-in, for a person who lost both their phone and their backup
 * codes: the authenticator secret, the backup codes and the devices they trusted are gone, and
 * they sign in with the password alone until they set it up again (an admin is shown the setup
 * before the console where ADMIN_TWO_FACTOR is required). From the command line only, as a
 * deliberate act of whoever runs the server (who should first make sure it is really that
 * person), and audited.
 */
export async function resetTwoFactor(db: Kysely<DB>, email: string, actor: Actor = commandLine) {
  const address = normalised(email);
  return db.transaction().execute(async (trx) => {
    const user = await lockAccount(trx, address, `No account has the email ${address}.`);
    const setup = await trx.deleteFrom('two_factors').where('user_id', '=', user.id).executeTakeFirst();
    const { numUpdatedRows } = await trx
      .updateTable('users')
      .set({ two_factor_enabled: false })
      .where('id', '=', user.id)
      .where('two_factor_enabled', '=', true)
      .executeTakeFirst();
    // The plugin's trusted devices and pending sign-ins name the account in `value`.
    await trx.deleteFrom('verifications').where('value', '=', user.id).where(isTwoFactorRow).execute();
    const changed = numUpdatedRows > 0n || setup.numDeletedRows > 0n;
    if (changed) await recordAudit(trx, actor, 'user.two_factor_reset', accountTarget(user));
    return { changed, email: user.email };
  });
}
