/** A tutor's availability and booking settings, as stored with their profile's time zone. */
import type { Kysely } from 'kysely';
import type { Availability, BookingSettings } from '../../shared/lessons/availability';
import {
  type CancellationPolicy,
  DEFAULT_CANCELLATION_POLICY,
} from '../../shared/lessons/cancellation-policy';
import { DEFAULT_TRIAL } from '../../shared/lessons/lesson-constants';
import { DEFAULT_BOOKING_SETTINGS } from '../../shared/lessons/lesson-schemas';
import type { PackageOffer } from '../../shared/lessons/packages';
import type { TrialSetting } from '../../shared/lessons/trials';
import type { DB } from '../db/schema';
import type { Db } from './lesson-records';

/** A tutor's availability and settings as the API gives and takes them. */
export interface AvailabilityView extends Availability, BookingSettings, CancellationPolicy {
  /** The trial lesson the tutor offers, and its price as they set it. */
  trial: TrialSetting;
  /** The lesson packages the tutor offers (at most three). */
  packages: PackageOffer[];
}

/** The columns an availability is read from: `u` the tutor's user row, `a` their tutor_availability. */
export const availabilityColumns = [
  'u.time_zone',
  'a.weekly',
  'a.overrides',
  'a.lesson_minutes',
  'a.slot_step_minutes',
  'a.minimum_notice_hours',
  'a.booking_horizon_days',
  'a.buffer_minutes',
  'a.instant_booking',
  'a.trial_offered',
  'a.trial_price_cents',
  'a.cancellation_window_hours',
  'a.late_cancel_fee_percent',
  'a.packages',
] as const;

/**
 * Users (`u`) with their availability (`a`, none when never saved): a query to narrow and add to,
 * so that what else a caller needs of the tutor comes in the same round trip.
 */
export const availabilityQuery = (db: Db) =>
  db
    .selectFrom('users as u')
    .leftJoin('tutor_availability as a', 'a.user_id', 'u.id')
    .select(availabilityColumns);

type AvailabilityRow = Awaited<ReturnType<ReturnType<typeof availabilityQuery>['executeTakeFirstOrThrow']>>;

/** A tutor's availability; a tutor who never saved one has no windows and the default settings. */
export async function readAvailability(db: Db, tutorId: string): Promise<AvailabilityView> {
  return availabilityOfRow(await availabilityQuery(db).where('u.id', '=', tutorId).executeTakeFirst());
}

/** The availability of a row of availabilityQuery. */
export function availabilityOfRow(row: AvailabilityRow | undefined): AvailabilityView {
  const defaults = DEFAULT_BOOKING_SETTINGS;
  return {
    timeZone: row?.time_zone ?? 'UTC',
    weekly: row?.weekly ?? [],
    overrides: row?.overrides ?? [],
    lessonMinutes: row?.lesson_minutes ?? [...defaults.lessonMinutes],
    slotStepMinutes: row?.slot_step_minutes ?? defaults.slotStepMinutes,
    minimumNoticeHours: row?.minimum_notice_hours ?? defaults.minimumNoticeHours,
    bookingHorizonDays: row?.booking_horizon_days ?? defaults.bookingHorizonDays,
    bufferMinutes: row?.buffer_minutes ?? defaults.bufferMinutes,
    instantBooking: row?.instant_booking ?? defaults.instantBooking,
    cancellationWindowHours:
      row?.cancellation_window_hours ?? DEFAULT_CANCELLATION_POLICY.cancellationWindowHours,
    lateCancelFeePercent: row?.late_cancel_fee_percent ?? DEFAULT_CANCELLATION_POLICY.lateCancelFeePercent,
    trial: {
      offered: row?.trial_offered ?? DEFAULT_TRIAL.offered,
      priceCents: row?.trial_price_cents ?? DEFAULT_TRIAL.priceCents,
    },
    packages: row?.packages ?? [],
  };
}

/**
 * Saves a tutor's availability; its time zone is the profile's. Checked by availabilitySchema
 * before (and the trial's price against the hourly rate). Without a trial, the saved one stays;
 * so does the cancellation policy without its fields, and so do the saved package offers without
 * `packages`.
 */
export async function saveAvailability(
  db: Kysely<DB>,
  tutorId: string,
  input: Omit<AvailabilityView, 'trial' | 'packages' | keyof CancellationPolicy> & {
    trial?: TrialSetting | undefined;
    packages?: PackageOffer[] | undefined;
  } & { [Key in keyof CancellationPolicy]?: number | undefined },
): Promise<void> {
  const row = {
    weekly: JSON.stringify(
      [...input.weekly].sort((a, b) => a.weekday - b.weekday || a.start.localeCompare(b.start)),
    ),
    overrides: JSON.stringify([...input.overrides].sort((a, b) => a.date.localeCompare(b.date))),
    lesson_minutes: input.lessonMinutes,
    slot_step_minutes: input.slotStepMinutes,
    minimum_notice_hours: input.minimumNoticeHours,
    booking_horizon_days: input.bookingHorizonDays,
    buffer_minutes: input.bufferMinutes,
    instant_booking: input.instantBooking,
    ...(input.cancellationWindowHours !== undefined
      ? { cancellation_window_hours: input.cancellationWindowHours }
      : {}),
    ...(input.lateCancelFeePercent !== undefined
      ? { late_cancel_fee_percent: input.lateCancelFeePercent }
      : {}),
    ...(input.trial ? { trial_offered: input.trial.offered, trial_price_cents: input.trial.priceCents } : {}),
    ...(input.packages ? { packages: JSON.stringify(input.packages) } : {}),
    updated_at: new Date(),
  };
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ time_zone: input.timeZone, updated_at: new Date() })
      .where('id', '=', tutorId)
      .execute();
    await trx
      .insertInto('tutor_availability')
      .values({ user_id: tutorId, ...row })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
      .execute();
  });
}
