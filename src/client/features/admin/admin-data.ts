/**
 * The console's calls to /api/admin/ and the shapes they answer, inferred from the server's routes:
 * each page's loader reads with these, and each decision posts through them, then revalidates.
 */
import type { InferRequestType, InferResponseType } from 'hono/client';
import { api, request } from '../../lib/api';
import { idempotencyHeaders } from '../../lib/idempotency';
import { dateTimeLabel as momentLabel } from '../../lib/time-labels';
import { browserTimeZone } from '../../lib/time-zones';

const admin = api.admin;

export type Overview = InferResponseType<typeof admin.overview.$get, 200>;
export type VerificationQueue = InferResponseType<typeof admin.verifications.$get, 200>;
export type VerificationCase = VerificationQueue['waiting'][number];
export type Report = InferResponseType<typeof admin.reports.$get, 200>['reports'][number];
export type AdminSettings = InferResponseType<typeof admin.settings.$get, 200>;
export type SettingsChange = InferRequestType<typeof admin.settings.$patch>['json'];

export const fetchOverview = (signal?: AbortSignal) => request(admin.overview.$get({}, { init: { signal } }));
export const fetchVerifications = (signal?: AbortSignal) =>
  request(admin.verifications.$get({}, { init: { signal } }));
export const fetchReports = (signal?: AbortSignal) => request(admin.reports.$get({}, { init: { signal } }));
export const fetchAudit = (before: string | undefined, signal?: AbortSignal) =>
  request(admin.audit.$get({ query: before ? { before } : {} }, { init: { signal } }));

export const fetchSettings = (signal?: AbortSignal) => request(admin.settings.$get({}, { init: { signal } }));
/** Changes the site settings; the answer says what changed, in words (nothing, when all was as sent). */
export const changeSettings = (json: SettingsChange) => request(admin.settings.$patch({ json }));

export const decideVerification = (tutorId: string, decision: 'approve' | 'decline', note: string) =>
  decision === 'approve'
    ? request(
        admin.verifications[':tutorId'].approve.$post({ param: { tutorId }, json: note ? { note } : {} }),
      )
    : request(admin.verifications[':tutorId'].decline.$post({ param: { tutorId }, json: { note } }));

export const settleReport = (id: string, action: 'dismiss' | 'hide', note: string) => {
  const input = { param: { id }, json: note ? { note } : {} };
  return action === 'dismiss'
    ? request(admin.reports[':id'].dismiss.$post(input))
    : request(admin.reports[':id'].hide.$post(input));
};

export const suspendUser = (id: string, reason: string) =>
  request(admin.users[':id'].suspend.$post({ param: { id }, json: { reason } }));

/** The planned lessons still to come, soonest first; `search` keeps those whose people's name or email has it. */
export type AdminLesson = InferResponseType<typeof admin.lessons.$get, 200>['lessons'][number];

export const fetchLessons = (search: string, signal?: AbortSignal) =>
  request(admin.lessons.$get({ query: search ? { search } : {} }, { init: { signal } }));
export const cancelLesson = (id: string, reason: string) =>
  request(admin.lessons[':id'].cancel.$post({ param: { id }, json: { reason } }));
export const moveLesson = (id: string, start: string, reason: string) =>
  request(admin.lessons[':id'].move.$post({ param: { id }, json: { start, reason } }));

/** "Dec 1, 2026, 17:05": a moment in the console, in this browser's zone, as every page shows one. */
export const dateTimeLabel = (iso: string) => momentLabel(Date.parse(iso), browserTimeZone());

/** The ledger's totals, the top-ups waiting, and who is owed or holds money. */
export type Finance = InferResponseType<typeof admin.finance.$get, 200>;

export const fetchFinance = (signal?: AbortSignal) => request(admin.finance.$get({}, { init: { signal } }));

// A top-up is confirmed once: every retry of its confirmation is the same request.
export const confirmTopUp = (id: string) =>
  request(admin['top-ups'][':id'].confirm.$post({ param: { id } }, idempotencyHeaders(`confirm-${id}`)));
export const rejectTopUp = (id: string, note: string) =>
  request(admin['top-ups'][':id'].reject.$post({ param: { id }, json: { note } }));

/** `key`: the form's Idempotency-Key, the same on each resend of one form. */
export const recordPayout = (json: InferRequestType<typeof admin.payouts.$post>['json'], key?: string) =>
  request(admin.payouts.$post({ json }, idempotencyHeaders(key)));
export const recordBalanceRefund = (
  json: InferRequestType<typeof admin.refunds.$post>['json'],
  key?: string,
) => request(admin.refunds.$post({ json }, idempotencyHeaders(key)));
export const refundPackage = (
  id: string,
  json: InferRequestType<(typeof admin.packages)[':id']['refund']['$post']>['json'],
  key?: string,
) => request(admin.packages[':id'].refund.$post({ param: { id }, json }, idempotencyHeaders(key)));

/** The downloads: every ledger entry between two dates, and what each tutor is owed. */
// The client's paths are under its base, /api (api.ts); a link needs the whole path.
export const entriesCsvUrl = (from: string, to: string) =>
  `/api${admin.finance['entries.csv'].$path({ query: { from, to } })}`;
export const payablesCsvUrl = `/api${admin.finance['payables.csv'].$path()}`;
/** A fresh backup of the whole school (the embedded database, the session secret, saved files). */
export const backupUrl = `/api${admin.backup.$path()}`;

/** Group classes, the latest made first, each with its students (enrolled and waiting). */
export type AdminClass = InferResponseType<typeof admin.classes.$get, 200>['classes'][number];
export type AdminClassStudent = AdminClass['students'][number];

export const fetchClasses = (signal?: AbortSignal) => request(admin.classes.$get({}, { init: { signal } }));
export const cancelClass = (id: string, reason: string) =>
  request(api.classes[':id'].cancel.$post({ param: { id }, json: { reason } }));
export const removeClassStudent = (id: string, studentId: string, reason: string) =>
  request(
    admin.classes[':id'].students[':studentId'].$delete({ param: { id, studentId }, json: { reason } }),
  );

/** The links between a paying parent and a student, the newest first; `search` keeps those whose people's name or email has it. */
export type AdminFamilyLink = InferResponseType<(typeof admin)['family-links']['$get'], 200>['links'][number];

export const fetchFamilyLinks = (search: string, signal?: AbortSignal) =>
  request(admin['family-links'].$get({ query: search ? { search } : {} }, { init: { signal } }));
/** Ends a link as the parent's removal would: what the parent paid for ahead is called off and given back. */
export const unlinkFamily = (parentId: string, studentId: string, reason: string) =>
  request(
    admin['family-links'][':parentId'][':studentId'].$delete({
      param: { parentId, studentId },
      json: { reason },
    }),
  );
