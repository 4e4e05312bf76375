/**
 * The marketplace side of a profile: a tutor's public profile (headline, about, subjects, rate,
 * languages, time zone, experience, photo) and a student's time zone and learning goals. Saving
 * any of it refreshes the tutor's search entry, so the publication rule always holds.
 */
import type { Kysely } from 'kysely';
import type { Role } from '../../shared/constants';
import { missingForPublication } from '../../shared/tutor-catalog';
import type { StudentDetailsChanges, TutorDetailsChanges } from '../../shared/tutor-schemas';
import type { DB } from '../db/schema';
import type { ReminderPreferences } from '../lessons/reminders-rules';
import { refreshTutorListing } from '../platform/tutor-listing';
import { categoriesOfChosenSubjects } from '../settings/subject-catalog';

export interface TutorDetails {
  role: 'tutor';
  timeZone: string | null;
  /** Whether messages left unread for ten minutes are mailed. */
  messageMails: boolean;
  /** Which lesson reminders are mailed: a day and an hour before each confirmed lesson. */
  reminders: ReminderPreferences;
  headline: string;
  about: string;
  subjects: string[];
  hourlyRate: number | null;
  languages: string[];
  yearsExperience: number | null;
  hasPhoto: boolean;
  photoVersion: string | null;
  published: boolean;
  /** What is still missing before the profile appears in search. */
  missing: string[];
}

/** A student's profile, and a parent's (who books and pays as a student does). */
export interface StudentDetails {
  role: 'student' | 'parent';
  timeZone: string | null;
  /** Whether messages left unread for ten minutes are mailed. */
  messageMails: boolean;
  /** Which lesson reminders are mailed: a day and an hour before each confirmed lesson. */
  reminders: ReminderPreferences;
  learningGoals: string;
}

export type ProfileDetails = TutorDetails | StudentDetails;

export async function readDetails(db: Kysely<DB>, userId: string, role: Role): Promise<ProfileDetails> {
  const user = await db
    .selectFrom('users')
    .select([
      'time_zone',
      'learning_goals',
      'email_verified',
      'message_mails',
      'reminder_day_before',
      'reminder_hour_before',
    ])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const reminders = { dayBefore: user.reminder_day_before, hourBefore: user.reminder_hour_before };
  if (role === 'student' || role === 'parent')
    return {
      role,
      timeZone: user.time_zone,
      learningGoals: user.learning_goals,
      messageMails: user.message_mails,
      reminders,
    };
  const profile = await db
    .selectFrom('tutor_profiles as tp')
    .leftJoin('profile_photos as pp', 'pp.user_id', 'tp.user_id')
    .select([
      'tp.headline',
      'tp.about',
      'tp.subjects',
      'tp.hourly_rate',
      'tp.languages',
      'tp.years_experience',
      'tp.has_photo',
      'tp.published',
      'pp.version',
    ])
    .where('tp.user_id', '=', userId)
    .executeTakeFirst();
  const details = {
    headline: profile?.headline ?? '',
    about: profile?.about ?? '',
    subjects: profile?.subjects ?? [],
    hourlyRate: profile?.hourly_rate ?? null,
    languages: profile?.languages ?? [],
    yearsExperience: profile?.years_experience ?? null,
    hasPhoto: profile?.has_photo ?? false,
  };
  return {
    role,
    timeZone: user.time_zone,
    messageMails: user.message_mails,
    reminders,
    ...details,
    photoVersion: details.hasPhoto ? (profile?.version ?? null) : null,
    published: profile?.published ?? false,
    missing: missingForPublication({ ...details, emailVerified: user.email_verified }),
  };
}

/** The users columns a change of reminders sets: only those it names. */
function reminderColumns(reminders: TutorDetailsChanges['reminders']) {
  return {
    ...(reminders?.dayBefore !== undefined ? { reminder_day_before: reminders.dayBefore } : {}),
    ...(reminders?.hourBefore !== undefined ? { reminder_hour_before: reminders.hourBefore } : {}),
  };
}

/** Creates the tutor's profile row on first use, so every later write is a plain UPDATE. */
async function ensureTutorProfile(db: Kysely<DB>, userId: string) {
  await db
    .insertInto('tutor_profiles')
    .values({ user_id: userId })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

export async function saveTutorDetails(db: Kysely<DB>, userId: string, input: TutorDetailsChanges) {
  await db.transaction().execute(async (trx) => {
    if (input.timeZone !== undefined || input.messageMails !== undefined || input.reminders !== undefined) {
      await trx
        .updateTable('users')
        .set({
          ...(input.timeZone !== undefined ? { time_zone: input.timeZone } : {}),
          ...(input.messageMails !== undefined ? { message_mails: input.messageMails } : {}),
          ...reminderColumns(input.reminders),
          updated_at: new Date(),
        })
        .where('id', '=', userId)
        .execute();
    }
    await ensureTutorProfile(trx, userId);
    const subjects = input.subjects;
    // Checked against the catalogue in effect: a retired subject stays where it already was, and
    // nowhere else. The row is locked, so two saves at once each check against the other's result.
    let categories: string[] | undefined;
    if (subjects !== undefined) {
      const listed = await trx
        .selectFrom('tutor_profiles')
        .select('subjects')
        .where('user_id', '=', userId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      categories = await categoriesOfChosenSubjects(trx, subjects, listed.subjects);
    }
    await trx
      .updateTable('tutor_profiles')
      .set({
        ...(input.headline !== undefined ? { headline: input.headline } : {}),
        ...(input.about !== undefined ? { about: input.about } : {}),
        ...(subjects !== undefined && categories !== undefined ? { subjects, categories } : {}),
        ...(input.hourlyRate !== undefined ? { hourly_rate: input.hourlyRate } : {}),
        ...(input.languages !== undefined ? { languages: input.languages } : {}),
        ...(input.yearsExperience !== undefined ? { years_experience: input.yearsExperience } : {}),
        updated_at: new Date(),
      })
      .where('user_id', '=', userId)
      .execute();
    await refreshTutorListing(trx, userId);
  });
}

export async function saveStudentDetails(db: Kysely<DB>, userId: string, input: StudentDetailsChanges) {
  await db
    .updateTable('users')
    .set({
      ...(input.timeZone !== undefined ? { time_zone: input.timeZone } : {}),
      ...(input.learningGoals !== undefined ? { learning_goals: input.learningGoals } : {}),
      ...(input.messageMails !== undefined ? { message_mails: input.messageMails } : {}),
      ...reminderColumns(input.reminders),
      updated_at: new Date(),
    })
    .where('id', '=', userId)
    .execute();
}

/**
 * Saves the zone a person's browser reported, but only while none is saved: one conditional
 * UPDATE settles it, so a zone the person chose is never overwritten, not even by two tabs
 * reporting at once (the second finds the row no longer null). Answers the zone saved now.
 */
export async function saveReportedTimeZone(
  db: Kysely<DB>,
  userId: string,
  timeZone: string,
): Promise<{ timeZone: string; saved: boolean }> {
  const updated = await db
    .updateTable('users')
    .set({ time_zone: timeZone, updated_at: new Date() })
    .where('id', '=', userId)
    .where('time_zone', 'is', null)
    .returning('time_zone')
    .executeTakeFirst();
  if (updated) return { timeZone, saved: true };
  const user = await db
    .selectFrom('users')
    .select('time_zone')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return { timeZone: user.time_zone ?? timeZone, saved: false };
}

export async function savePhoto(
  db: Kysely<DB>,
  userId: string,
  photo: { image: Buffer; contentType: string; version: string },
) {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('profile_photos')
      .values({
        user_id: userId,
        image: photo.image,
        content_type: photo.contentType,
        version: photo.version,
      })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          image: photo.image,
          content_type: photo.contentType,
          version: photo.version,
          updated_at: new Date(),
        }),
      )
      .execute();
    await ensureTutorProfile(trx, userId);
    await trx
      .updateTable('tutor_profiles')
      .set({ has_photo: true, updated_at: new Date() })
      .where('user_id', '=', userId)
      .execute();
    await refreshTutorListing(trx, userId);
  });
}

export async function removePhoto(db: Kysely<DB>, userId: string) {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('profile_photos').where('user_id', '=', userId).execute();
    await trx
      .updateTable('tutor_profiles')
      .set({ has_photo: false, updated_at: new Date() })
      .where('user_id', '=', userId)
      .execute();
    await refreshTutorListing(trx, userId);
  });
}
