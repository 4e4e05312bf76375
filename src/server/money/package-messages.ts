/** What the package routes and rules answer when they refuse, in English, said in the caller's language. */
import { formatAmount } from '../../shared/amounts';
import type { ErrorText } from '../http/api-error';

export const packageMessages = {
  notFound: /*i18n*/ 'This package does not exist',
  notOffered: /*i18n*/ 'This tutor does not offer that package',
  tutorNotFound: /*i18n*/ 'This tutor profile does not exist or is not public',
  insufficient: (cents: number, currency: string): ErrorText => ({
    text: /*i18n*/ "Your balance is {missing} short of this package's price. Please top up your wallet first.",
    values: (locale) => ({ missing: formatAmount(cents, currency, { locale }) }),
  }),
  ended: /*i18n*/ 'This package has already ended',
  usedUp: /*i18n*/ 'This package has no lessons left',
  paymentsOff: /*i18n*/ 'This school does not take payments through Tutorlane, so it sells no packages',
  studentsBuy: /*i18n*/ 'Only students buy lesson packages',
  trial: /*i18n*/ 'A trial lesson is not paid from a package',
  otherLesson: (name: string, minutes: number): ErrorText => ({
    text: /*i18n*/ 'This package is for {minutes}-minute lessons with {name}',
    values: { minutes, name },
  }),
} as const;
