/**
 * The mails money sends: a top-up confirmed or rejected, a payout recorded, a balance or a lesson
 * package refunded; each in its recipient's language.
 */
import { PRODUCT_NAME } from '../../shared/constants';
import type { Language } from '../../shared/languages';
import { paths } from '../../shared/routes';
import { escapeHtml } from '../mail/html';
import { mailWords } from '../mail/mail-language';
import { greetingOf, layout, type MailContent } from '../mail/mail-templates';

function mail(
  language: Language,
  subject: string,
  greetingName: string,
  lines: string[],
  action: { label: string; url: string },
): MailContent {
  const greeting = greetingOf(language, greetingName);
  return {
    subject,
    text: `${[greeting, ...lines].join('\n\n')}\n\n${action.label}: ${action.url}\n`,
    html: layout(language, subject, [greeting, ...lines].map(escapeHtml), action),
  };
}

const walletLink = (language: Language, appUrl: string) => ({
  label: mailWords(language).t(/*i18n*/ 'Open my wallet'),
  url: appUrl + paths.wallet,
});

/** What every money mail is told: to whom, in what language, and the amount. */
interface MoneyMailInput {
  displayName: string;
  amountCents: number;
  currency: string;
  reference: string;
  appUrl: string;
  /** The recipient's language (theirs, else the school's default). */
  language: Language;
}

export function topUpConfirmedMail(input: MoneyMailInput): MailContent {
  const { t, amount: format } = mailWords(input.language);
  const amount = format(input.amountCents, input.currency);
  const { reference } = input;
  return mail(
    input.language,
    t(/*i18n*/ '{amount} was added to your {product} wallet', { amount, product: PRODUCT_NAME }),
    input.displayName,
    [
      t(
        /*i18n*/ 'We received your payment with the reference {reference}: {amount} is now in your wallet, ready for your next lessons.',
        { reference, amount },
      ),
    ],
    walletLink(input.language, input.appUrl),
  );
}

export function topUpRejectedMail(
  input: MoneyMailInput & { note: string; supportEmail: string },
): MailContent {
  const { t, amount: format } = mailWords(input.language);
  const amount = format(input.amountCents, input.currency);
  const { reference } = input;
  return mail(
    input.language,
    t(/*i18n*/ 'Your {product} top-up {reference} was not confirmed', { product: PRODUCT_NAME, reference }),
    input.displayName,
    [
      t(
        /*i18n*/ 'We could not confirm your top-up of {amount} with the reference {reference}, so your balance is unchanged.',
        { amount, reference },
      ),
      t(/*i18n*/ 'The note from our team: {note}', { note: input.note }),
      t(/*i18n*/ 'If you did send the money, write to {email} with the reference.', {
        email: input.supportEmail,
      }),
    ],
    walletLink(input.language, input.appUrl),
  );
}

export function payoutMail(input: MoneyMailInput): MailContent {
  const { t, amount: format } = mailWords(input.language);
  const amount = format(input.amountCents, input.currency);
  return mail(
    input.language,
    t(/*i18n*/ '{product} paid you {amount}', { product: PRODUCT_NAME, amount }),
    input.displayName,
    [
      t(
        /*i18n*/ 'We recorded a payout of {amount} to you, with the reference {reference}. It may take a few days to reach your account.',
        { amount, reference: input.reference },
      ),
    ],
    walletLink(input.language, input.appUrl),
  );
}

export function balanceRefundMail(input: MoneyMailInput): MailContent {
  const { t, amount: format } = mailWords(input.language);
  const amount = format(input.amountCents, input.currency);
  return mail(
    input.language,
    t(/*i18n*/ '{product} refunded {amount} of your balance', { product: PRODUCT_NAME, amount }),
    input.displayName,
    [
      t(/*i18n*/ "We refunded {amount} of your wallet's balance to you, with the reference {reference}.", {
        amount,
        reference: input.reference,
      }),
    ],
    walletLink(input.language, input.appUrl),
  );
}

export function packageRefundMail(
  input: MoneyMailInput & { credits: number; packageName: string },
): MailContent {
  const { t, amount: format } = mailWords(input.language);
  const amount = format(input.amountCents, input.currency);
  return mail(
    input.language,
    t(/*i18n*/ '{product} refunded {amount} of your lesson package', { product: PRODUCT_NAME, amount }),
    input.displayName,
    [
      t(
        /*i18n*/ 'We refunded {amount} to you for the {count, plural, one {# unused lesson} other {# unused lessons}} of your package ({package}), with the reference {reference}. The package has ended; lessons you already booked with it stay booked.',
        { amount, count: input.credits, package: input.packageName, reference: input.reference },
      ),
    ],
    walletLink(input.language, input.appUrl),
  );
}
