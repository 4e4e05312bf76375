/** A person's own data: the texts and names its export and deletion share with the pages. */

/** The name a deleted account goes by wherever others still see it. */
export const DELETED_USER_NAME = 'Deleted user';
/** What stands in a conversation where a deleted account's message was. */
export const DELETED_MESSAGE_TEXT = 'Message deleted';

export const accountDataMessages = {
  wrongPassword: 'This password is not right. Your account has not been deleted.',
  passwordRequired: 'Please enter your password to delete your account',
  payoutFirst:
    'You are still owed money for lessons. Please ask for a payout first, then delete your account.',
  revokeAdminFirst:
    'An administrator cannot delete their account: revoke the administrator role first (from the command line).',
  balanceLeft:
    'Your wallet still holds money. Please ask for a refund of your balance first, then delete your account.',
  tooManyAttempts: 'You have tried to delete your account many times. Please try again later.',
  tooManyExports: 'You have downloaded your data many times this hour. Please try again later.',
  deleted: 'Your account has been deleted. We are sorry to see you go.',
} as const;

/** The export's file name for a day (YYYY-MM-DD). */
export const exportFileName = (day: string) => `tutorlane-export-${day}.zip`;
