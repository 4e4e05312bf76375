/** Ratings as people read them: stars drawn for the eye, said in words for screen readers. */

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
  if (rating.average === null) return <span className="text-xs text-slate-600">No reviews yet</span>;
  const reviews = `${rating.count} review${rating.count === 1 ? '' : 's'}`;
  return (
    <span className="inline-flex items-center gap-1 text-sm text-slate-800">
      <span aria-hidden="true" className="text-amber-500">
        ★
      </span>
      <span className="font-semibold">{rating.average.toFixed(1)}</span>
      <span className="text-slate-600">({reviews})</span>
      <span className="sr-only">: rated {rating.average.toFixed(1)} out of 5</span>
    </span>
  );
}
