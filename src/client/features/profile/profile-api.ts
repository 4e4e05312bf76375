/** The signed-in user's marketplace profile, typed once on the server. */
import type { ProfileDetails } from '../../../server/profile/profile-details';
import { messages } from '../../../shared/messages';
import type { StudentDetailsInput, TutorDetailsInput } from '../../../shared/tutor-schemas';
import { ApiError, api } from '../../lib/api-client';

export type { ProfileDetails, StudentDetails, TutorDetails } from '../../../server/profile/profile-details';

export const fetchDetails = (signal?: AbortSignal) => api<ProfileDetails>('/api/profile/details', { signal });

export const saveDetails = (details: TutorDetailsInput | StudentDetailsInput) =>
  api<ProfileDetails>('/api/profile/details', { method: 'PATCH', body: details });

export async function uploadPhoto(file: File): Promise<ProfileDetails> {
  let res: Response;
  try {
    res = await fetch('/api/profile/photo', {
      method: 'PUT',
      body: file,
      headers: { 'Content-Type': file.type || 'application/octet-stream', Accept: 'application/json' },
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, messages.networkError, 'NETWORK');
  }
  const body = (await res.json().catch(() => ({}))) as ProfileDetails & { message?: string };
  if (!res.ok) throw new ApiError(res.status, body.message ?? messages.unexpectedError);
  return body;
}

export const removePhoto = () => api<ProfileDetails>('/api/profile/photo', { method: 'DELETE' });

/** Every IANA time zone the browser knows, UTC first. */
export function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...zones.filter((zone) => zone !== 'UTC')];
}

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
