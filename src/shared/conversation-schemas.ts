/** What messages take on the way in, shared by the composer and the server. */
import { z } from 'zod';
import { freeText } from './schemas';

export const MAX_MESSAGE_LENGTH = 2000;
export const MAX_REPORT_REASON_LENGTH = 500;

export const messageTextSchema = freeText(MAX_MESSAGE_LENGTH, {
  notText: /*i18n*/ 'A message must be text',
  tooLong: /*i18n*/ 'A message must be at most 2000 characters',
  badCharacters: /*i18n*/ 'A message must not contain control characters',
  required: /*i18n*/ 'Please write a message',
});

/** An id in a field the API names (`tutorId`), with its two problems written out. */
const userId = (says: { missing: string; notId: string }) =>
  z.string({ error: says.missing }).regex(/^[\w-]{1,64}$/, says.notId);

/** A student writes to a tutor (`tutorId`); a tutor to a student who booked them (`studentId`). */
export const newConversationSchema = z
  .strictObject({
    tutorId: userId({
      missing: /*i18n*/ 'tutorId is required',
      notId: /*i18n*/ 'tutorId is not a valid id',
    }).optional(),
    studentId: userId({
      missing: /*i18n*/ 'studentId is required',
      notId: /*i18n*/ 'studentId is not a valid id',
    }).optional(),
    text: messageTextSchema,
  })
  .refine((body) => (body.tutorId === undefined) !== (body.studentId === undefined), {
    message: /*i18n*/ 'Say who the message is for: tutorId or studentId',
    path: ['tutorId'],
  });

export const newMessageSchema = z.strictObject({ text: messageTextSchema });
export const blockSchema = z.strictObject({
  userId: userId({ missing: /*i18n*/ 'userId is required', notId: /*i18n*/ 'userId is not a valid id' }),
});
export const reportSchema = z.strictObject({
  reason: freeText(MAX_REPORT_REASON_LENGTH, {
    notText: /*i18n*/ 'The reason must be text',
    tooLong: /*i18n*/ 'The reason must be at most 500 characters',
    badCharacters: /*i18n*/ 'The reason must not contain control characters',
    required: /*i18n*/ 'Please say what is wrong with this message',
  }),
});

/** `?after=` (messages newer than an id), or `?before=` (older ones), never both. */
export const messagePageSchema = z
  .object({
    after: z
      .string()
      .regex(/^\d{1,15}$/, /*i18n*/ 'after must be a message id')
      .transform(Number)
      .optional(),
    before: z
      .string()
      .regex(/^\d{1,15}$/, /*i18n*/ 'before must be a message id')
      .transform(Number)
      .optional(),
  })
  .refine(
    (page) => page.after === undefined || page.before === undefined,
    /*i18n*/ 'Ask for after or before, not both',
  );
