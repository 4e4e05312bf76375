/**
 * The audit log: who did what to whom, when and why. Entries are only ever appended, in the same
 * transaction as the change they describe (so one never exists without the other); the database
 * refuses to change or delete them, and no route or command does.
 */
import type { Kysely, Transaction } from 'kysely';
import { AUDIT_PAGE_SIZE, COMMAND_LINE_ACTOR } from '../../shared/admin/admin-rules';
import type { DB } from '../db/schema';

type Db = Kysely<DB> | Transaction<DB>;

export type AuditAction =
  | 'admin.granted'
  | 'admin.revoked'
  | 'tutor.approved'
  | 'tutor.declined'
  | 'report.dismissed'
  | 'message.hidden'
  | 'review.hidden'
  | 'user.suspended'
  | 'user.suspension_lifted'
  | 'user.two_factor_reset'
  | 'settings.changed'
  | 'topup.confirmed'
  | 'topup.rejected'
  | 'payout.recorded'
  | 'refund.recorded'
  | 'package.refunded'
  | 'lesson.refunded'
  | 'lesson.cancelled'
  | 'lesson.moved'
  | 'class.cancelled'
  | 'class.student_removed'
  | 'family.unlinked'
  | 'account.deleted'
  | 'backup.downloaded';

/** Who acted: an admin (their id, and their name and email as they were), or the command line. */
export interface Actor {
  id: string | null;
  label: string;
}

export const commandLine: Actor = { id: null, label: COMMAND_LINE_ACTOR };

export const adminActor = (admin: { id: string; displayName: string; email: string }): Actor => ({
  id: admin.id,
  label: `${admin.displayName} <${admin.email}>`,
});

/** An account as the log names it: its name and email as they were. */
export const accountTarget = (user: { id: string; display_name: string; email: string }) => ({
  id: user.id,
  label: `${user.display_name} <${user.email}>`,
});

export interface AuditEntry {
  id: number;
  actor: string;
  action: AuditAction;
  target: string;
  reason: string;
  at: string;
}

export async function recordAudit(
  db: Db,
  actor: Actor,
  action: AuditAction,
  target: { id: string | null; label: string },
  reason = '',
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      actor_id: actor.id,
      actor: actor.label,
      action,
      target_id: target.id,
      target: target.label,
      reason,
    })
    .execute();
}

/** One page of the log, newest first; `before` is the last id of the previous page. */
export async function listAudit(db: Kysely<DB>, before?: number) {
  let query = db
    .selectFrom('audit_log')
    .select(['id', 'actor', 'action', 'target', 'reason', 'created_at'])
    .orderBy('id', 'desc')
    .limit(AUDIT_PAGE_SIZE + 1);
  if (before !== undefined) query = query.where('id', '<', before);
  const rows = await query.execute();
  const entries: AuditEntry[] = rows.slice(0, AUDIT_PAGE_SIZE).map((row) => ({
    id: Number(row.id),
    actor: row.actor,
    action: row.action as AuditAction,
    target: row.target,
    reason: row.reason,
    at: row.created_at.toISOString(),
  }));
  return { entries, hasMore: rows.length > AUDIT_PAGE_SIZE };
}
