/**
 * One zod schema per field, reused by every form and every route that takes the field.
 * Messages come from the catalogue so the browser and the server say the same thing.
 */
import { z } from 'zod';
import {
  CONTACT_SUBJECT_VALUES,
  MAX_CONTACT_MESSAGE_LENGTH,
  MAX_CONTACT_NAME_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  ROLES,
} from './constants';
import { messages } from './messages';

/** Trimmed and lower-cased, so "Ann@Example.com " and "ann@example.com" are one account. */
export const emailSchema = z
  .string({ error: messages.fillAllFields })
  .trim()
  .min(1, messages.fillAllFields)
  .max(MAX_EMAIL_LENGTH, messages.invalidEmail)
  .pipe(z.email({ error: messages.invalidEmail }))
  .transform((email) => email.toLowerCase());

export const passwordSchema = z
  .string({ error: messages.fillAllFields })
  .min(MIN_PASSWORD_LENGTH, messages.passwordTooShort)
  .max(MAX_PASSWORD_LENGTH, messages.passwordTooLong);

export const displayNameSchema = z
  .string({ error: messages.fillAllFields })
  .trim()
  .min(1, messages.fillAllFields)
  .max(MAX_NAME_LENGTH, `Name must be at most ${MAX_NAME_LENGTH} characters`)
  .refine((name) => !/\p{Cc}/u.test(name), 'Name must not contain control characters');

export const roleSchema = z.enum(ROLES, { error: 'Role must be student or tutor' });

/** Text that ends up in a mail header must never carry a line break (header injection). */
const hasNoLineBreak = (value: string) => !/[\r\n\p{Cc}]/u.test(value);

export const contactMessageSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(MAX_CONTACT_NAME_LENGTH, `Name must be at most ${MAX_CONTACT_NAME_LENGTH} characters`)
    .refine(hasNoLineBreak, 'Name must be on one line'),
  email: emailSchema,
  subject: z.enum(CONTACT_SUBJECT_VALUES, { error: 'Please choose a subject' }),
  message: z
    .string({ error: 'Message is required' })
    .trim()
    .min(1, 'Message is required')
    .max(MAX_CONTACT_MESSAGE_LENGTH, `Message must be at most ${MAX_CONTACT_MESSAGE_LENGTH} characters`),
});
export type ContactMessageInput = z.input<typeof contactMessageSchema>;
