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

/** Pairs looked up per query: two parameters each. */
const PAIRS_PER_QUERY = 1_000;

export async function inviteToReview(
  deps: { mailer: Mailer; appUrl: string },
  trx: Transaction<DB>,
  completed: { tutor_id: string; student_id: string }[],
) {
  const pairs = [...new Map(completed.map((row) => [`${row.student_id} ${row.tutor_id}`, row])).values()];
  for (let start = 0; start < pairs.length; start += PAIRS_PER_QUERY) {
    // One query for a job's worth of pairs: how many lessons each has completed, and whether the
    // student reviewed the tutor already (then no invitation at all).
    const rows = await trx
      .selectFrom('lessons as l')
      .innerJoin('users as s', 's.id', 'l.student_id')
      .innerJoin('users as t', 't.id', 'l.tutor_id')
      .select([
        'l.tutor_id',
        's.email as student_email',
        's.display_name as student_name',
        't.display_name as tutor_name',
      ])
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('l.status', '=', 'completed')
      .where((eb) =>
        eb(
          eb.refTuple('l.student_id', 'l.tutor_id'),
          'in',
          pairs.slice(start, start + PAIRS_PER_QUERY).map((pair) => eb.tuple(pair.student_id, pair.tutor_id)),
        ),
      )
      .where(({ exists, not, selectFrom }) =>
        not(
          exists(
            selectFrom('reviews as r')
              .select('r.id')
              .whereRef('r.student_id', '=', 'l.student_id')
              .whereRef('r.tutor_id', '=', 'l.tutor_id'),
          ),
        ),
      )
      .groupBy(['l.student_id', 'l.tutor_id', 's.email', 's.display_name', 't.display_name'])
      .execute();
    const mails = rows
      .filter((row) => ASK_AFTER.has(Number(row.n)))
      .map((row) => {
        const url = `${deps.appUrl}${tutorPath(row.tutor_id)}#reviews-heading`;
        const subject = `How are your lessons with ${row.tutor_name}?`;
        const lines = [
          `Hi ${row.student_name},`,
          `You have had ${Number(row.n) === 1 ? 'your first lesson' : 'three lessons'} with ${row.tutor_name}. A few words about them help other students choose a tutor, and help ${row.tutor_name} too.`,
        ];
        return {
          to: row.student_email,
          subject: `${subject} (${PRODUCT_NAME})`,
          text: `${lines.join('\n\n')}\n\nWrite a review: ${url}\n`,
          html: layout(subject, lines.map(escapeHtml), { label: 'Write a review', url }),
        };
      });
    await deps.mailer.sendMails(mails, trx);
  }
}
