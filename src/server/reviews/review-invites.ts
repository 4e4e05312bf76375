/**
 * The mail that asks a student to review a tutor, after their first and their third completed
 * lesson together, unless they already did. Sent in the transaction that completed the lesson,
 * through the outbox, so it goes out once whichever server completed it.
 */
import type { Transaction } from 'kysely';
import { PRODUCT_NAME } from '../../shared/constants';
import { tutorPath } from '../../shared/routes';
import type { DB } from '../db/schema';
import { escapeHtml } from '../mail/html';
import { layout } from '../mail/mail-templates';
import type { Mailer } from '../mail/mailer';

/** The completed lessons with a tutor after which a student is asked. */
const ASK_AFTER = new Set([1, 3]);

export async function inviteToReview(
  deps: { mailer: Mailer; appUrl: string },
  trx: Transaction<DB>,
  completed: { tutor_id: string; student_id: string }[],
) {
  const pairs = new Map(completed.map((row) => [`${row.student_id} ${row.tutor_id}`, row]));
  for (const { student_id: studentId, tutor_id: tutorId } of pairs.values()) {
    const [count, reviewed, student, tutor] = await Promise.all([
      trx
        .selectFrom('lessons')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('student_id', '=', studentId)
        .where('tutor_id', '=', tutorId)
        .where('status', '=', 'completed')
        .executeTakeFirstOrThrow(),
      trx
        .selectFrom('reviews')
        .select('id')
        .where('student_id', '=', studentId)
        .where('tutor_id', '=', tutorId)
        .executeTakeFirst(),
      trx
        .selectFrom('users')
        .select(['email', 'display_name'])
        .where('id', '=', studentId)
        .executeTakeFirstOrThrow(),
      trx.selectFrom('users').select('display_name').where('id', '=', tutorId).executeTakeFirstOrThrow(),
    ]);
    if (reviewed || !ASK_AFTER.has(Number(count.n))) continue;
    const url = `${deps.appUrl}${tutorPath(tutorId)}#reviews-heading`;
    const subject = `How are your lessons with ${tutor.display_name}?`;
    const lines = [
      `Hi ${student.display_name},`,
      `You have had ${Number(count.n) === 1 ? 'your first lesson' : 'three lessons'} with ${tutor.display_name}. A few words about them help other students choose a tutor, and help ${tutor.display_name} too.`,
    ];
    await deps.mailer.sendMail(
      {
        to: student.email,
        subject: `${subject} (${PRODUCT_NAME})`,
        text: `${lines.join('\n\n')}\n\nWrite a review: ${url}\n`,
        html: layout(subject, lines.map(escapeHtml), { label: 'Write a review', url }),
      },
      trx,
    );
  }
}
