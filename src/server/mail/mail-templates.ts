/**
 * The mails Tutorlane sends, each with a text and an HTML body and the product name in the
 * subject, in the recipient's language (./mail-language.ts). Every value that came from a user is
 * escaped in the HTML body.
 */
import { PRODUCT_NAME } from '../../shared/constants';
import { directionOf, type Language, SOURCE_LANGUAGE } from '../../shared/languages';
import { escapeHtml } from './html';
import { mailWords } from './mail-language';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export function layout(
  language: Language,
  title: string,
  paragraphs: string[],
  action?: { label: string; url: string },
): string {
  const { t } = mailWords(language);
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${p}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#4338ca;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;line-height:1.5;color:#475569;font-size:14px">${escapeHtml(t(/*i18n*/ 'If the button does not work, copy this link into your browser:'))}<br><a href="${escapeHtml(action.url)}" dir="ltr" style="color:#4338ca;word-break:break-all">${escapeHtml(action.url)}</a></p>`
    : '';
  const footer = t(/*i18n*/ '{product}: find the right tutor, learn at your pace.', {
    product: PRODUCT_NAME,
  });
  return `<!doctype html><html lang="${language}" dir="${directionOf(language)}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f8fafc;font-family:Arial,Helvetica,sans-serif;color:#0f172a">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:8px;padding:32px">
<p style="margin:0 0 24px;font-size:20px;font-weight:700;color:#4338ca">${PRODUCT_NAME}</p>
${body}${button}
<p style="margin:24px 0 0;color:#64748b;font-size:13px">${escapeHtml(footer)}</p>
</div></body></html>`;
}

/** "Hi Ada,": the first line of every mail to a person. */
export const greetingOf = (language: Language, name: string) =>
  mailWords(language).t(/*i18n*/ 'Hi {name},', { name });

export function verificationMail(input: {
  displayName: string;
  link: string;
  language?: Language;
}): MailContent {
  const language = input.language ?? SOURCE_LANGUAGE;
  const { t } = mailWords(language);
  const product = PRODUCT_NAME;
  const subject = t(/*i18n*/ 'Verify your email for {product}', { product });
  const welcome = t(
    /*i18n*/ 'Welcome to {product}! Please confirm your email address by opening this link:',
    {
      product,
    },
  );
  const welcomeShort = t(/*i18n*/ 'Welcome to {product}! Please confirm your email address.', { product });
  const expiry = t(
    /*i18n*/ 'The link works once and expires in 24 hours. If you did not create an account, you can ignore this mail.',
  );
  const greeting = greetingOf(language, input.displayName);
  return {
    subject,
    text: `${greeting}\n\n${welcome}\n\n${input.link}\n\n${expiry}\n`,
    html: layout(language, subject, [escapeHtml(greeting), escapeHtml(welcomeShort), escapeHtml(expiry)], {
      label: t(/*i18n*/ 'Verify my email'),
      url: input.link,
    }),
  };
}

export function passwordResetMail(input: {
  displayName: string;
  link: string;
  language: Language;
}): MailContent {
  const { t } = mailWords(input.language);
  const product = PRODUCT_NAME;
  const subject = t(/*i18n*/ 'Reset your {product} password', { product });
  const asked = t(
    /*i18n*/ 'Someone (we hope you) asked to reset the password of your {product} account. Choose a new password here:',
    { product },
  );
  const askedShort = t(
    /*i18n*/ 'Someone (we hope you) asked to reset the password of your {product} account.',
    { product },
  );
  const expiry = t(
    /*i18n*/ 'The link works once and expires in 1 hour. If you did not ask for this, ignore this mail: your password stays as it is.',
  );
  const greeting = greetingOf(input.language, input.displayName);
  return {
    subject,
    text: `${greeting}\n\n${asked}\n\n${input.link}\n\n${expiry}\n`,
    html: layout(
      input.language,
      subject,
      [escapeHtml(greeting), escapeHtml(askedShort), escapeHtml(expiry)],
      {
        label: t(/*i18n*/ 'Choose a new password'),
        url: input.link,
      },
    ),
  };
}

export function contactForwardMail(input: {
  name: string;
  email: string;
  subjectLabel: string;
  message: string;
  receivedAt: Date;
  /** How soon the site promises an answer (Site settings); null: it promises none. */
  replyHours: number | null;
  /** The school's default language: the support address belongs to nobody who chose one. */
  language?: Language;
}): MailContent {
  const language = input.language ?? SOURCE_LANGUAGE;
  const { t, times, zone } = mailWords(language);
  const reply =
    input.replyHours === null
      ? t(/*i18n*/ 'Reply to this mail to answer them directly.')
      : t(
          /*i18n*/ 'Reply to this mail to answer them directly (within {hours, plural, one {# hour} other {# hours}}, as promised on the site).',
          { hours: input.replyHours },
        );
  const subject = t(/*i18n*/ '[{product} contact] {subject} from {name}', {
    product: PRODUCT_NAME,
    subject: input.subjectLabel,
    name: input.name,
  });
  // The support address belongs to nobody with a zone: UTC, said in words like every mail's times.
  const when = `${times.instant(input.receivedAt.getTime(), 'UTC')} ${zone('UTC')}`;
  const intro = t(/*i18n*/ 'A visitor wrote through the contact form.');
  const labels = {
    name: t(/*i18n*/ 'Name:'),
    email: t(/*i18n*/ 'Email:'),
    subject: t(/*i18n*/ 'Subject:'),
    received: t(/*i18n*/ 'Received:'),
  };
  return {
    subject,
    text: `${intro}

${labels.name} ${input.name}
${labels.email} ${input.email}
${labels.subject} ${input.subjectLabel}
${labels.received} ${when}

${input.message}

${reply}
`,
    html: layout(language, subject, [
      escapeHtml(intro),
      `<strong>${escapeHtml(labels.name)}</strong> ${escapeHtml(input.name)}<br><strong>${escapeHtml(labels.email)}</strong> ${escapeHtml(input.email)}<br><strong>${escapeHtml(labels.subject)}</strong> ${escapeHtml(input.subjectLabel)}<br><strong>${escapeHtml(labels.received)}</strong> ${escapeHtml(when)}`,
      `<span style="white-space:pre-wrap">${escapeHtml(input.message)}</span>`,
      escapeHtml(reply),
    ]),
  };
}
