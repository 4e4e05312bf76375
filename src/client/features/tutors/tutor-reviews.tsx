import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useState } from 'react';
import { formatLocale } from '../../../shared/format-locale';
import { Button } from '../../components/button';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { failureMessage } from '../../lib/api';
import { TRY_AGAIN } from '../../lib/api-action';
import { withTexts } from '../../lib/i18n';
import { preloadable } from '../../lib/preloadable';
import { dateLabel } from '../../lib/time-labels';
import { browserTimeZone } from '../../lib/time-zones';
import { useAuth } from '../auth';
import { ratingLabel, Stars } from './ratings';
import { fetchReviews, type Review, type TutorReviews } from './tutor-api';

/**
 * The forms for a review and an answer, fetched with their texts where they are shown (by the
 * page's loader, so that they render with the page).
 */
export const reviewForms = preloadable(() =>
  withTexts(import('./review-forms'), 'features/tutors/review-forms.tsx'),
);
const ReviewForm = reviewForms.part((module) => module.ReviewForm);
const AnswerForm = reviewForms.part((module) => module.AnswerForm);

/** Reporting is rare: its dialog's code is fetched when someone first reports a review. */
const ReportDialog = lazy(() =>
  withTexts(import('./review-report-dialog'), 'features/tutors/review-report-dialog.tsx'),
);

/** "December 1, 2026", in this browser's zone. */
const dateOf = (iso: string) => dateLabel(Date.parse(iso), browserTimeZone());

/** A whole number in the page's language. */
const formatted = (n: number) => new Intl.NumberFormat(formatLocale()).format(n);

export function ReviewsSection({
  tutorId,
  tutorName,
  first,
}: {
  tutorId: string;
  tutorName: string;
  first: TutorReviews;
}) {
  const { t } = useLingui();
  const auth = useAuth();
  const user = auth.status === 'signed-in' && auth.user.emailVerified ? auth.user : null;
  const [more, setMore] = useState<Review[]>([]);
  const [page, setPage] = useState(1);
  const [problem, setProblem] = useState<string | null>(null);
  const [reporting, setReporting] = useState<Review | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const reviews = [
    ...first.reviews,
    ...more.filter((review) => !first.reviews.some((r) => r.id === review.id)),
  ];
  const hasMore = first.count > reviews.length;

  async function showMore() {
    try {
      const next = await fetchReviews(tutorId, page + 1);
      setMore((current) => [...current, ...next.reviews]);
      setPage(page + 1);
    } catch (error) {
      setProblem(failureMessage(error, TRY_AGAIN));
    }
  }

  return (
    <section aria-labelledby="reviews-heading" className="mt-8">
      <h2 id="reviews-heading" className="text-xl font-semibold text-slate-900">
        <Trans>Reviews</Trans>
      </h2>
      <Summary reviews={first} />
      {first.you ? (
        <Suspense fallback={null}>
          <ReviewForm tutorId={tutorId} tutorName={tutorName} you={first.you} />
        </Suspense>
      ) : null}
      {note ? (
        <div className="mt-4">
          <StatusMessage>{note}</StatusMessage>
        </div>
      ) : null}
      <ol className="mt-6 space-y-6">
        {reviews.map((review) => (
          <li key={review.id}>
            <ReviewItem
              review={review}
              canAnswer={user?.id === tutorId && review.answer === null}
              canReport={user !== null && user.id !== tutorId}
              onReport={() => setReporting(review)}
            />
          </li>
        ))}
      </ol>
      {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
      {hasMore ? (
        <Button variant="secondary" className="mt-6" onClick={showMore}>
          <Trans>Show more reviews</Trans>
        </Button>
      ) : null}
      {reporting ? (
        <Suspense fallback={null}>
          <ReportDialog
            review={reporting}
            onClose={(sent) => {
              setReporting(null);
              if (sent) setNote(t`Thank you: the report was sent to the moderators.`);
            }}
          />
        </Suspense>
      ) : null}
    </section>
  );
}

function Summary({ reviews }: { reviews: TutorReviews }) {
  const { t } = useLingui();
  if (reviews.average === null)
    return (
      <p className="mt-3 text-slate-700">
        <Trans>No reviews yet. Students review a tutor after a lesson with them.</Trans>
      </p>
    );
  const average = ratingLabel(reviews.average);
  const count = reviews.count;
  return (
    <div className="mt-3 flex flex-col gap-4 sm:flex-row sm:items-center">
      <div>
        <p className="text-4xl font-bold text-slate-900">{average}</p>
        <Stars rating={reviews.average} className="text-lg" />
        <p className="text-sm text-slate-600">
          <Plural value={count} one="# review" other="# reviews" />
          <span className="sr-only">
            <Trans>, rated {average} out of 5 on average</Trans>
          </span>
        </p>
      </div>
      <dl className="flex-1 space-y-1" aria-label={t`How the ratings spread`}>
        {([5, 4, 3, 2, 1] as const).map((stars) => {
          const n = reviews.distribution[stars];
          return (
            <div key={stars} className="flex items-center gap-2 text-sm">
              <dt className="w-14 shrink-0 text-slate-700">
                <Plural value={stars} one="# star" other="# stars" />
              </dt>
              <dd className="flex flex-1 items-center gap-2">
                <span className="h-2 flex-1 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                  <span
                    className="block h-full rounded-full bg-amber-400"
                    style={{ width: `${reviews.count ? (n / reviews.count) * 100 : 0}%` }}
                  />
                </span>
                <span className="w-8 text-end text-slate-700">{formatted(n)}</span>
              </dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}

function ReviewItem({
  review,
  canAnswer,
  canReport,
  onReport,
}: {
  review: Review;
  canAnswer: boolean;
  canReport: boolean;
  onReport: () => void;
}) {
  const { t } = useLingui();
  const reviewer = review.reviewer;
  const rating = review.rating;
  return (
    <article
      aria-label={t`Review by ${reviewer}`}
      className="rounded-xl border border-slate-200 bg-white p-4"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <p className="font-semibold text-slate-900">{review.reviewer}</p>
        <Stars rating={review.rating} />
        <span className="sr-only">
          <Trans>{rating} out of 5 stars</Trans>
        </span>
        <p className="text-sm text-slate-600">
          {dateOf(review.createdAt)}
          {review.editedAt ? (
            <>
              {' · '}
              <Trans>edited</Trans>
            </>
          ) : null}
        </p>
      </div>
      <p dir="auto" className="mt-2 whitespace-pre-line break-words text-slate-800">
        {review.text}
      </p>
      {review.answer ? (
        <div className="mt-3 rounded-lg bg-slate-50 p-3 text-sm">
          <p className="font-semibold text-slate-900">
            <Trans>The tutor’s answer</Trans>
          </p>
          <p className="mt-1 whitespace-pre-line break-words text-slate-800">{review.answer.text}</p>
        </div>
      ) : null}
      {canAnswer ? (
        <Suspense fallback={null}>
          <AnswerForm reviewId={review.id} reviewer={review.reviewer} />
        </Suspense>
      ) : null}
      {canReport ? (
        <button
          type="button"
          onClick={onReport}
          aria-label={t`Report the review by ${reviewer}`}
          className="mt-2 text-xs font-medium text-slate-600 underline-offset-2 hover:text-red-700 hover:underline"
        >
          <Trans>Report</Trans>
        </button>
      ) : null}
    </article>
  );
}
