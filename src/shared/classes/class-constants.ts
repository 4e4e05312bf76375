/**
 * Group classes' limits and states, apart from their schemas (./class-schemas.ts, which re-exports
 * them) so that a page can name them without loading zod.
 */

export const MIN_CLASS_SEATS = 2;
/** The room carries up to six people peer to peer: the tutor and five students. */
export const MAX_CLASS_SEATS = 5;
export const MAX_CLASS_SESSIONS = 12;
export const MAX_CLASS_TITLE_LENGTH = 120;
export const MAX_CLASS_DESCRIPTION_LENGTH = 4000;
/** A session's price, so that twelve of them stay far inside what a lesson's price column holds. */
export const MAX_CLASS_PRICE = 100_000_000;
/** The hours before its first session at which a class with too few students is called off. */
export const CLASS_DECISION_HOURS = 24;
export const CLASSES_PAGE_SIZE = 20;

export const CLASS_STATUSES = ['scheduled', 'held', 'cancelled', 'ended'] as const;
export type ClassStatus = (typeof CLASS_STATUSES)[number];
