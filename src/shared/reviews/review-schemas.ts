/** What the review routes take (zod), with the limits of ./review-rules.ts. */
import { z } from 'zod';
import { freeText } from '../schemas';
import { MAX_ANSWER_LENGTH, MAX_REVIEW_LENGTH, MIN_REVIEW_LENGTH } from './review-rules';

export const reviewSchema = z.strictObject({
  rating: z
    .number({ error: /*i18n*/ 'Please choose a rating from 1 to 5 stars' })
    .int(/*i18n*/ 'Please choose a rating from 1 to 5 stars')
    .min(1, /*i18n*/ 'Please choose a rating from 1 to 5 stars')
    .max(5, /*i18n*/ 'Please choose a rating from 1 to 5 stars'),
  text: freeText(MAX_REVIEW_LENGTH, {
    notText: /*i18n*/ 'A review must be text',
    tooLong: /*i18n*/ 'A review must be at most 2000 characters',
    badCharacters: /*i18n*/ 'A review must not contain control characters',
    required: /*i18n*/ 'Please write your review',
  }).refine(
    (text) => text.trim().length >= MIN_REVIEW_LENGTH,
    /*i18n*/ 'A review must be at least 20 characters',
  ),
  /** A parent's child whose lessons the review is of (docs/api.md, "Families"). */
  studentId: z
    .string()
    .regex(/^[\w-]{1,64}$/, /*i18n*/ 'Child not found')
    .optional(),
});

export const answerSchema = z.strictObject({
  text: freeText(MAX_ANSWER_LENGTH, {
    notText: /*i18n*/ 'An answer must be text',
    tooLong: /*i18n*/ 'An answer must be at most 2000 characters',
    badCharacters: /*i18n*/ 'An answer must not contain control characters',
    required: /*i18n*/ 'Please write your answer',
  }),
});

export const reviewReportSchema = z.strictObject({
  reason: freeText(500, {
    notText: /*i18n*/ 'The reason must be text',
    tooLong: /*i18n*/ 'The reason must be at most 500 characters',
    badCharacters: /*i18n*/ 'The reason must not contain control characters',
    required: /*i18n*/ 'Please say what is wrong with this review',
  }),
});
