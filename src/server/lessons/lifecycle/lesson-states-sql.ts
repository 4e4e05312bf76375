/**
 * The shared meanings of a lesson's status (src/shared/lessons/lesson-states.ts) as SQL
 * conditions, built from the same constants, so that a query and a screen never disagree on what
 * "planned" or "took place" is: each condition reads the stored status as it is at `now`.
 */
import { type RawBuilder, sql } from 'kysely';
import type { LessonStatus } from '../../../shared/lessons/lesson-schemas';
import {
  JOINABLE_STATUSES,
  LAPSES,
  PLANNED_STATUSES,
  TOOK_PLACE_STATUSES,
} from '../../../shared/lessons/lesson-states';

type Lapsing = keyof typeof LAPSES;
const lapsing = Object.keys(LAPSES) as Lapsing[];

/**
 * Lessons whose status, read at `now`, is one of `statuses`. `table` names the lessons' alias in
 * the query, if it has one.
 */
export function statusReadIn(
  statuses: readonly LessonStatus[],
  now: number,
  table?: string,
): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(table ? `${table}.${name}` : name);
  const at = new Date(now);
  const cases: RawBuilder<unknown>[] = [];
  for (const status of statuses) {
    const lapse = LAPSES[status as Lapsing];
    // A status that lapses reads so only until its moment passes.
    if (lapse)
      cases.push(
        sql`(${column('status')} = ${status} and (${column(lapse.at)} is null or ${column(lapse.at)} > ${at}))`,
      );
    else cases.push(sql`${column('status')} = ${status}`);
    // And a status is read from those that lapsed into it.
    for (const from of lapsing.filter((stored) => LAPSES[stored].into === status))
      cases.push(sql`(${column('status')} = ${from} and ${column(LAPSES[from].at)} <= ${at})`);
  }
  return sql<boolean>`(${sql.join(cases, sql` or `)})`;
}

/** Planned at `now`: a request still waiting for its answer, or a confirmed lesson not ended. */
export const plannedAt = (now: number, table?: string) => statusReadIn(PLANNED_STATUSES, now, table);

/** Took place by `now`: completed, or confirmed with its end passed. */
export const tookPlaceBy = (now: number, table?: string) => statusReadIn(TOOK_PLACE_STATUSES, now, table);

/** Has a room at `now` (the room's own window decides when it opens). */
export const joinableAt = (now: number, table?: string) => statusReadIn(JOINABLE_STATUSES, now, table);
