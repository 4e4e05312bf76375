/**
 * The shapes group classes take on the way in, shared by the form and the server. What needs the
 * tutor (their lengths, languages) or the clock (a session in the past) is checked by the server.
 */
import { z } from 'zod';
import { instantSchema } from '../lessons/lesson-schemas';
import { freeText, noSuchField, oneLineText } from '../schemas';
import { SPOKEN_LANGUAGES } from '../tutor-catalog';
import { chosenSubjectSchema } from '../tutor-schemas';
import {
  MAX_CLASS_DESCRIPTION_LENGTH,
  MAX_CLASS_PRICE,
  MAX_CLASS_SEATS,
  MAX_CLASS_SESSIONS,
  MAX_CLASS_TITLE_LENGTH,
  MIN_CLASS_SEATS,
} from './class-constants';

export * from './class-constants';

const seatsMessage = /*i18n*/ 'seats must be a whole number from 2 to 5';
const minimumMessage = /*i18n*/ 'minStudents must be a whole number from 1 to the seats';
const priceMessage = /*i18n*/ 'priceCents must be a whole number of the smallest unit, 0 or more';

export const classSchema = z
  .strictObject(
    {
      title: oneLineText(MAX_CLASS_TITLE_LENGTH, {
        notText: /*i18n*/ 'Please give the class a title',
        tooLong: /*i18n*/ 'The title must be at most 120 characters',
        badCharacters: /*i18n*/ 'The title must stay on one line',
      }).refine((title) => title.length > 0, /*i18n*/ 'Please give the class a title'),
      subject: chosenSubjectSchema(/*i18n*/ 'Please choose a subject from the list'),
      language: z.enum(SPOKEN_LANGUAGES, {
        error: /*i18n*/ 'Please choose the language the class is taught in',
      }),
      description: freeText(MAX_CLASS_DESCRIPTION_LENGTH, {
        notText: /*i18n*/ 'The description must be text',
        tooLong: /*i18n*/ 'The description must be at most 4000 characters',
        badCharacters: /*i18n*/ 'The description must not contain control characters',
      }).default(''),
      minutes: z
        .number({ error: /*i18n*/ 'minutes must be a number' })
        .int(/*i18n*/ 'minutes must be a whole number'),
      seats: z
        .number({ error: seatsMessage })
        .int(seatsMessage)
        .min(MIN_CLASS_SEATS, seatsMessage)
        .max(MAX_CLASS_SEATS, seatsMessage),
      minStudents: z.number({ error: minimumMessage }).int(minimumMessage).min(1, minimumMessage),
      priceCents: z
        .number({ error: priceMessage })
        .int(priceMessage)
        .min(0, priceMessage)
        .max(MAX_CLASS_PRICE, /*i18n*/ 'priceCents is more than a class may cost'),
      sessions: z
        .array(instantSchema('start'), { error: /*i18n*/ 'sessions must be a list of start times' })
        .min(1, /*i18n*/ 'A class needs at least one session')
        .max(MAX_CLASS_SESSIONS, /*i18n*/ 'A class has at most 12 sessions'),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? noSuchField(/*i18n*/ 'A class has no such field: {keys}', issue.keys)
          : undefined,
    },
  )
  .superRefine((input, ctx) => {
    if (Number.isInteger(input.minStudents) && input.minStudents > input.seats)
      ctx.addIssue({ code: 'custom', path: ['minStudents'], message: minimumMessage });
    const sorted = input.sessions.map((start, index) => ({ start, index })).sort((a, b) => a.start - b.start);
    for (let i = 1; i < sorted.length; i++) {
      const before = sorted[i - 1];
      const next = sorted[i];
      if (before && next && next.start < before.start + input.minutes * 60_000)
        ctx.addIssue({
          code: 'custom',
          path: ['sessions', next.index],
          message: /*i18n*/ 'Two sessions of the class overlap',
        });
    }
  })
  .transform((input) => ({ ...input, sessions: [...input.sessions].sort((a, b) => a - b) }));
export type ClassInput = z.input<typeof classSchema>;

const pageMessage = /*i18n*/ 'page must be a whole number from 1';
export const classQuerySchema = z.object({
  subject: z.string().trim().max(100).optional(),
  language: z.string().trim().max(100).optional(),
  tutorId: z
    .string()
    .regex(/^[\w-]{1,64}$/, /*i18n*/ 'No such tutor')
    .optional(),
  /** Only the classes the viewer teaches or is in (enrolled or waiting). */
  mine: z.enum(['true', 'false'], { error: /*i18n*/ 'mine must be true or false' }).optional(),
  from: instantSchema('from').optional(),
  to: instantSchema('to').optional(),
  maxPriceCents: z.coerce.number({ error: priceMessage }).int(priceMessage).min(0, priceMessage).optional(),
  page: z.coerce
    .number({ error: pageMessage })
    .int(pageMessage)
    .min(1, pageMessage)
    .max(1000, pageMessage)
    .default(1),
});

export const reasonSchema = (required: boolean) =>
  z
    .object({
      reason: freeText(500, {
        notText: /*i18n*/ 'The reason must be text',
        tooLong: /*i18n*/ 'The reason must be at most 500 characters',
        badCharacters: /*i18n*/ 'The reason must not contain control characters',
      }).optional(),
    })
    .superRefine((input, ctx) => {
      if (required && !input.reason?.trim())
        ctx.addIssue({ code: 'custom', path: ['reason'], message: /*i18n*/ 'Please say why' });
    });
