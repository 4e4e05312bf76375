/** The marketplace API as the browser calls it; request and response types are the server's. */
import type { TutorPublicProfile, TutorSearchResult } from '../../../shared/tutor-schemas';
import { api } from '../../lib/api-client';

export const SEARCH_KEYS = [
  'q',
  'category',
  'subject',
  'language',
  'minPrice',
  'maxPrice',
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

export function searchTutors(params: URLSearchParams, signal?: AbortSignal) {
  const query = cleanSearch(params).toString();
  return api<TutorSearchResult>(`/api/tutors${query ? `?${query}` : ''}`, { signal });
}

export function fetchTutor(id: string, signal?: AbortSignal) {
  return api<TutorPublicProfile>(`/api/tutors/${encodeURIComponent(id)}`, { signal });
}

export const photoUrl = (id: string, version: string | null) =>
  `/api/tutors/${encodeURIComponent(id)}/photo${version ? `?v=${version}` : ''}`;
