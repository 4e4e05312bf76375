/** Group classes' calls, through the API's typed client (docs/api.md, "Group classes"). */
import type { InferRequestType, InferResponseType } from 'hono/client';
import { api, request } from '../../lib/api';
import { idempotencyHeaders } from '../../lib/idempotency';

export type ClassList = InferResponseType<typeof api.classes.$get, 200>;
export type ClassView = InferResponseType<(typeof api.classes)[':id']['$get'], 200>;
export type ClassSession = ClassView['sessions'][number];
export type NewClass = InferRequestType<typeof api.classes.$post>['json'];

/** The filters /classes keeps in its URL, as the API takes them. */
export interface ClassFilters {
  subject?: string;
  language?: string;
  tutorId?: string;
  /** Instants in ISO 8601: the classes with a session in that range. */
  from?: string;
  to?: string;
  maxPriceCents?: string;
  page?: string;
}

export const listClasses = (query: ClassFilters, signal?: AbortSignal) =>
  request(api.classes.$get({ query }, { init: { signal } }));

/** A class; with `studentId` (a parent's child), its `you` is that child's place. */
export const fetchClass = (id: string, signal?: AbortSignal, studentId?: string) =>
  request(
    api.classes[':id'].$get({ param: { id }, query: studentId ? { studentId } : {} }, { init: { signal } }),
  );

export const createClass = (json: NewClass) => request(api.classes.$post({ json }));

/**
 * Holds every session's price ahead, or a place on the waitlist; `key` makes a resend safe. A
 * parent names the child the seat is for (`studentId`), in a body the route reads without a schema
 * of its own, so the typed client does not know it: it goes as the request's body.
 */
export const enrol = (id: string, key: string, studentId?: string) =>
  request(
    api.classes[':id'].enrol.$post(
      { param: { id } },
      studentId
        ? {
            headers: { 'Idempotency-Key': key, 'Content-Type': 'application/json' },
            init: { body: JSON.stringify({ studentId }) },
          }
        : idempotencyHeaders(key),
    ),
  );

/** Leaves a class: the student's own place, or a parent's child's (`studentId`, sent as enrol sends it). */
export const leaveClass = (id: string, studentId?: string) =>
  request(
    api.classes[':id'].leave.$post(
      { param: { id } },
      studentId
        ? { headers: { 'Content-Type': 'application/json' }, init: { body: JSON.stringify({ studentId }) } }
        : undefined,
    ),
  );

export const cancelClass = (id: string, reason: string) =>
  request(api.classes[':id'].cancel.$post({ param: { id }, json: { reason } }));
