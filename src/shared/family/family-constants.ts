/**
 * Families' limits, apart from their schemas (./family-schemas.ts, which re-exports them) so that
 * a page can name them without loading zod.
 */

/** Children a parent may add at /family (students who invited them do not count). */
export const MAX_CHILDREN = 10;
/** From this age a child may have a login of their own, and a student may invite a parent. */
export const OWN_LOGIN_AGE = 13;
/** A year of birth more than this many years ago is refused: a parent's children are school age. */
export const OLDEST_CHILD_YEARS = 25;
/** A monthly limit's ceiling, far inside what the ledger's amounts hold. */
export const MAX_MONTHLY_LIMIT = 1_000_000_000_000;
/** How long a family invitation's link works. */
export const FAMILY_INVITATION_DAYS = 7;

/** A child's age as the product counts it: this year minus the year of birth. */
export const ageOf = (birthYear: number, now: Date = new Date()) => now.getUTCFullYear() - birthYear;

/** A child as their parent sees them at /family. */
export interface ChildView {
  id: string;
  firstName: string;
  birthYear: number | null;
  hasLogin: boolean;
  /** The most this child's bookings and packages may take from the parent's wallet in a month. */
  monthlyLimitCents: number | null;
  /** The child's address once they have a login (or an invitation pending), else null. */
  email: string | null;
  /** An invitation to take a login has been mailed and not yet used. */
  invited: boolean;
}

/** A student's paying parent, as the student sees them at /family. */
export interface ParentView {
  id: string;
  displayName: string;
}

export interface FamilyView {
  children: ChildView[];
  parents: ParentView[];
}
