/** The marketplace's calls, through the API's typed client. */
import type { InferResponseType } from 'hono/client';
import { api, request } from '../../lib/api';

export type TutorSearchResult = InferResponseType<typeof api.tutors.$get, 200>;
export type TutorCardData = TutorSearchResult['tutors'][number];
export type TutorReviews = InferResponseType<(typeof api.tutors)[':id']['reviews']['$get'], 200>;
export type Review = TutorReviews['reviews'][number];

export const SEARCH_KEYS = [
  'q',
  'category',
  'subject',
  'language',
  'minPrice',
  'maxPrice',
  'minRating',
  'trial',
  'sort',
  'page',
] as const;

/** Only the known, non-empty parameters of a URL reach the API (and stay in the URL). */
export function cleanSearch(params: URLSearchParams): URLSearchParams {
  const clean = new URLSearchParams();
  for (const key of SEARCH_KEYS) {
    const value = params.get(key)?.trim();
    if (value) clean.set(key, value);
  }
  return clean;
}

/**
 * How many filters narrow the search, as the Filters button says: category, subject, language,
 * rating, the trial lesson, and the price range as one. The text has its own field and the sort only orders.
 */
export function activeFilterCount(params: URLSearchParams): number {
  const set = (key: string) => Boolean(params.get(key)?.trim());
  return (
    ['category', 'subject', 'language', 'minRating', 'trial'].filter(set).length +
    (set('minPrice') || set('maxPrice') ? 1 : 0)
  );
}

export function searchTutors(params: URLSearchParams, signal?: AbortSignal) {
  const query = Object.fromEntries(cleanSearch(params));
  return request(api.tutors.$get({ query }, { init: { signal } }));
}

export function fetchTutor(id: string, signal?: AbortSignal) {
  return request(api.tutors[':id'].$get({ param: { id } }, { init: { signal } }));
}

/** One page of a tutor's reviews, newest first. */
export const fetchReviews = (tutorId: string, page: number, signal?: AbortSignal) =>
  request(
    api.tutors[':id'].reviews.$get(
      { param: { id: tutorId }, query: { page: String(page) } },
      { init: { signal } },
    ),
  );
