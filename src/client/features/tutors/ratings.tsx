/** Ratings as people read them: stars drawn for the eye, said in words for screen readers. */
import { Plural, Trans } from '@lingui/react/macro';
import { formatLocale } from '../../../shared/format-locale';

/** An average rating with one decimal, in the page's language: "4.8". */
export const ratingLabel = (average: number) =>
  new Intl.NumberFormat(formatLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
    average,
  );

/** "★★★★☆": decorative; the words beside it say the same. */
export function Stars({ rating, className = '' }: { rating: number; className?: string }) {
  const full = Math.round(rating);
  return (
    <span aria-hidden="true" className={`tracking-tight text-amber-500 ${className}`}>
      {'★'.repeat(full)}
      <span className="text-slate-300">{'★'.repeat(5 - full)}</span>
    </span>
  );
}

/** "★ 4.8 (12 reviews)", or that there are none yet. */
export function RatingSummary({ rating }: { rating: { average: number | null; count: number } }) {
  if (rating.average === null)
    return (
      <span className="text-xs text-slate-600">
        <Trans>No reviews yet</Trans>
      </span>
    );
  const average = ratingLabel(rating.average);
  const count = rating.count;
  return (
    <span className="inline-flex items-center gap-1 text-sm text-slate-800">
      <span aria-hidden="true" className="text-amber-500">
        ★
      </span>
      <span className="font-semibold">{average}</span>
      <span className="text-slate-600">
        (<Plural value={count} one="# review" other="# reviews" />)
      </span>
      <span className="sr-only">
        <Trans>: rated {average} out of 5</Trans>
      </span>
    </span>
  );
}
