/**
 * The signed-in student's lesson packages (GET /api/packages), and buying and ending one. Kept in
 * lib because two features show them: the tutor's page (buy, and the booking box's credit) and the
 * wallet (credits left, end).
 */
import type { InferResponseType } from 'hono/client';
import { useCallback, useEffect, useState } from 'react';
import { api, request } from './api';
import { idempotencyHeaders } from './idempotency';

export type LessonPackage = InferResponseType<typeof api.packages.$get, 200>['packages'][number];

export const fetchPackages = async (signal?: AbortSignal) =>
  (await request(api.packages.$get(undefined, { init: { signal: signal ?? null } }))).packages;

/**
 * `key`: the purchase's Idempotency-Key, the same when it is sent again; `studentId`: the child a
 * parent buys it for.
 */
export const buyPackage = (
  tutorId: string,
  lessons: number,
  minutes: number,
  key?: string,
  studentId?: string,
) =>
  request(
    api.packages.$post(
      { json: { tutorId, lessons, minutes, ...(studentId ? { studentId } : {}) } },
      idempotencyHeaders(key),
    ),
  );

export const endPackage = (id: string) => request(api.packages[':id'].end.$post({ param: { id } }));

/**
 * The packages that may pay for a lesson of this student: a parent's are their children's, each
 * for one child (a package's `student`, where the answer names one); a student's are all theirs.
 */
export function packagesOf(packages: LessonPackage[], childId: string | null): LessonPackage[] {
  if (childId === null) return packages;
  return packages.filter((item) => (item as { student?: { id: string } | null }).student?.id === childId);
}

/** The active package that pays for a lesson with this tutor of this length, if one has a credit. */
export const packageFor = (packages: LessonPackage[], tutorId: string, minutes: number) =>
  packages.find(
    (item) =>
      item.status === 'active' &&
      item.tutor.id === tutorId &&
      item.minutes === minutes &&
      item.creditsLeft > 0,
  ) ?? null;

/** The student's packages, read once `enabled`, and again on `reload()`. */
export function useLessonPackages(enabled: boolean) {
  const [packages, setPackages] = useState<LessonPackage[]>([]);
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    void round;
    const controller = new AbortController();
    fetchPackages(controller.signal)
      .then(setPackages)
      .catch(() => {
        // Without them, bookings are shown at the price; the server still uses a package's credit.
      });
    return () => controller.abort();
  }, [enabled, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { packages, reload };
}
