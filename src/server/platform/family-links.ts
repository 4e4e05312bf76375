/**
 * A family as /family shows it (migration 0038): a parent's children, with whether each has a
 * login of their own, and a student's paying parent. Who pays for a booking, and the limit a parent
 * sets, are money's (../money/family-payer.ts).
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { ChildView, ParentView } from '../../shared/family/family-constants';
import type { DB } from '../db/schema';

type Db = Kysely<DB> | Transaction<DB>;

/** The address a child without a login has: nobody reads it, and no sign-in can use it. */
export const childAddress = (id: string) => `child-${id}@family.tutorlane.invalid`;
export const isChildAddress = (email: string) => email.endsWith('@family.tutorlane.invalid');

/**
 * Whether the user in `userColumn` has a login of their own (a password sign-in): a child a parent
 * added has none until they accept an invitation to one. A condition for a select or a where.
 */
export const hasLogin = (userColumn: string) =>
  sql<boolean>`exists (select 1 from accounts a where a.user_id = ${sql.ref(userColumn)} and a.provider_id = 'credential')`;

export const familyMessages = {
  parentsOnly: /*i18n*/ 'Only parents can add children',
  tooManyChildren: /*i18n*/ 'You can add up to 10 children',
  tooYoung: /*i18n*/ 'A child needs to be 13 or older to have a login of their own',
  hasLogin: /*i18n*/ 'This child already has a login',
  noLogin:
    /*i18n*/ 'A monthly limit is for a child with a login of their own: you make the bookings of the others',
  studentsOnly: /*i18n*/ 'Only students can invite a parent',
  alreadyLinked: /*i18n*/ 'A parent already pays for this student',
  emailTaken: /*i18n*/ 'An account with this email already exists',
  invitationUnknown: /*i18n*/ 'This invitation link is not valid. Please ask for a new one.',
  invitationExpired: /*i18n*/ 'This invitation link has expired. Please ask for a new one.',
  invitationUsed: /*i18n*/ 'This invitation has already been accepted',
  acceptAsParent: /*i18n*/ 'Please sign in or sign up as a parent to accept this invitation',
  passwordNeeded: /*i18n*/ 'Please choose a password',
  ownInvitation: /*i18n*/ 'You cannot accept your own invitation',
} as const;

/** A parent's children and a student's paying parent, as /family shows them. */
export async function familyOf(
  db: Db,
  userId: string,
  now: number,
): Promise<{ children: ChildView[]; parents: ParentView[] }> {
  const [children, parents] = await Promise.all([
    db
      .selectFrom('family_links as f')
      .innerJoin('users as u', 'u.id', 'f.student_id')
      .select(['u.id', 'u.display_name', 'u.email', 'u.birth_year', 'f.monthly_limit_cents', 'f.created_at'])
      .select((eb) => [
        hasLogin('u.id').as('has_login'),
        eb
          .selectFrom('family_invitations as i')
          .select('i.email')
          .whereRef('i.student_id', '=', 'u.id')
          .where('i.kind', '=', 'child_login')
          .where('i.used_at', 'is', null)
          .where('i.expires_at', '>', new Date(now))
          .orderBy('i.created_at', 'desc')
          .limit(1)
          .as('invited_email'),
      ])
      .where('f.parent_id', '=', userId)
      .where('u.deleted_at', 'is', null)
      .orderBy('f.created_at')
      .orderBy('u.id')
      .execute(),
    db
      .selectFrom('family_links as f')
      .innerJoin('users as u', 'u.id', 'f.parent_id')
      .select(['u.id', 'u.display_name'])
      .where('f.student_id', '=', userId)
      .where('u.deleted_at', 'is', null)
      .execute(),
  ]);
  return {
    children: children.map((row) => {
      const hasLogin = Boolean(row.has_login);
      return {
        id: row.id,
        firstName: row.display_name,
        birthYear: row.birth_year,
        hasLogin,
        monthlyLimitCents: row.monthly_limit_cents === null ? null : Number(row.monthly_limit_cents),
        email: hasLogin && !isChildAddress(row.email) ? row.email : (row.invited_email ?? null),
        invited: !hasLogin && row.invited_email !== null,
      };
    }),
    parents: parents.map((row) => ({ id: row.id, displayName: row.display_name })),
  };
}
