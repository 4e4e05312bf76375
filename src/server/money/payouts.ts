/**
 * Money paid out of the ledger by hand, as the school's bank sends it: a tutor's payout, or a
 * student's unused balance refunded. Each goes out through the manual clearing account, is audited,
 * and mails the person.
 *
 * A payout sent twice by mistake (a double click, a form filled in again) is money really sent
 * twice at the bank. A retry with the request's Idempotency-Key is replayed by its middleware before
 * it gets here; any other request is refused when the same amount went to the same person less than
 * a minute before, whatever its reference, unless the admin confirms it is meant
 * (`confirmDuplicate`).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { formatAmount } from '../../shared/amounts';
import type { DB } from '../db/schema';
import { ApiError, type ErrorText } from '../http/api-error';
import { type DefaultLanguage, mailLanguage } from '../mail/mail-language';
import type { Mailer } from '../mail/mailer';
import { type Actor, accountTarget, recordAudit } from '../platform/audit-log';
import { MEMO_BEFORE_REFERENCE } from './finance-csv';
import { accounts, lockedBalanceOf, post } from './ledger';
import { balanceRefundMail, payoutMail } from './money-mail';

export const payoutMessages = {
  exceedsPayable: (cents: number, currency: string): ErrorText => ({
    text: /*i18n*/ 'A payout can be at most what the tutor is owed ({payable})',
    values: (locale) => ({ payable: formatAmount(cents, currency, { locale }) }),
  }),
  exceedsBalance: (cents: number, currency: string): ErrorText => ({
    text: /*i18n*/ "A refund can be at most the student's balance ({balance})",
    values: (locale) => ({ balance: formatAmount(cents, currency, { locale }) }),
  }),
  noTutor: /*i18n*/ 'This tutor does not exist',
  noStudent: /*i18n*/ 'This student does not exist',
  repeatedPayout: (cents: number, currency: string, name: string): ErrorText => ({
    text: /*i18n*/ 'A payout of {amount} to {name} was recorded less than a minute ago. Record it again only if you really paid {name} twice.',
    values: (locale) => ({ amount: formatAmount(cents, currency, { locale }), name }),
  }),
  repeatedRefund: (cents: number, currency: string, name: string): ErrorText => ({
    text: /*i18n*/ 'A refund of {amount} to {name} was recorded less than a minute ago. Record it again only if you really paid {name} back twice.',
    values: (locale) => ({ amount: formatAmount(cents, currency, { locale }), name }),
  }),
} as const;

/** How close two payouts of one amount to one person must be to look like one sent twice. */
const REPEAT_WINDOW_MS = 60_000;

export interface DuplicateCheck {
  /** The admin means to pay the same amount again: not refused as a repeat. */
  confirmDuplicate?: boolean | undefined;
  /**
   * The request's identity under its Idempotency-Key (http/idempotency.ts): the posting is keyed
   * after it, so a run again after a crash answers the payout already recorded.
   */
  requestKey?: string | undefined;
}

/** 409 DUPLICATE_REQUEST when the same amount left the same account, as the same kind, just before. */
async function refuseRepeat(
  trx: Transaction<DB>,
  kind: 'payout' | 'balance_refund',
  accountId: string,
  user: { display_name: string },
  input: { amountCents: number; now: number },
  currency: string,
) {
  const earlier = await trx
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
    .select(['t.id', 't.created_at'])
    .where('e.account_id', '=', accountId)
    .where('e.amount_cents', '=', -input.amountCents)
    .where('t.kind', '=', kind)
    .where('t.created_at', '>', new Date(input.now - REPEAT_WINDOW_MS))
    .orderBy('t.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!earlier) return;
  const message = kind === 'payout' ? payoutMessages.repeatedPayout : payoutMessages.repeatedRefund;
  throw new ApiError(409, message(input.amountCents, currency, user.display_name), 'DUPLICATE_REQUEST', {
    previous: { transactionId: String(earlier.id), at: new Date(earlier.created_at).toISOString() },
  });
}

export interface MoneyDeps {
  db: Kysely<DB>;
  mailer: Mailer;
  appUrl: string;
  currency: string;
  /** The school's default language: the mail to someone who never chose one is in it. */
  defaultLanguage?: DefaultLanguage;
}

async function userWithRole(db: Kysely<DB>, id: string, roles: ('student' | 'tutor' | 'parent')[]) {
  return db
    .selectFrom('users')
    .select(['id', 'display_name', 'email', 'deleted_at', 'language'])
    .where('id', '=', id)
    .where('role', 'in', roles)
    .executeTakeFirst();
}

/**
 * Money leaves the ledger through the manual clearing account: a tutor's payout, or a student's
 * unused balance refunded. At most what the account holds (checked with the account locked).
 */
async function payOut(
  deps: MoneyDeps,
  actor: Actor,
  input: { userId: string; amountCents: number; reference: string; now: number } & DuplicateCheck,
  kind: 'payout' | 'balance_refund',
) {
  const { db, currency } = deps;
  const isPayout = kind === 'payout';
  // A balance is a student's or a parent's (who tops up and pays for their children).
  const user = await userWithRole(db, input.userId, isPayout ? ['tutor'] : ['student', 'parent']);
  if (!user)
    throw new ApiError(404, isPayout ? payoutMessages.noTutor : payoutMessages.noStudent, 'NOT_FOUND');
  const account = isPayout ? accounts.payable(user.id) : accounts.balance(user.id);
  const key = `${kind}:${input.requestKey ?? randomUUID()}`;
  const transactionId = await db.transaction().execute(async (trx) => {
    const available = await lockedBalanceOf(trx, account, currency);
    // The same request run again (its answer lost with a server that died): already paid, by the
    // posting this key names, and neither posted, audited nor mailed again.
    const recorded = await trx
      .selectFrom('ledger_transactions')
      .select('id')
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    if (recorded) return recorded.id;
    // With the account locked, so of two sent at once the second sees the first. Before the amount
    // is checked: the first may have paid all there was, and the admin is told why.
    if (!input.confirmDuplicate) await refuseRepeat(trx, kind, account.id, user, input, currency);
    if (input.amountCents > available) {
      const shown = Math.max(available, 0);
      throw isPayout
        ? new ApiError(409, payoutMessages.exceedsPayable(shown, currency), 'EXCEEDS_PAYABLE')
        : new ApiError(409, payoutMessages.exceedsBalance(shown, currency), 'EXCEEDS_BALANCE');
    }
    const id = await post(trx, {
      kind,
      key,
      currency,
      actorId: actor.id,
      memo: `${MEMO_BEFORE_REFERENCE[kind]}${input.reference}`,
      entries: [
        { account, amountCents: -input.amountCents },
        { account: accounts.clearing('manual'), amountCents: input.amountCents },
      ],
      now: input.now,
    });
    const shown = formatAmount(input.amountCents, currency);
    await recordAudit(
      trx,
      actor,
      isPayout ? 'payout.recorded' : 'refund.recorded',
      accountTarget(user),
      `${shown}, reference ${input.reference}`,
    );
    const content = (isPayout ? payoutMail : balanceRefundMail)({
      displayName: user.display_name,
      amountCents: input.amountCents,
      currency,
      reference: input.reference,
      appUrl: deps.appUrl,
      language: mailLanguage(user.language, deps.defaultLanguage),
    });
    // A deleted account's address is a placeholder that reaches nobody.
    if (!user.deleted_at) await deps.mailer.sendMail({ to: user.email, ...content }, trx);
    return id;
  });
  deps.mailer.deliverSoon();
  return String(transactionId);
}

export const recordPayout = (
  deps: MoneyDeps,
  actor: Actor,
  input: { tutorId: string; amountCents: number; reference: string; now: number } & DuplicateCheck,
) => payOut(deps, actor, { ...input, userId: input.tutorId }, 'payout');

export const recordBalanceRefund = (
  deps: MoneyDeps,
  actor: Actor,
  input: { studentId: string; amountCents: number; reference: string; now: number } & DuplicateCheck,
) => payOut(deps, actor, { ...input, userId: input.studentId }, 'balance_refund');
