/**
 * The mails operators' decisions send: to a tutor about their verification, to an author or a
 * suspended user; each in its recipient's language.
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
  action?: { label: string; url: string },
): MailContent {
  const greeting = greetingOf(language, greetingName);
  const text = [greeting, ...lines].join('\n\n');
  return {
    subject,
    text: `${text}\n${action ? `\n${action.label}: ${action.url}\n` : ''}`,
    html: layout(language, subject, [greeting, ...lines].map(escapeHtml), action),
  };
}

export function verificationDecisionMail(input: {
  displayName: string;
  approved: boolean;
  note: string;
  appUrl: string;
  language: Language;
}): MailContent {
  const { t } = mailWords(input.language);
  const product = PRODUCT_NAME;
  const profile = { label: t(/*i18n*/ 'Open my profile'), url: `${input.appUrl}${paths.profile}` };
  const note = input.note ? [t(/*i18n*/ 'A note from the reviewer: {note}', { note: input.note })] : [];
  return input.approved
    ? mail(
        input.language,
        t(/*i18n*/ 'Your {product} profile is verified', { product }),
        input.displayName,
        [
          t(
            /*i18n*/ 'An administrator reviewed your tutor profile and approved it. It now carries the "Verified tutor" badge.',
          ),
          ...note,
        ],
        profile,
      )
    : mail(
        input.language,
        t(/*i18n*/ 'Your {product} verification request was declined', { product }),
        input.displayName,
        [
          t(/*i18n*/ 'An administrator reviewed your tutor profile and could not approve it yet.'),
          ...note,
          t(/*i18n*/ 'You can change your profile and ask for review again from your profile page.'),
        ],
        profile,
      );
}

export function contentHiddenMail(input: {
  displayName: string;
  kind: 'message' | 'review';
  text: string;
  note: string;
  supportEmail: string;
  language: Language;
}): MailContent {
  const { t } = mailWords(input.language);
  const product = PRODUCT_NAME;
  const quoted = input.text.length > 300 ? `${input.text.slice(0, 300)}…` : input.text;
  const message = input.kind === 'message';
  return mail(
    input.language,
    message
      ? t(/*i18n*/ 'A message of yours was removed from {product}', { product })
      : t(/*i18n*/ 'A review of yours was removed from {product}', { product }),
    input.displayName,
    [
      message
        ? t(/*i18n*/ 'After a report, a moderator removed your message: "{quoted}"', { quoted })
        : t(/*i18n*/ 'After a report, a moderator removed your review: "{quoted}"', { quoted }),
      ...(input.note ? [t(/*i18n*/ "The moderator's note: {note}", { note: input.note })] : []),
      t(/*i18n*/ 'If you think this is a mistake, write to {email}.', { email: input.supportEmail }),
    ],
  );
}

export function suspensionMail(input: {
  displayName: string;
  reason: string;
  supportEmail: string;
  language: Language;
}): MailContent {
  const { t } = mailWords(input.language);
  return mail(
    input.language,
    t(/*i18n*/ 'Your {product} account has been suspended', { product: PRODUCT_NAME }),
    input.displayName,
    [
      t(/*i18n*/ 'An administrator suspended your account: {reason}', { reason: input.reason }),
      t(/*i18n*/ 'You can no longer sign in, and your upcoming lessons have been cancelled.'),
      t(/*i18n*/ 'If you think this is a mistake, write to {email}.', { email: input.supportEmail }),
    ],
  );
}
