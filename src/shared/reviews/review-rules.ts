/**
 * What reviews are made of, and the arithmetic of ratings: plain functions shared by the server,
 * which enforces them, and the pages, which show them. The routes' bodies are checked by
 * ./review-schemas.ts.
 */

export const MIN_REVIEW_LENGTH = 20;
export const MAX_REVIEW_LENGTH = 2000;
export const MAX_ANSWER_LENGTH = 2000;
export const REVIEWS_PAGE_SIZE = 10;

/**
 * The "best rated" sort ranks by a Bayesian average: every tutor starts with PRIOR_WEIGHT
 * imaginary reviews at PRIOR_MEAN, so one 5-star review (4.17) does not outrank fifty reviews
 * averaging 4.9 (4.81). The prior is a typical rating on marketplaces like this one.
 */
export const PRIOR_MEAN = 4;
export const PRIOR_WEIGHT = 5;

/** The average shown: one decimal, null without reviews. */
export function displayedAverage(sum: number, count: number): number | null {
  return count === 0 ? null : Math.round((sum / count) * 10) / 10;
}

/** How a reviewer is named in public: first name and the initial of the last ("Maria K."). */
export function reviewerName(displayName: string): string {
  const parts = displayName.trim().split(/\s+/).filter(Boolean);
  const [first = 'A student', ...rest] = parts;
  const last = rest.at(-1);
  return last ? `${first} ${[...last][0]?.toUpperCase()}.` : first;
}
