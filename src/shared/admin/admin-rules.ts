/**
 * What the operators' console is made of, shared by the server, which enforces it, and the pages,
 * which show it: the notes and reasons admins write, how a report is named, and the labels of a
 * tutor's verification.
 */
import { z } from 'zod';
import { freeText } from '../schemas';

export const MAX_NOTE_LENGTH = 1000;

/** Shown on a tutor's card and page; its accessible name says what it means. */
export const VERIFIED_TUTOR_LABEL = 'Verified tutor';
export const VERIFIED_TUTOR_MEANING = 'Verified tutor: an administrator checked this profile';

/** What replaces a message a moderator hid, for both people in the conversation. */
export const HIDDEN_MESSAGE_TEXT = 'This message was removed by a moderator';

/** Who the audit log names when a change came from the server's command line. */
export const COMMAND_LINE_ACTOR = 'command line';

export const VERIFICATION_STATUSES = ['none', 'requested', 'approved', 'declined'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const VERIFICATION_LABELS: Record<VerificationStatus, string> = {
  none: 'Not requested',
  requested: 'Waiting for review',
  approved: 'Verified',
  declined: 'Declined',
};

/** A report of either kind, named as one id: "message-12" or "review-3". */
export const reportIdSchema = z
  .string()
  .regex(/^(message|review)-[1-9]\d{0,14}$/, 'A report id looks like message-12 or review-3')
  .transform((id) => {
    const [kind, number] = id.split('-') as ['message' | 'review', string];
    return { kind, id: Number(number) };
  });

export const approveSchema = z.strictObject({
  note: freeText('The note', MAX_NOTE_LENGTH).optional(),
});

export const declineSchema = z.strictObject({
  note: freeText('The note', MAX_NOTE_LENGTH, 'Please tell the tutor why, in a note they will receive'),
});

export const moderationSchema = z.strictObject({
  note: freeText('The note', MAX_NOTE_LENGTH).optional(),
});

export const suspendSchema = z.strictObject({
  reason: freeText(
    'The reason',
    MAX_NOTE_LENGTH,
    'Please give a reason: the person is told it when they try to sign in',
  ),
});

export const auditPageSchema = z.object({
  before: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, 'before must be an entry id')
    .transform(Number)
    .optional(),
});

export const AUDIT_PAGE_SIZE = 50;
