/**
 * A family's invitations by mail, in the inviter's language (the person invited has none yet),
 * each link good for a week (FAMILY_INVITATION_DAYS): a parent invites their child to a login of their own; a student invites a parent to pay for them.
 */
import { PRODUCT_NAME } from '../../shared/constants';
import type { Language } from '../../shared/languages';
import { escapeHtml } from '../mail/html';
import { mailWords } from '../mail/mail-language';
import type { MailContent } from '../mail/mail-templates';
import { layout } from '../mail/mail-templates';

function mail(
  language: Language,
  subject: string,
  lines: string[],
  action: { label: string; url: string },
): MailContent {
  return {
    subject,
    text: `${lines.join('\n\n')}\n\n${action.label}: ${action.url}\n`,
    html: layout(language, subject, lines.map(escapeHtml), action),
  };
}

export function childLoginInvitationMail(input: {
  language: Language;
  firstName: string;
  parentName: string;
  link: string;
}): MailContent {
  const { t } = mailWords(input.language);
  const product = PRODUCT_NAME;
  return mail(
    input.language,
    t(/*i18n*/ '{parent} invites you to your own {product} login', { parent: input.parentName, product }),
    [
      t(/*i18n*/ 'Hi {name},', { name: input.firstName }),
      t(
        /*i18n*/ '{parent} has set up your lessons on {product} and invites you to a login of your own: you will see your lessons, write to your tutors and join your lessons yourself. Your parent keeps paying for them.',
        { parent: input.parentName, product },
      ),
      t(/*i18n*/ 'Choose your password from this link within a week.'),
    ],
    { label: t(/*i18n*/ 'Choose my password'), url: input.link },
  );
}

export function parentInvitationMail(input: {
  language: Language;
  studentName: string;
  link: string;
}): MailContent {
  const { t } = mailWords(input.language);
  const product = PRODUCT_NAME;
  return mail(
    input.language,
    t(/*i18n*/ '{student} asks you to join their family on {product}', {
      student: input.studentName,
      product,
    }),
    [
      t(
        /*i18n*/ '{student} learns with tutors on {product} and asks you to be their parent there: you would pay for their lessons from your wallet, see their lessons and progress, and hear from their tutors.',
        { student: input.studentName, product },
      ),
      t(/*i18n*/ 'Open this link within a week, then sign in or sign up as a parent to accept.'),
    ],
    { label: t(/*i18n*/ 'See the invitation'), url: input.link },
  );
}
