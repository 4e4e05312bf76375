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
import { type DefaultLanguage, mailLanguage, mailWords } from '../mail/mail-language';
import { greetingOf, layout } from '../mail/mail-templates';
import type { Mailer } from '../mail/mailer';

/** The completed lessons with a tutor after which a student is asked. */
const ASK_AFTER = new Set([1, 3]);

/** Pairs looked up per query: two parameters each. */
const PAIRS_PER_QUERY = 1_000;

export async function inviteToReview(
  // defaultLanguage: the school's, for a student who never chose one (English when not given).
  deps: { mailer: Mailer; appUrl: string; defaultLanguage?: DefaultLanguage },
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
        's.language as student_language',
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
      .groupBy(['l.student_id', 'l.tutor_id', 's.email', 's.display_name', 's.language', 't.display_name'])
      .execute();
    const mails = rows
      .filter((row) => ASK_AFTER.has(Number(row.n)))
      .map((row) => {
        const url = `${deps.appUrl}${tutorPath(row.tutor_id)}#reviews-heading`;
        const language = mailLanguage(row.student_language, deps.defaultLanguage);
        const { t } = mailWords(language);
        const tutor = row.tutor_name;
        const subject = t(/*i18n*/ 'How are your lessons with {tutor}?', { tutor });
        const lines = [
          greetingOf(language, row.student_name),
          Number(row.n) === 1
            ? t(
                /*i18n*/ 'You have had your first lesson with {tutor}. A few words about them help other students choose a tutor, and help {tutor} too.',
                { tutor },
              )
            : t(
                /*i18n*/ 'You have had three lessons with {tutor}. A few words about them help other students choose a tutor, and help {tutor} too.',
                { tutor },
              ),
        ];
        return {
          to: row.student_email,
          subject: t(/*i18n*/ '{subject} ({product})', { subject, product: PRODUCT_NAME }),
          text: `${lines.join('\n\n')}\n\n${t(/*i18n*/ 'Write a review: {url}', { url })}\n`,
          html: layout(language, subject, lines.map(escapeHtml), {
            label: t(/*i18n*/ 'Write a review'),
            url,
          }),
        };
      });
    await deps.mailer.sendMails(mails, trx);
  }
}
