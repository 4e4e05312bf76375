/**
 * A movement's memo is written by the server once, in English, when the money moves (see
 * src/server/money): "Top-up TL-123", "Algebra lesson (60 min), refunded: ...", "5 lessons of 60
 * minutes with Priya Raman"... The wallet says it in the reader's language: a memo of one of those
 * known shapes is read back into its parts (the reference, the subject, the minutes, the tutor's
 * name, an admin's reason, which stay as written) and given as a text marked for translation with
 * them as values. A memo of any other shape is shown as it is.
 */
import type { TransactionKind } from './wallet-api';

export interface MemoText {
  text: string;
  values: Record<string, string | number>;
}

const LESSON = /^(?<subject>.+) lesson \((?<minutes>\d+) min\)(?<rest>(?:, .*)?)$/s;
const PACKAGE =
  /^(?<lessons>\d+) lessons of (?<minutes>\d+) minutes(?: with (?<tutor>.+?))?(?<rest>(?:: .*)?)$/s;

function lessonMemo(memo: string): MemoText | null {
  const found = LESSON.exec(memo)?.groups;
  if (!found) return null;
  const values = { subject: found.subject ?? '', minutes: Number(found.minutes) };
  const rest = found.rest ?? '';
  if (rest === '') return { text: /*i18n*/ '{subject} lesson ({minutes} min)', values };
  if (rest === ', late cancellation fee')
    return { text: /*i18n*/ '{subject} lesson ({minutes} min), late cancellation fee', values };
  if (rest === ', from a package')
    return { text: /*i18n*/ '{subject} lesson ({minutes} min), from a package', values };
  if (rest.startsWith(', refunded: '))
    return {
      text: /*i18n*/ '{subject} lesson ({minutes} min), refunded: {reason}',
      values: { ...values, reason: rest.slice(', refunded: '.length) },
    };
  return null;
}

function packageMemo(memo: string): MemoText | null {
  const refund = memo.startsWith('Refund of ');
  const found = PACKAGE.exec(refund ? memo.slice('Refund of '.length) : memo)?.groups;
  if (!found) return null;
  const lessons = Number(found.lessons);
  const minutes = Number(found.minutes);
  const tutor = found.tutor;
  const rest = found.rest ?? '';
  if (!refund && tutor !== undefined && rest === '')
    return {
      text: /*i18n*/ '{lessons, plural, one {# lesson} other {# lessons}} of {minutes} minutes with {tutor}',
      values: { lessons, minutes, tutor },
    };
  const unused = /^: (?<credits>\d+) unused(?<after>.*)$/s.exec(rest)?.groups;
  if (!unused) return null;
  const credits = Number(unused.credits);
  if (!refund && tutor === undefined && unused.after === ' back to the balance')
    return {
      text: /*i18n*/ '{lessons, plural, one {# lesson} other {# lessons}} of {minutes} minutes: {credits, plural, one {# unused} other {# unused}} back to the balance',
      values: { lessons, minutes, credits },
    };
  if (refund && tutor !== undefined && unused.after?.startsWith(', reference '))
    return {
      text: /*i18n*/ 'Refund of {lessons, plural, one {# lesson} other {# lessons}} of {minutes} minutes with {tutor}: {credits, plural, one {# unused} other {# unused}}, reference {reference}',
      values: { lessons, minutes, tutor, credits, reference: unused.after.slice(', reference '.length) },
    };
  return null;
}

/** What a memo says as a text to translate, or null when it is of no shape known here. */
export function memoText(kind: TransactionKind, memo: string): MemoText | null {
  const after = (before: string) => (memo.startsWith(before) ? memo.slice(before.length) : null);
  switch (kind) {
    case 'top_up': {
      const reference = after('Top-up ');
      return reference ? { text: /*i18n*/ 'Top-up {reference}', values: { reference } } : null;
    }
    case 'payout': {
      const reference = after('Payout, reference ');
      return reference ? { text: /*i18n*/ 'Payout, reference {reference}', values: { reference } } : null;
    }
    case 'balance_refund': {
      const reference = after('Refund of balance, reference ');
      return reference
        ? { text: /*i18n*/ 'Refund of balance, reference {reference}', values: { reference } }
        : null;
    }
    case 'package_buy':
    case 'package_end':
    case 'package_refund':
      return packageMemo(memo);
    default:
      return lessonMemo(memo);
  }
}
