/** The bodies and queries of the admin routes, checked by the server (zod). */
import { z } from 'zod';
import { freeText } from '../schemas';
import { MAX_NOTE_LENGTH } from './admin-rules';

/** A report of either kind, named as one id: "message-12" or "review-3". */
export const reportIdSchema = z
  .string()
  .regex(/^(message|review)-[1-9]\d{0,14}$/, /*i18n*/ 'A report id looks like message-12 or review-3')
  .transform((id) => {
    const [kind, number] = id.split('-') as ['message' | 'review', string];
    return { kind, id: Number(number) };
  });

export const approveSchema = z.strictObject({
  note: freeText(MAX_NOTE_LENGTH, {
    notText: /*i18n*/ 'The note must be text',
    tooLong: /*i18n*/ 'The note must be at most 1000 characters',
    badCharacters: /*i18n*/ 'The note must not contain control characters',
  }).optional(),
});

export const declineSchema = z.strictObject({
  note: freeText(MAX_NOTE_LENGTH, {
    notText: /*i18n*/ 'The note must be text',
    tooLong: /*i18n*/ 'The note must be at most 1000 characters',
    badCharacters: /*i18n*/ 'The note must not contain control characters',
    required: /*i18n*/ 'Please tell the tutor why, in a note they will receive',
  }),
});

export const moderationSchema = z.strictObject({
  note: freeText(MAX_NOTE_LENGTH, {
    notText: /*i18n*/ 'The note must be text',
    tooLong: /*i18n*/ 'The note must be at most 1000 characters',
    badCharacters: /*i18n*/ 'The note must not contain control characters',
  }).optional(),
});

export const suspendSchema = z.strictObject({
  reason: freeText(MAX_NOTE_LENGTH, {
    notText: /*i18n*/ 'The reason must be text',
    tooLong: /*i18n*/ 'The reason must be at most 1000 characters',
    badCharacters: /*i18n*/ 'The reason must not contain control characters',
    required: /*i18n*/ 'Please give a reason: the person is told it when they try to sign in',
  }),
});

export const auditPageSchema = z.object({
  before: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, /*i18n*/ 'before must be an entry id')
    .transform(Number)
    .optional(),
});
