/**
 * The console's families: every link between a paying parent and a student, and an admin's
 * unlinking of one for a reason (a parent who lost touch with a child, a link made by mistake). An
 * unlink ends the link as the parent's removal would (../account-data/family-unlink.ts): what the parent
 * paid for and has not taken place is called off and given back to them, and a child without a
 * login of their own is erased. Audited as `family.unlinked` in the same transaction.
 */
import { type Kysely, sql } from 'kysely';
import { DELETED_USER_NAME } from '../../shared/account-data';
import { type Unlinked, unlinkStudent } from '../account-data/family-unlink';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import { type LessonDeps, type Lines, pushLines } from '../lessons/lesson-announcements';
import { plannedAt } from '../lessons/lifecycle/lesson-states-sql';
import { type Actor, recordAudit } from '../platform/audit-log';
import { hasLogin, isChildAddress } from '../platform/family-links';

export const familyLinkMessages = {
  notFound: /*i18n*/ 'Family link not found',
} as const;

/** A family link as the console lists it. */
export interface AdminFamilyLink {
  parent: { id: string; displayName: string; email: string };
  /** The student: a child the parent added (a first name) or a student who invited the parent. */
  student: {
    id: string;
    displayName: string;
    /** Null for a child without a login: their placeholder is no address. */
    email: string | null;
    hasLogin: boolean;
  };
  /** Added by the parent at /family, rather than a student who invited them. */
  addedByParent: boolean;
  monthlyLimit: { amountCents: number; currency: string } | null;
  /** The student's planned lessons ahead that the parent paid for: what an unlink calls off. */
  lessonsAhead: number;
  createdAt: string;
}

export const ADMIN_FAMILY_LINKS_LIMIT = 100;

/**
 * The newest links first, at most ADMIN_FAMILY_LINKS_LIMIT; `search` keeps those whose parent's or
 * student's name or address holds it (a child's placeholder address is not searched).
 */
export async function listFamilyLinks(
  db: Kysely<DB>,
  search: string | undefined,
  currency: string,
  now: number,
): Promise<AdminFamilyLink[]> {
  let query = db
    .selectFrom('family_links as f')
    .innerJoin('users as p', 'p.id', 'f.parent_id')
    .innerJoin('users as s', 's.id', 'f.student_id')
    .select([
      'f.parent_id',
      'p.display_name as parent_name',
      'p.email as parent_email',
      'f.student_id',
      's.display_name as student_name',
      's.email as student_email',
      'f.added_by_parent',
      'f.monthly_limit_cents',
      'f.created_at',
    ])
    .select((eb) => [
      hasLogin('s.id').as('has_login'),
      eb
        .selectFrom('lessons as l')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('l.student_id', '=', 'f.student_id')
        .whereRef('l.payer_id', '=', 'f.parent_id')
        .where(plannedAt(now, 'l'))
        .where('l.starts_at', '>', new Date(now))
        .as('lessons_ahead'),
    ]);
  const words = search?.trim();
  if (words) {
    // LIKE's own wildcards in what was typed are taken literally.
    const pattern = `%${words.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['p.display_name']), 'like', pattern),
        eb(eb.fn('lower', ['p.email']), 'like', pattern),
        eb(eb.fn('lower', ['s.display_name']), 'like', pattern),
        eb.and([
          eb(eb.fn('lower', ['s.email']), 'like', pattern),
          eb('s.email', 'not like', '%@family.tutorlane.invalid'),
        ]),
      ]),
    );
  }
  const rows = await query
    .orderBy('f.created_at', 'desc')
    .orderBy('f.student_id')
    .limit(ADMIN_FAMILY_LINKS_LIMIT)
    .execute();
  return rows.map((row) => ({
    parent: { id: row.parent_id, displayName: row.parent_name, email: row.parent_email },
    student: {
      id: row.student_id,
      displayName: row.student_name,
      email: isChildAddress(row.student_email) ? null : row.student_email,
      hasLogin: Boolean(row.has_login),
    },
    addedByParent: row.added_by_parent,
    monthlyLimit:
      row.monthly_limit_cents === null ? null : { amountCents: Number(row.monthly_limit_cents), currency },
    lessonsAhead: row.lessons_ahead ?? 0,
    createdAt: row.created_at.toISOString(),
  }));
}

/**
 * An admin ends the link between `parentId` and `studentId` for `reason`: 404 when there is no such
 * link. The entry names the parent and the student as they were; a child erased with the link is
 * named "Deleted user" in it, as everywhere else.
 */
export async function adminUnlink(
  deps: LessonDeps,
  actor: Actor,
  link: { parentId: string; studentId: string },
  reason: string,
  now: number,
): Promise<Unlinked> {
  const lines: Lines = [];
  const unlinked = await deps.db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('family_links as f')
      .innerJoin('users as p', 'p.id', 'f.parent_id')
      .innerJoin('users as s', 's.id', 'f.student_id')
      .select(['p.display_name as parent_name', 'p.email as parent_email', 's.display_name as student_name'])
      .where('f.parent_id', '=', link.parentId)
      .where('f.student_id', '=', link.studentId)
      .forUpdate('f')
      .executeTakeFirst();
    if (!found) throw new ApiError(404, familyLinkMessages.notFound, 'NOT_FOUND');
    const done = await unlinkStudent(deps, trx, lines, link, { actorId: actor.id, now });
    const student = done.childDeleted ? DELETED_USER_NAME : found.student_name;
    await recordAudit(
      trx,
      actor,
      'family.unlinked',
      {
        id: link.studentId,
        label: `${student}, paid for by ${found.parent_name} <${found.parent_email}>`,
      },
      reason,
    );
    return done;
  });
  deps.mailer.deliverSoon();
  await pushLines(deps, lines);
  return unlinked;
}
