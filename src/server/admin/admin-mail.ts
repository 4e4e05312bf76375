/** The mails operators' decisions send: to a tutor about their verification, to an author or a suspended user. */
import { PRODUCT_NAME } from '../../shared/constants';
import { paths } from '../../shared/routes';
import { escapeHtml } from '../mail/html';
import { layout, type MailContent } from '../mail/mail-templates';

function mail(
  subject: string,
  greetingName: string,
  lines: string[],
  action?: { label: string; url: string },
): MailContent {
  const greeting = `Hi ${greetingName},`;
  const text = [greeting, ...lines].join('\n\n');
  return {
    subject,
    text: `${text}\n${action ? `\n${action.label}: ${action.url}\n` : ''}`,
    html: layout(subject, [greeting, ...lines].map(escapeHtml), action),
  };
}

export function verificationDecisionMail(input: {
  displayName: string;
  approved: boolean;
  note: string;
  appUrl: string;
}): MailContent {
  const profile = { label: 'Open my profile', url: `${input.appUrl}${paths.profile}` };
  const note = input.note ? [`A note from the reviewer: ${input.note}`] : [];
  return input.approved
    ? mail(
        `Your ${PRODUCT_NAME} profile is verified`,
        input.displayName,
        [
          'An administrator reviewed your tutor profile and approved it. It now carries the "Verified tutor" badge.',
          ...note,
        ],
        profile,
      )
    : mail(
        `Your ${PRODUCT_NAME} verification request was declined`,
        input.displayName,
        [
          'An administrator reviewed your tutor profile and could not approve it yet.',
          ...note,
          'You can change your profile and ask for review again from your profile page.',
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
}): MailContent {
  const quoted = input.text.length > 300 ? `${input.text.slice(0, 300)}…` : input.text;
  return mail(`A ${input.kind} of yours was removed from ${PRODUCT_NAME}`, input.displayName, [
    `After a report, a moderator removed your ${input.kind}: "${quoted}"`,
    ...(input.note ? [`The moderator's note: ${input.note}`] : []),
    `If you think this is a mistake, write to ${input.supportEmail}.`,
  ]);
}

export function suspensionMail(input: {
  displayName: string;
  reason: string;
  supportEmail: string;
}): MailContent {
  return mail(`Your ${PRODUCT_NAME} account has been suspended`, input.displayName, [
    `An administrator suspended your account: ${input.reason}`,
    'You can no longer sign in, and your upcoming lessons have been cancelled.',
    `If you think this is a mistake, write to ${input.supportEmail}.`,
  ]);
}
