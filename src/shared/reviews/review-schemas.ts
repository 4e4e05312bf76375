/** What the review routes take (zod), with the limits of ./review-rules.ts. */
import { z } from 'zod';
import { freeText } from '../schemas';
import { MAX_ANSWER_LENGTH, MAX_REVIEW_LENGTH, MIN_REVIEW_LENGTH } from './review-rules';

export const reviewSchema = z.strictObject({
  rating: z
    .number({ error: 'Please choose a rating from 1 to 5 stars' })
    .int('Please choose a rating from 1 to 5 stars')
    .min(1, 'Please choose a rating from 1 to 5 stars')
    .max(5, 'Please choose a rating from 1 to 5 stars'),
  text: freeText('A review', MAX_REVIEW_LENGTH, 'Please write your review').refine(
    (text) => text.trim().length >= MIN_REVIEW_LENGTH,
    `A review must be at least ${MIN_REVIEW_LENGTH} characters`,
  ),
});

export const answerSchema = z.strictObject({
  text: freeText('An answer', MAX_ANSWER_LENGTH, 'Please write your answer'),
});

export const reviewReportSchema = z.strictObject({
  reason: freeText('The reason', 500, 'Please say what is wrong with this review'),
});
