/**
 * The person's group classes for their data export (classes.json): as a tutor, the classes they
 * teach with their sessions; as a student, their places in classes (enrolled, waiting, or left).
 * Their seats in sessions are lessons, in lessons.json. Other people appear as the class showed
 * them: a tutor by name, the students of a taught class only as a count.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';

export async function classesOf(db: Kysely<DB>, userId: string) {
  const taught = await db
    .selectFrom('classes')
    .select([
      'id',
      'title',
      'subject',
      'language',
      'description',
      'minutes',
      'seats',
      'min_students as minStudents',
      'seats_taken as seatsTaken',
      'price_cents as priceCents',
      'currency',
      'status',
      'cancel_reason as cancelReason',
      'cancelled_at as cancelledAt',
      'created_at as createdAt',
    ])
    .where('tutor_id', '=', userId)
    .orderBy('created_at')
    .execute();
  const enrolments = await db
    .selectFrom('class_enrolments as e')
    .innerJoin('classes as c', 'c.id', 'e.class_id')
    .innerJoin('users as t', 't.id', 'c.tutor_id')
    .select([
      'c.id as classId',
      'c.title',
      'c.subject',
      'c.price_cents as priceCents',
      'c.currency',
      'c.status as classStatus',
      't.id as tutorId',
      't.display_name as tutorName',
      'e.status',
      'e.position',
      'e.enrolled_at as enrolledAt',
      'e.created_at as createdAt',
      'e.updated_at as updatedAt',
    ])
    .where('e.student_id', '=', userId)
    .orderBy('e.created_at')
    .execute();
  const classIds = [...taught.map((row) => row.id), ...enrolments.map((row) => row.classId)];
  const sessions = classIds.length
    ? await db
        .selectFrom('class_sessions')
        .select(['id', 'class_id', 'starts_at as startsAt', 'ends_at as endsAt', 'status'])
        .where('class_id', 'in', classIds)
        .orderBy('starts_at')
        .execute()
    : [];
  const sessionsOf = (classId: string) =>
    sessions.filter((session) => session.class_id === classId).map(({ class_id: _, ...session }) => session);
  return {
    taught: taught.map((row) => ({ ...row, sessions: sessionsOf(row.id) })),
    enrolments: enrolments.map((row) => ({ ...row, sessions: sessionsOf(row.classId) })),
  };
}
