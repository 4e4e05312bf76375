/**
 * Every migration, in order. Forward only: a migration that has shipped is never edited; a change
 * is a new file. The same files run on the embedded store and on PostgreSQL.
 */
import type { Migration } from 'kysely';
import * as accounts from './0001-accounts';
import * as contactMessages from './0002-contact-messages';
import * as tutorProfiles from './0003-tutor-profiles';
import * as verificationTokenUse from './0004-verification-token-use';
import * as lessons from './0005-lessons';
import * as messages from './0006-messages';
import * as lessonRoom from './0007-lesson-room';
import * as reviews from './0008-reviews';
import * as progress from './0009-progress';
import * as operators from './0010-operators';
import * as siteSettings from './0011-site-settings';
import * as supportConversations from './0012-support-conversations';
import * as oneOpenReport from './0013-one-open-report';
import * as money from './0014-money';
import * as lessonReminders from './0015-lesson-reminders';
import * as trialLessons from './0016-trial-lessons';
import * as lessonProposals from './0017-lesson-proposals';
import * as cancellationPolicy from './0018-cancellation-policy';
import * as lessonSeries from './0019-lesson-series';
import * as lessonPackages from './0020-lesson-packages';
import * as twoFactor from './0021-two-factor';
import * as accountDeletion from './0022-account-deletion';
import * as ledgerCheckpoints from './0023-ledger-checkpoints';
import * as auditLogErasure from './0024-audit-log-erasure';
import * as welcomeSession from './0025-welcome-session';
import * as unappliedPayments from './0026-unapplied-payments';
import * as moneyLeft from './0027-money-left';
import * as twoFactorSessions from './0028-two-factor-sessions';
import * as supportReplyTime from './0029-support-reply-time';
import * as paymentInstructions from './0030-payment-instructions';
import * as idempotentRequests from './0032-idempotent-requests';
import * as hourlyRateRange from './0033-hourly-rate-range';
import * as languages from './0034-languages';
import * as groupClasses from './0035-group-classes';
import * as classConversations from './0036-class-conversations';
import * as classRoom from './0037-class-room';
import * as families from './0038-families';
import * as familyConversations from './0039-family-conversations';
import * as mailTemplates from './0040-mail-templates';
import * as classSeatLookup from './0042-class-seat-lookup';
import * as ledgerCheckpointBalances from './0043-ledger-checkpoint-balances';
import * as messageFunctions from './0044-message-functions';
import * as busyTimeFunctions from './0045-busy-time-functions';

export const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-contact-messages': contactMessages,
  '0003-tutor-profiles': tutorProfiles,
  '0004-verification-token-use': verificationTokenUse,
  '0005-lessons': lessons,
  '0006-messages': messages,
  '0007-lesson-room': lessonRoom,
  '0008-reviews': reviews,
  '0009-progress': progress,
  '0010-operators': operators,
  '0011-site-settings': siteSettings,
  '0012-support-conversations': supportConversations,
  '0013-one-open-report': oneOpenReport,
  '0014-money': money,
  '0015-lesson-reminders': lessonReminders,
  '0016-trial-lessons': trialLessons,
  '0017-lesson-proposals': lessonProposals,
  '0018-cancellation-policy': cancellationPolicy,
  '0019-lesson-series': lessonSeries,
  '0020-lesson-packages': lessonPackages,
  '0021-two-factor': twoFactor,
  '0022-account-deletion': accountDeletion,
  '0023-ledger-checkpoints': ledgerCheckpoints,
  '0024-audit-log-erasure': auditLogErasure,
  '0025-welcome-session': welcomeSession,
  '0026-unapplied-payments': unappliedPayments,
  '0027-money-left': moneyLeft,
  '0028-two-factor-sessions': twoFactorSessions,
  '0029-support-reply-time': supportReplyTime,
  '0030-payment-instructions': paymentInstructions,
  '0032-idempotent-requests': idempotentRequests,
  '0033-hourly-rate-range': hourlyRateRange,
  '0034-languages': languages,
  '0035-group-classes': groupClasses,
  '0036-class-conversations': classConversations,
  '0037-class-room': classRoom,
  '0038-families': families,
  '0039-family-conversations': familyConversations,
  '0040-mail-templates': mailTemplates,
  '0042-class-seat-lookup': classSeatLookup,
  '0043-ledger-checkpoint-balances': ledgerCheckpointBalances,
  '0044-message-functions': messageFunctions,
  '0045-busy-time-functions': busyTimeFunctions,
};
