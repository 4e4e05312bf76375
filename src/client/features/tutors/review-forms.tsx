/**
 * The forms of a tutor's reviews: a student's review after a lesson, and the tutor's public answer
 * to one. Few visitors see either, so they are fetched with their texts when the page's data says
 * they are shown (./tutor-reviews.tsx).
 */
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useId, useState } from 'react';
import { MAX_REVIEW_LENGTH, MIN_REVIEW_LENGTH } from '../../../shared/reviews/review-rules';
import { Button } from '../../components/button';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { TextArea } from '../../components/text-field';
import { api, request } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import type { TutorReviews } from './tutor-api';

const min = MIN_REVIEW_LENGTH;
const max = MAX_REVIEW_LENGTH;

export function ReviewForm({
  tutorId,
  tutorName,
  you,
}: {
  tutorId: string;
  tutorName: string;
  you: NonNullable<TutorReviews['you']>;
}) {
  const { t } = useLingui();
  const [rating, setRating] = useState(you.review?.rating ?? 0);
  const [text, setText] = useState(you.review?.text ?? '');
  const { busy, problem, setProblem, run } = useApiAction();
  const [done, setDone] = useState<string | null>(null);
  const legendId = useId();
  if (!you.canReview && !you.review)
    return (
      <p className="mt-4 text-sm text-slate-700">
        <Trans>You can review {tutorName} after a lesson with them.</Trans>
      </p>
    );

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setDone(null);
    if (rating === 0) {
      setProblem(t`Please choose a rating from 1 to 5 stars`);
      return;
    }
    const saved = await run(() =>
      request(api.tutors[':id'].review.$put({ param: { id: tutorId }, json: { rating, text } })),
    );
    if (saved) setDone(you.review ? t`Your review was updated.` : t`Thank you: your review is published.`);
  }

  return (
    <form onSubmit={submit} className="mt-6 space-y-4 rounded-xl border border-slate-200 bg-white p-4 sm:p-5">
      <h3 className="font-semibold text-slate-900">
        {you.review ? <Trans>Your review</Trans> : <Trans>Review {tutorName}</Trans>}
      </h3>
      {done ? <StatusMessage>{done}</StatusMessage> : null}
      {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
      <fieldset aria-labelledby={legendId}>
        <legend id={legendId} className="text-sm font-medium text-slate-800">
          <Trans>Your rating</Trans>
        </legend>
        <div className="mt-1 flex flex-wrap gap-2">
          {[1, 2, 3, 4, 5].map((stars) => (
            <label
              key={stars}
              className="flex cursor-pointer items-center gap-1.5 rounded-lg border border-slate-300 px-3 py-2 text-sm has-[:checked]:border-amber-500 has-[:checked]:bg-amber-50"
            >
              <input
                type="radio"
                name="rating"
                value={stars}
                checked={rating === stars}
                onChange={() => setRating(stars)}
                className="size-4"
              />
              <Plural value={stars} one="# star" other="# stars" />
            </label>
          ))}
        </div>
      </fieldset>
      <TextArea
        label={t`Your review`}
        hint={t`What was a lesson like? ${min} to ${max} characters.`}
        value={text}
        onChange={(event) => setText(event.target.value)}
        rows={4}
        maxLength={MAX_REVIEW_LENGTH}
      />
      <Button type="submit" busy={busy}>
        {you.review ? <Trans>Save changes</Trans> : <Trans>Publish review</Trans>}
      </Button>
    </form>
  );
}

export function AnswerForm({ reviewId, reviewer }: { reviewId: string; reviewer: string }) {
  const { t } = useLingui();
  const [text, setText] = useState('');
  const { busy, problem, run } = useApiAction();
  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(() => request(api.reviews[':id'].answer.$post({ param: { id: reviewId }, json: { text } })));
  }
  return (
    <form onSubmit={submit} className="mt-3 space-y-2">
      {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
      <TextArea
        label={t`Answer ${reviewer}`}
        hint={t`Your answer is public, and can be given once.`}
        value={text}
        onChange={(event) => setText(event.target.value)}
        rows={2}
      />
      <Button type="submit" variant="secondary" busy={busy}>
        <Trans>Publish answer</Trans>
      </Button>
    </form>
  );
}
