/**
 * The mails Tutorlane sends, each with a text and an HTML body and the product name in the
 * subject. Every value that came from a user is escaped in the HTML body.
 */
import { PRODUCT_NAME } from '../../shared/constants';
import { instantLabel } from '../../shared/lessons/lesson-times';
import { replyTimeLabel } from '../../shared/settings/site-settings';
import { timeZoneName } from '../../shared/time-zone-name';
import { escapeHtml } from './html';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

export function layout(title: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px;line-height:1.5">${p}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#4338ca;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;line-height:1.5;color:#475569;font-size:14px">If the button does not work, copy this link into your browser:<br><a href="${escapeHtml(action.url)}" style="color:#4338ca;word-break:break-all">${escapeHtml(action.url)}</a></p>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f8fafc;font-family:Arial,Helvetica,sans-serif;color:#0f172a">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:8px;padding:32px">
<p style="margin:0 0 24px;font-size:20px;font-weight:700;color:#4338ca">${PRODUCT_NAME}</p>
${body}${button}
<p style="margin:24px 0 0;color:#64748b;font-size:13px">${PRODUCT_NAME}: find the right tutor, learn at your pace.</p>
</div></body></html>`;
}

export function verificationMail(input: { displayName: string; link: string }): MailContent {
  const subject = `Verify your email for ${PRODUCT_NAME}`;
  return {
    subject,
    text: `Hi ${input.displayName},

Welcome to ${PRODUCT_NAME}! Please confirm your email address by opening this link:

${input.link}

The link works once and expires in 24 hours. If you did not create an account, you can ignore this mail.
`,
    html: layout(
      subject,
      [
        `Hi ${escapeHtml(input.displayName)},`,
        `Welcome to ${PRODUCT_NAME}! Please confirm your email address.`,
        'The link works once and expires in 24 hours. If you did not create an account, you can ignore this mail.',
      ],
      { label: 'Verify my email', url: input.link },
    ),
  };
}

export function passwordResetMail(input: { displayName: string; link: string }): MailContent {
  const subject = `Reset your ${PRODUCT_NAME} password`;
  return {
    subject,
    text: `Hi ${input.displayName},

Someone (we hope you) asked to reset the password of your ${PRODUCT_NAME} account. Choose a new password here:

${input.link}

The link works once and expires in 1 hour. If you did not ask for this, ignore this mail: your password stays as it is.
`,
    html: layout(
      subject,
      [
        `Hi ${escapeHtml(input.displayName)},`,
        `Someone (we hope you) asked to reset the password of your ${PRODUCT_NAME} account.`,
        'The link works once and expires in 1 hour. If you did not ask for this, ignore this mail: your password stays as it is.',
      ],
      { label: 'Choose a new password', url: input.link },
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
}): MailContent {
  const reply =
    input.replyHours === null
      ? 'Reply to this mail to answer them directly.'
      : `Reply to this mail to answer them directly (within ${replyTimeLabel(input.replyHours)}, as promised on the site).`;
  const subject = `[${PRODUCT_NAME} contact] ${input.subjectLabel} from ${input.name}`;
  // The support address belongs to nobody with a zone: UTC, said in words like every mail's times.
  const when = `${instantLabel(input.receivedAt.getTime(), 'UTC')} ${timeZoneName('UTC')}`;
  return {
    subject,
    text: `A visitor wrote through the contact form.

Name: ${input.name}
Email: ${input.email}
Subject: ${input.subjectLabel}
Received: ${when}

${input.message}

${reply}
`,
    html: layout(subject, [
      'A visitor wrote through the contact form.',
      `<strong>Name:</strong> ${escapeHtml(input.name)}<br><strong>Email:</strong> ${escapeHtml(input.email)}<br><strong>Subject:</strong> ${escapeHtml(input.subjectLabel)}<br><strong>Received:</strong> ${escapeHtml(when)}`,
      `<span style="white-space:pre-wrap">${escapeHtml(input.message)}</span>`,
      escapeHtml(reply),
    ]),
  };
}
