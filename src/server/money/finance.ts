/**
 * What the school's admins do with money: refunds of a package's unused credits or of one lesson.
 * Payouts and refunds of a balance are in ./payouts.ts; what admins read is in ./finance-overview.ts
 * (the totals and what waits) and ./finance-csv.ts (the entries, the payables, a tutor's earnings).
 */
import type { Kysely, Transaction } from 'kysely';
import { type Amount, formatAmount } from '../../shared/amounts';
import { creditsIn, packageName } from '../../shared/lessons/packages';
import type { DB } from '../db/schema';
import { ApiError, type ErrorText } from '../http/api-error';
import { mailLanguage } from '../mail/mail-language';
import { type Actor, accountTarget, recordAudit } from '../platform/audit-log';
import { accounts, lockedBalanceOf, post } from './ledger';
import { packageRefundMail } from './money-mail';
import { findPackage } from './packages';
import type { MoneyDeps } from './payouts';

export const financeMessages = {
  lessonNotFound: /*i18n*/ 'This lesson does not exist',
  packageNotFound: /*i18n*/ 'This package does not exist',
  studentDeleted:
    /*i18n*/ 'This student has deleted their account, so a refund would go to a wallet nobody can use any more.',
  packageEnded: /*i18n*/ "This package has already ended: what it held is in the student's balance",
  packageEmpty: /*i18n*/ 'This package has no unused lessons to refund',
  notWholePackage: (cents: number, currency: string): ErrorText => ({
    text: /*i18n*/ 'A package is refunded whole: what its unused lessons hold now is {left}. Please refund that amount.',
    values: (locale) => ({ left: formatAmount(cents, currency, { locale }) }),
  }),
} as const;

const amount = (amountCents: number, currency: string): Amount => ({ amountCents, currency });

/**
 * An admin pays a package's unused credits back to the student, whole: what its account holds goes
 * out through the manual clearing account, as a balance refund does, and the package ends. Lessons
 * already booked with it stay booked; if one is called off, its price goes to the balance, as for
 * any ended package. `amountCents` is what the admin sent: it must be what the package holds, so a
 * credit used meanwhile is not refunded twice.
 */
export async function refundPackage(
  deps: MoneyDeps,
  actor: Actor,
  input: { packageId: string; amountCents: number; reference: string; now: number },
) {
  const { db } = deps;
  const refunded = await db.transaction().execute(async (trx) => {
    // Locked first, as a booking, a release and the student's own ending lock it.
    const row = await trx
      .selectFrom('lesson_packages as p')
      .innerJoin('users as s', 's.id', 'p.student_id')
      .innerJoin('users as t', 't.id', 'p.tutor_id')
      .select([
        'p.id',
        'p.student_id',
        'p.lessons',
        'p.minutes',
        'p.per_lesson_cents',
        'p.currency',
        'p.status',
      ])
      .select(['s.display_name', 's.email', 's.deleted_at', 's.language', 't.display_name as tutor_name'])
      .where('p.id', '=', input.packageId)
      .forUpdate('p')
      .executeTakeFirst();
    if (!row) throw new ApiError(404, financeMessages.packageNotFound, 'NOT_FOUND');
    if (row.status === 'ended') throw new ApiError(409, financeMessages.packageEnded, 'PACKAGE_ENDED');
    const account = accounts.package(row.id, row.student_id);
    const left = await lockedBalanceOf(trx, account, row.currency);
    if (left <= 0) throw new ApiError(409, financeMessages.packageEmpty, 'NOTHING_TO_REFUND');
    if (input.amountCents !== left)
      throw new ApiError(409, financeMessages.notWholePackage(left, row.currency), 'NOT_WHOLE_PACKAGE', {
        unused: amount(left, row.currency),
      });
    const credits = creditsIn(left, row.per_lesson_cents);
    const what = `${packageName(row)} with ${row.tutor_name}`;
    const transactionId = await post(trx, {
      kind: 'package_refund',
      key: `package:${row.id}:refund`,
      currency: row.currency,
      actorId: actor.id,
      memo: `Refund of ${what}: ${credits} unused, reference ${input.reference}`,
      entries: [
        { account, amountCents: -left },
        { account: accounts.clearing('manual'), amountCents: left },
      ],
      now: input.now,
    });
    await trx
      .updateTable('lesson_packages')
      .set({ status: 'ended', ended_at: new Date(input.now) })
      .where('id', '=', row.id)
      .execute();
    const shown = formatAmount(left, row.currency);
    const student = { id: row.student_id, display_name: row.display_name, email: row.email };
    await recordAudit(
      trx,
      actor,
      'package.refunded',
      accountTarget(student),
      `${shown} for ${credits} unused of ${what}, reference ${input.reference}`,
    );
    if (!row.deleted_at)
      await deps.mailer.sendMail(
        {
          to: row.email,
          ...packageRefundMail({
            displayName: row.display_name,
            amountCents: left,
            currency: row.currency,
            credits,
            packageName: what,
            reference: input.reference,
            appUrl: deps.appUrl,
            language: mailLanguage(row.language, deps.defaultLanguage),
          }),
        },
        trx,
      );
    return { transactionId: String(transactionId), studentId: row.student_id };
  });
  deps.mailer.deliverSoon();
  return {
    transactionId: refunded.transactionId,
    package: await findPackage(db, refunded.studentId, input.packageId),
  };
}

/**
 * An admin refunds one lesson: what it moved goes back to the student. A lesson still planned is
 * called off at the same time (a refunded lesson is not given for free), which its caller tells.
 */
export async function refundLesson(
  db: Kysely<DB>,
  actor: Actor,
  input: { lessonId: string; reason: string; now: number },
  /**
   * The refund's move (src/server/lessons/lifecycle/refund-move.ts): gives back what the ledger
   * holds for the lesson and calls it off if it is still planned, with the lessons' own mails.
   */
  refund: (trx: Transaction<DB>, lessonId: string) => Promise<void>,
) {
  return db.transaction().execute(async (trx) => {
    // Lock order: the student's row, then the lesson, then the money, as a deletion (the row,
    // the money, the lessons) and a booking (the rows, then packages and balance) take them. For
    // share only: a deletion waits for the refund (or the refund sees it deleted), but a booking's
    // key share on the row goes through; for update, it would wait here holding the money we need.
    const student = await trx
      .selectFrom('lessons as l')
      .innerJoin('users as s', 's.id', 'l.student_id')
      .select(['s.id', 's.display_name', 's.email', 's.deleted_at'])
      .where('l.id', '=', input.lessonId)
      .forShare('s')
      .executeTakeFirst();
    const lesson =
      student &&
      (await trx
        .selectFrom('lessons')
        .select(['id', 'subject', 'price_cents', 'currency'])
        .where('id', '=', input.lessonId)
        .forUpdate()
        .executeTakeFirst());
    if (!student || !lesson) throw new ApiError(404, financeMessages.lessonNotFound, 'NOT_FOUND');
    // The refund would go to a wallet nobody can sign in to any more.
    if (student.deleted_at) throw new ApiError(409, financeMessages.studentDeleted, 'ACCOUNT_DELETED');
    await refund(trx, lesson.id);
    await recordAudit(
      trx,
      actor,
      'lesson.refunded',
      accountTarget({ id: student.id, display_name: student.display_name, email: student.email }),
      `${lesson.subject} lesson ${lesson.id}, ${formatAmount(lesson.price_cents, lesson.currency)}: ${input.reason}`,
    );
    return lesson.id;
  });
}
