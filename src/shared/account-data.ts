/** A person's own data: the texts and names its export and deletion share with the pages. */
import { type Amount, formatAmount } from './amounts';
import { english, type Say } from './say';

/** The name a deleted account goes by wherever others still see it. */
export const DELETED_USER_NAME = 'Deleted user';
/** What stands in a conversation where a deleted account's message was. */
export const DELETED_MESSAGE_TEXT = 'Message deleted';

export const accountDataMessages = {
  wrongPassword: /*i18n*/ 'This password is not right. Your account has not been deleted.',
  passwordRequired: /*i18n*/ 'Please enter your password to delete your account',
  payoutFirst:
    /*i18n*/ 'You are still owed money for lessons. Please ask for a payout first, then delete your account.',
  revokeAdminFirst:
    /*i18n*/ 'An administrator cannot delete their account: revoke the administrator role first (from the command line).',
  nothingToRefund: /*i18n*/ 'You have no money left with the school, so there is nothing to refund.',
  tooManyAttempts: /*i18n*/ 'You have tried to delete your account many times. Please try again later.',
  tooManyExports: /*i18n*/ 'You have downloaded your data many times this hour. Please try again later.',
  deleted: /*i18n*/ 'Your account has been deleted. We are sorry to see you go.',
} as const;

/** The export's file name for a day (YYYY-MM-DD). */
export const exportFileName = (day: string) => `tutorlane-export-${day}.zip`;

/** A lesson booked and not yet taken place, and what its booking holds. */
export interface HeldLesson {
  lessonId: string;
  subject: string;
  start: string;
  amount: Amount;
}

/** A lesson package with unused credits, and what they hold. */
export interface PackageLeft {
  packageId: string;
  tutorName: string;
  lessons: number;
  minutes: number;
  creditsLeft: number;
  amount: Amount;
}

/** A top-up asked for that nobody has confirmed or rejected, and the student has not withdrawn. */
export interface PendingTopUpLeft {
  topUpId: string;
  reference: string;
  method: 'manual' | 'stripe';
  amount: Amount;
  createdAt: string;
}

/**
 * Everything a person still has with the school: what a deleted account could no longer claim
 * (GET /api/account/money-left, and the `moneyLeft` of a deletion refused with MONEY_LEFT).
 */
export interface MoneyLeft {
  /** The wallet's balance, ready to spend or be refunded. */
  balance: Amount;
  /** Upcoming lessons whose price is held, soonest first. */
  holds: HeldLesson[];
  /** Packages whose unused credits still hold money, oldest first. */
  packages: PackageLeft[];
  /** Top-ups waiting for the school (not yet money in the wallet, but maybe money sent). */
  pendingTopUps: PendingTopUpLeft[];
}

export const hasMoneyLeft = (money: MoneyLeft) =>
  money.balance.amountCents > 0 ||
  money.holds.length > 0 ||
  money.packages.length > 0 ||
  money.pendingTopUps.length > 0;

const sumOf = (items: { amount: Amount }[]) => items.reduce((sum, item) => sum + item.amount.amountCents, 0);
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** Each kind of money left in a phrase: "$40 held for 1 upcoming lesson" (`say`: ./say.ts). */
function moneyLeftPhrases(money: MoneyLeft, say: Say, locale?: string): string[] {
  const { currency } = money.balance;
  const amount = (cents: number) => formatAmount(cents, currency, { locale });
  const phrases: string[] = [];
  if (money.balance.amountCents > 0)
    phrases.push(say(/*i18n*/ '{amount} in your wallet', { amount: amount(money.balance.amountCents) }));
  if (money.holds.length > 0)
    phrases.push(
      say(/*i18n*/ '{amount} held for {count, plural, one {# upcoming lesson} other {# upcoming lessons}}', {
        amount: amount(sumOf(money.holds)),
        count: money.holds.length,
      }),
    );
  if (money.packages.length > 0) {
    const credits = money.packages.reduce((sum, item) => sum + item.creditsLeft, 0);
    phrases.push(
      say(
        /*i18n*/ '{amount} in {count, plural, one {# unused package lesson} other {# unused package lessons}}',
        { amount: amount(sumOf(money.packages)), count: credits },
      ),
    );
  }
  if (money.pendingTopUps.length > 0)
    phrases.push(
      money.pendingTopUps.length === 1
        ? say(/*i18n*/ 'a top-up of {amount} waiting for the school', {
            amount: amount(sumOf(money.pendingTopUps)),
          })
        : say(/*i18n*/ '{count} top-ups ({amount}) waiting for the school', {
            count: money.pendingTopUps.length,
            amount: amount(sumOf(money.pendingTopUps)),
          }),
    );
  return phrases;
}

/** "a, b and c": in English as the product writes it (no comma before "and"), else Intl.ListFormat's. */
const listed = (phrases: string[], locale = 'en') =>
  locale.startsWith('en')
    ? phrases.length <= 1
      ? (phrases[0] ?? '')
      : `${phrases.slice(0, -1).join(', ')} and ${phrases.at(-1)}`
    : new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }).format(phrases);

/** Why a deletion is refused with MONEY_LEFT, naming every kind of money left. */
export const moneyLeftMessage = (money: MoneyLeft, say: Say = english, locale?: string) =>
  say(
    /*i18n*/ 'Your account still holds money: {money}. Please get it back first (ask for a refund on your profile page, and withdraw a top-up you will not pay), then delete your account.',
    { money: listed(moneyLeftPhrases(money, say, locale), locale) },
  );

/** At most this many items of each kind are named in a refund request; the rest are counted. */
const ITEMS_NAMED = 5;

function itemLines<T>(items: T[], line: (item: T) => string): string[] {
  const named = items.slice(0, ITEMS_NAMED).map((item) => `  - ${line(item)}`);
  if (items.length > ITEMS_NAMED) named.push(`  - and ${items.length - ITEMS_NAMED} more`);
  return named;
}

/** "2026-03-12 10:00 UTC": a time every admin reads the same, wherever they are. */
const utcLabel = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/**
 * What a person asking for a refund before deleting their account sends Support, in their own
 * support conversation: every amount left, each lesson, package and top-up named so that an admin
 * can find and refund it. Short enough for one message.
 */
export function refundRequestText(money: MoneyLeft): string {
  const { currency } = money.balance;
  const amount = (value: Amount) => formatAmount(value.amountCents, value.currency);
  const lines = ['I would like to delete my account. Please refund the money I still have here:'];
  if (money.balance.amountCents > 0) lines.push(`- My wallet's balance: ${amount(money.balance)}`);
  if (money.holds.length > 0)
    lines.push(
      `- Held for upcoming lessons: ${formatAmount(sumOf(money.holds), currency)}`,
      ...itemLines(
        money.holds,
        (lesson) => `${lesson.subject} on ${utcLabel(lesson.start)}: ${amount(lesson.amount)}`,
      ),
    );
  if (money.packages.length > 0)
    lines.push(
      `- Unused lesson package credits: ${formatAmount(sumOf(money.packages), currency)}`,
      ...itemLines(
        money.packages,
        (item) =>
          `${plural(item.creditsLeft, 'lesson')} of ${item.minutes} minutes with ${item.tutorName}: ${amount(item.amount)}`,
      ),
    );
  if (money.pendingTopUps.length > 0)
    lines.push(
      `- Top-ups not yet confirmed: ${formatAmount(sumOf(money.pendingTopUps), currency)}`,
      ...itemLines(
        money.pendingTopUps,
        (topUp) =>
          `reference ${topUp.reference}, ${topUp.method === 'stripe' ? 'by card' : 'by transfer'}: ${amount(topUp.amount)}`,
      ),
    );
  return lines.join('\n');
}
