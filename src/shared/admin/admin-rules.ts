/**
 * What the operators' console is made of, shared by the server, which enforces it, and the pages,
 * which show it: the notes and reasons admins write, how a report is named, and the labels of a
 * tutor's verification. Plain values, so any page may show them without a validation library;
 * the request bodies' schemas are in ./admin-schemas.ts.
 */
export const MAX_NOTE_LENGTH = 1000;

/** Who is listed, in words, as the admin overview says it for the school's setting. */
export const listingRuleSentence = (approvalRequired: boolean) =>
  approvalRequired
    ? /*i18n*/ 'Only tutors an administrator has verified are listed: a new tutor stays hidden from students until one of you verifies them.'
    : /*i18n*/ 'Every tutor with a complete profile is listed at once, without waiting for an administrator’s check; those verified carry the badge.';

/** What replaces a message a moderator hid, for both people in the conversation. */
export const HIDDEN_MESSAGE_TEXT = /*i18n*/ 'This message was removed by a moderator';

/** Who the audit log names when a change came from the server's command line. */
export const COMMAND_LINE_ACTOR = 'command line';

export const VERIFICATION_STATUSES = ['none', 'requested', 'approved', 'declined'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const VERIFICATION_LABELS: Record<VerificationStatus, string> = {
  none: /*i18n*/ 'Not requested',
  requested: /*i18n*/ 'Waiting for review',
  approved: /*i18n*/ 'Verified',
  declined: /*i18n*/ 'Declined',
};

export const AUDIT_PAGE_SIZE = 50;
