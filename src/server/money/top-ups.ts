/**
 * Top-ups: a student asks to add money to their wallet, by bank transfer (an admin confirms it once
 * the money is there) or by card (Stripe's verified webhook confirms it), and may withdraw one they
 * will not pay. The request's status changes once, by one conditional UPDATE, so two admins
 * confirming at once, or a webhook delivered twice, credit the balance once; the credit's ledger
 * key says the same again. A card payment that cannot be credited is kept as an unapplied payment,
 * never dropped. A deleted account is never credited by hand: nobody could claim it.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { formatAmount, formatUnits, minorPerUnit, unitsToMinor } from '../../shared/amounts';
import * as messages from '../../shared/messages';
import { topUpUnits } from '../../shared/money/amounts';
import type { UnappliedPaymentReason } from '../../shared/money/unapplied-payments';
import type { DB, TopUpMethod, TopUpStatus } from '../db/schema';
import { ApiError, type ErrorText } from '../http/api-error';
import { type DefaultLanguage, mailLanguage } from '../mail/mail-language';
import type { Mailer } from '../mail/mailer';
import { type Actor, accountTarget, recordAudit } from '../platform/audit-log';
import { accounts, post } from './ledger';
import { topUpConfirmedMail, topUpRejectedMail } from './money-mail';

export const topUpMessages = {
  range: (currency: string): ErrorText => ({
    text: /*i18n*/ 'Please choose an amount between {min} and {max}, in whole units',
    values: (locale) => ({
      min: formatUnits(topUpUnits(currency).min, currency, locale),
      max: formatUnits(topUpUnits(currency).max, currency, locale),
    }),
  }),
  notFound: /*i18n*/ 'This top-up does not exist',
  alreadySettled: /*i18n*/ 'This top-up has already been confirmed, rejected or withdrawn',
  cardByStripe: /*i18n*/ 'A card top-up is confirmed by Stripe once the card is charged, not by hand',
  cardStillOpen:
    /*i18n*/ 'A card top-up cannot be rejected: Stripe may still charge the card, and only Stripe settles it',
  accountDeleted:
    /*i18n*/ 'This student has deleted their account, so nobody could claim this top-up. If the money arrived, send it back to where it came from, then reject the top-up.',
} as const;

export interface TopUpView {
  id: string;
  amountCents: number;
  currency: string;
  method: TopUpMethod;
  status: TopUpStatus;
  reference: string;
  instructions: string;
  note: string | null;
  createdAt: string;
}

type TopUpRow = Selectable<DB['top_ups']>;

/** What a top-up's view is made of. */
const viewColumns = ['id', 'amount_cents', 'currency', 'method', 'status', 'reference', 'note'] as const;

/** A top-up as its owner sees it; `created_at` is a string when the row came as JSON. */
export const toTopUpView = (
  row: Pick<TopUpRow, (typeof viewColumns)[number]> & { created_at: Date | string },
  instructions: string,
): TopUpView => ({
  id: row.id,
  amountCents: row.amount_cents,
  currency: row.currency,
  method: row.method,
  status: row.status,
  reference: row.reference,
  // A card payment needs no transfer, so it carries no instructions.
  instructions: row.method === 'manual' ? instructions : '',
  note: row.note,
  createdAt: new Date(row.created_at).toISOString(),
});

/** 400 unless the amount is a whole number of units within the limits. */
export function checkTopUpAmount(amountCents: number, currency: string) {
  const unit = minorPerUnit(currency);
  const { min, max } = topUpUnits(currency);
  if (
    !Number.isSafeInteger(amountCents) ||
    amountCents % unit !== 0 ||
    amountCents < unitsToMinor(min, currency) ||
    amountCents > unitsToMinor(max, currency)
  )
    throw new ApiError(400, topUpMessages.range(currency), 'VALIDATION_ERROR');
}

/** Letters and digits nobody mistakes for each other when copying them onto a bank transfer. */
const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const newReference = () =>
  `TL-${Array.from({ length: 6 }, () => REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)]).join('')}`;

/**
 * Records a pending top-up. The reference is unique; a rare clash is drawn again. The student's row
 * is read locked for share: a deletion, which refuses while a top-up waits, either sees this one or
 * has committed first, and then there is nobody left to ask for it (401).
 */
export async function createTopUp(
  db: Kysely<DB>,
  input: {
    studentId: string;
    amountCents: number;
    currency: string;
    method: TopUpMethod;
    now: number;
    /**
     * The request's identity under its Idempotency-Key (http/idempotency.ts), the top-up's id: a
     * run again after a crash answers the top-up the first run made instead of a second one.
     */
    requestKey?: string | undefined;
  },
): Promise<TopUpRow> {
  const id = input.requestKey ?? randomUUID();
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        const student = await trx
          .selectFrom('users')
          .select('id')
          .where('id', '=', input.studentId)
          .where('deleted_at', 'is', null)
          .forShare()
          .executeTakeFirst();
        if (!student) throw new ApiError(401, messages.notSignedIn, 'UNAUTHORIZED');
        const made = await trx
          .insertInto('top_ups')
          .values({
            id,
            student_id: input.studentId,
            amount_cents: input.amountCents,
            currency: input.currency,
            method: input.method,
            reference: newReference(),
            created_at: new Date(input.now),
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .returningAll()
          .executeTakeFirst();
        return (
          made ??
          trx
            .selectFrom('top_ups')
            .selectAll()
            .where('id', '=', id)
            .where('student_id', '=', input.studentId)
            .executeTakeFirstOrThrow()
        );
      });
    } catch (error) {
      const clash = (error as { code?: string; constraint?: string }).constraint === 'top_ups_reference_key';
      if (!clash || attempt >= 5) throw error;
    }
  }
}

/** A student's latest top-ups, newest first. */
export function topUpsOf(db: Kysely<DB>, studentId: string, limit = 20) {
  return db
    .selectFrom('top_ups')
    .select([...viewColumns, 'created_at'])
    .where('student_id', '=', studentId)
    .orderBy('created_at', 'desc')
    .limit(limit);
}

/**
 * Moves a pending top-up to its final status, once: 404 if unknown (or, with `only.studentId`,
 * another student's), 409 if already settled.
 */
async function settle(
  trx: Transaction<DB>,
  id: string,
  set: {
    status: 'confirmed' | 'rejected' | 'withdrawn';
    note: string | null;
    settledBy: string | null;
    now: number;
  },
  only: { method?: TopUpMethod; studentId?: string } = {},
): Promise<TopUpRow> {
  let update = trx
    .updateTable('top_ups')
    .set({ status: set.status, note: set.note, settled_by: set.settledBy, settled_at: new Date(set.now) })
    .where('id', '=', id)
    .where('status', '=', 'pending');
  if (only.method) update = update.where('method', '=', only.method);
  if (only.studentId) update = update.where('student_id', '=', only.studentId);
  const row = await update.returningAll().executeTakeFirst();
  if (row) return row;
  const exists = await trx
    .selectFrom('top_ups')
    .select(['status', 'student_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!exists || (only.studentId && exists.student_id !== only.studentId))
    throw new ApiError(404, topUpMessages.notFound, 'NOT_FOUND');
  if (exists.status === 'pending')
    throw new ApiError(
      409,
      set.status === 'confirmed' ? topUpMessages.cardByStripe : topUpMessages.cardStillOpen,
      'CARD_TOP_UP',
    );
  throw new ApiError(409, topUpMessages.alreadySettled, 'ALREADY_SETTLED');
}

/** Credits a settled top-up to the student's balance, from the clearing account it came through. */
export async function creditTopUp(
  trx: Transaction<DB>,
  row: Pick<TopUpRow, 'id' | 'currency' | 'reference' | 'method' | 'amount_cents' | 'student_id'>,
  actorId: string | null,
  now: number,
) {
  await post(trx, {
    kind: 'top_up',
    key: `top_up:${row.id}`,
    currency: row.currency,
    actorId,
    memo: `Top-up ${row.reference}`,
    entries: [
      { account: accounts.clearing(row.method), amountCents: -row.amount_cents },
      { account: accounts.balance(row.student_id), amountCents: row.amount_cents },
    ],
    now,
  });
}

/**
 * The top-up's student, their row locked for share until the caller's transaction ends: a deletion
 * (which locks it for update) either committed before, and `deleted_at` says so, or waits for the
 * caller and then sees what it did.
 */
async function studentOf(trx: Transaction<DB>, id: string) {
  return trx
    .selectFrom('users')
    .select(['id', 'display_name', 'email', 'deleted_at', 'language'])
    .where('id', '=', id)
    .forShare()
    .executeTakeFirstOrThrow();
}

interface AdminDecisionDeps {
  db: Kysely<DB>;
  mailer: Mailer;
  appUrl: string;
  supportEmail: () => Promise<string>;
  /** The school's default language: the mail to a student who never chose one is in it. */
  defaultLanguage?: DefaultLanguage;
}

/** An admin confirms that a bank transfer arrived: the balance is credited, the student mailed. */
export async function confirmTopUp(deps: AdminDecisionDeps, actor: Actor, id: string, now: number) {
  const row = await deps.db.transaction().execute(async (trx) => {
    // A card payment is confirmed by Stripe's webhook only: nobody can credit one by hand.
    const settled = await settle(
      trx,
      id,
      { status: 'confirmed', note: null, settledBy: actor.id, now },
      { method: 'manual' },
    );
    const student = await studentOf(trx, settled.student_id);
    // Credited, it would sit on an account nobody can sign in to; the transaction undoes the settle.
    if (student.deleted_at) throw new ApiError(409, topUpMessages.accountDeleted, 'ACCOUNT_DELETED');
    await creditTopUp(trx, settled, actor.id, now);
    await recordAudit(
      trx,
      actor,
      'topup.confirmed',
      accountTarget(student),
      `${formatAmount(settled.amount_cents, settled.currency)}, reference ${settled.reference}`,
    );
    await deps.mailer.sendMail(
      {
        to: student.email,
        ...topUpConfirmedMail({
          displayName: student.display_name,
          amountCents: settled.amount_cents,
          currency: settled.currency,
          reference: settled.reference,
          appUrl: deps.appUrl,
          language: mailLanguage(student.language, deps.defaultLanguage),
        }),
      },
      trx,
    );
    return settled;
  });
  deps.mailer.deliverSoon();
  return row;
}

/** An admin rejects a top-up whose money never came, with a note the student reads. */
export async function rejectTopUp(
  deps: AdminDecisionDeps,
  actor: Actor,
  id: string,
  note: string,
  now: number,
) {
  const supportEmail = await deps.supportEmail();
  const row = await deps.db.transaction().execute(async (trx) => {
    // A card top-up waits for Stripe: its payment page may still be paid (or a slow payment
    // method may still succeed), and money taken for a rejected top-up would reach no wallet.
    const settled = await settle(
      trx,
      id,
      { status: 'rejected', note, settledBy: actor.id, now },
      { method: 'manual' },
    );
    const student = await studentOf(trx, settled.student_id);
    await recordAudit(
      trx,
      actor,
      'topup.rejected',
      accountTarget(student),
      `${formatAmount(settled.amount_cents, settled.currency)}, reference ${settled.reference}: ${note}`,
    );
    // A deleted account's address is a placeholder that reaches nobody.
    if (!student.deleted_at)
      await deps.mailer.sendMail(
        {
          to: student.email,
          ...topUpRejectedMail({
            displayName: student.display_name,
            amountCents: settled.amount_cents,
            currency: settled.currency,
            reference: settled.reference,
            note,
            supportEmail,
            appUrl: deps.appUrl,
            language: mailLanguage(student.language, deps.defaultLanguage),
          }),
        },
        trx,
      );
    return settled;
  });
  deps.mailer.deliverSoon();
  return row;
}

/** A paid Checkout session, as the webhook reads it. */
export interface CardPayment {
  sessionId: string;
  topUpId: string;
  amountCents: number;
  currency: string;
}

/**
 * What became of a card payment: credited now; already credited by this very payment (Stripe
 * delivers an event more than once); or not credited, and kept for an admin, `recorded` being
 * false when it had been kept already.
 */
export type CardPaymentOutcome =
  | { outcome: 'credited' }
  | { outcome: 'repeated' }
  | { outcome: 'unapplied'; reason: UnappliedPaymentReason; recorded: boolean };

/**
 * Stripe says a Checkout session was paid: its top-up is credited once. Only a pending card
 * top-up whose session and amount match is. One the student withdrew is credited all the same:
 * its payment page stayed open, and the card was charged, so the money is theirs and the ledger
 * must show it. Anything else is money Stripe took that no wallet holds: it is kept in
 * unapplied_payments, once per session, for an admin to settle by hand.
 */
export async function applyCardPayment(
  db: Kysely<DB>,
  paid: CardPayment,
  now: number,
): Promise<CardPaymentOutcome> {
  return db.transaction().execute(async (trx) => {
    const currency = paid.currency.toUpperCase();
    const row = await trx
      .updateTable('top_ups')
      .set({ status: 'confirmed', settled_at: new Date(now) })
      .where('id', '=', paid.topUpId)
      .where('stripe_session_id', '=', paid.sessionId)
      .where('method', '=', 'stripe')
      .where('status', 'in', ['pending', 'withdrawn'])
      .where('amount_cents', '=', paid.amountCents)
      .where('currency', '=', currency)
      .returningAll()
      .executeTakeFirst();
    if (row) {
      await creditTopUp(trx, row, null, now);
      return { outcome: 'credited' };
    }
    // Read after the update: a delivery that lost a race to another one sees its confirmation.
    const topUp = await trx
      .selectFrom('top_ups')
      .select(['method', 'status', 'stripe_session_id', 'amount_cents', 'currency'])
      .where('id', '=', paid.topUpId)
      .executeTakeFirst();
    const reason = whyNotApplied(topUp, { ...paid, currency });
    if (!reason) return { outcome: 'repeated' };
    const recorded = await trx
      .insertInto('unapplied_payments')
      .values({
        id: randomUUID(),
        provider: 'stripe',
        provider_reference: paid.sessionId,
        top_up_id: paid.topUpId,
        amount_cents: paid.amountCents,
        currency,
        reason,
        reported_at: new Date(now),
      })
      .onConflict((conflict) => conflict.columns(['provider', 'provider_reference']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return { outcome: 'unapplied', reason, recorded: recorded !== undefined };
  });
}

/** Why a paid session credits nothing, or null when this very session already credited its top-up. */
function whyNotApplied(
  topUp: Pick<TopUpRow, 'method' | 'status' | 'stripe_session_id' | 'amount_cents' | 'currency'> | undefined,
  paid: CardPayment,
): UnappliedPaymentReason | null {
  if (!topUp) return 'unknown_top_up';
  if (topUp.method !== 'stripe') return 'not_a_card_top_up';
  if (topUp.stripe_session_id !== paid.sessionId) return 'session_differs';
  if (topUp.status === 'confirmed') return null;
  if (topUp.status === 'rejected') return 'top_up_rejected';
  if (topUp.currency !== paid.currency) return 'currency_differs';
  if (topUp.amount_cents !== paid.amountCents) return 'amount_differs';
  // A pending or withdrawn top-up that matches was credited by the update above.
  throw new Error(`Card payment for top-up ${paid.topUpId} neither credited nor refused`);
}

/**
 * The student withdraws a top-up of theirs they will not pay (or asked for by mistake): it stays
 * in their list as `withdrawn`, and no admin can confirm it any more. 404 for anyone else's.
 */
export async function withdrawTopUp(db: Kysely<DB>, studentId: string, id: string, now: number) {
  return db
    .transaction()
    .execute((trx) =>
      settle(trx, id, { status: 'withdrawn', note: null, settledBy: studentId, now }, { studentId }),
    );
}

/** Remembers the Checkout session a card top-up was sent to. */
export async function attachCheckoutSession(db: Kysely<DB>, topUpId: string, sessionId: string) {
  await db.updateTable('top_ups').set({ stripe_session_id: sessionId }).where('id', '=', topUpId).execute();
}

/** Whether the UUID-shaped id could name a top-up (so a bad one is a 404, not a database error). */
export const isTopUpId = (id: string) => /^[0-9a-f-]{36}$/.test(id);
