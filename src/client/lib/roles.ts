/**
 * The roles as the pages that predate families see them. A parent pays and books as a student
 * does (for their children), so where a page tells a payer's side from a tutor's, a parent reads
 * the student's side.
 */
import type { Role } from '../../shared/constants';

export type Side = 'student' | 'tutor';

/** The side of a lesson or a payment a person of this role stands on. */
export const sideOf = (role: Role): Side => (role === 'tutor' ? 'tutor' : 'student');

/** Who books and pays: a student for themselves, a parent for a child. */
export const books = (role: Role | undefined) => role === 'student' || role === 'parent';
