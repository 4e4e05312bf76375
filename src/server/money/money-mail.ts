/**
 * The mails money sends: a top-up confirmed or rejected, a payout recorded, a balance or a lesson
 * package refunded.
 */
import { formatAmount } from '../../shared/amounts';
import { PRODUCT_NAME } from '../../shared/constants';
import { escapeHtml } from '../mail/html';
import { layout, type MailContent } from '../mail/mail-templates';

function mail(
  subject: string,
  greetingName: string,
  lines: string[],
  action: { label: string; url: string },
): MailContent {
  const greeting = `Hi ${greetingName},`;
  return {
    subject,
    text: `${[greeting, ...lines].join('\n\n')}\n\n${action.label}: ${action.url}\n`,
    html: layout(subject, [greeting, ...lines].map(escapeHtml), action),
  };
}

const walletLink = (appUrl: string) => ({ label: 'Open my wallet', url: `${appUrl}/wallet` });

export function topUpConfirmedMail(input: {
  displayName: string;
  amountCents: number;
  currency: string;
  reference: string;
  appUrl: string;
}): MailContent {
  const amount = formatAmount(input.amountCents, input.currency);
  return mail(
    `${amount} was added to your ${PRODUCT_NAME} wallet`,
    input.displayName,
    [
      `We received your payment with the reference ${input.reference}: ${amount} is now in your wallet, ready for your next lessons.`,
    ],
    walletLink(input.appUrl),
  );
}

export function topUpRejectedMail(input: {
  displayName: string;
  amountCents: number;
  currency: string;
  reference: string;
  note: string;
  supportEmail: string;
  appUrl: string;
}): MailContent {
  const amount = formatAmount(input.amountCents, input.currency);
  return mail(
    `Your ${PRODUCT_NAME} top-up ${input.reference} was not confirmed`,
    input.displayName,
    [
      `We could not confirm your top-up of ${amount} with the reference ${input.reference}, so your balance is unchanged.`,
      `The note from our team: ${input.note}`,
      `If you did send the money, write to ${input.supportEmail} with the reference.`,
    ],
    walletLink(input.appUrl),
  );
}

export function payoutMail(input: {
  displayName: string;
  amountCents: number;
  currency: string;
  reference: string;
  appUrl: string;
}): MailContent {
  const amount = formatAmount(input.amountCents, input.currency);
  return mail(
    `${PRODUCT_NAME} paid you ${amount}`,
    input.displayName,
    [
      `We recorded a payout of ${amount} to you, with the reference ${input.reference}. It may take a few days to reach your account.`,
    ],
    walletLink(input.appUrl),
  );
}

export function balanceRefundMail(input: {
  displayName: string;
  amountCents: number;
  currency: string;
  reference: string;
  appUrl: string;
}): MailContent {
  const amount = formatAmount(input.amountCents, input.currency);
  return mail(
    `${PRODUCT_NAME} refunded ${amount} of your balance`,
    input.displayName,
    [`We refunded ${amount} of your wallet's balance to you, with the reference ${input.reference}.`],
    walletLink(input.appUrl),
  );
}

export function packageRefundMail(input: {
  displayName: string;
  amountCents: number;
  currency: string;
  credits: number;
  packageName: string;
  reference: string;
  appUrl: string;
}): MailContent {
  const amount = formatAmount(input.amountCents, input.currency);
  const lessons = `${input.credits} unused ${input.credits === 1 ? 'lesson' : 'lessons'}`;
  return mail(
    `${PRODUCT_NAME} refunded ${amount} of your lesson package`,
    input.displayName,
    [
      `We refunded ${amount} to you for the ${lessons} of your package (${input.packageName}), with the reference ${input.reference}. The package has ended; lessons you already booked with it stay booked.`,
    ],
    walletLink(input.appUrl),
  );
}
