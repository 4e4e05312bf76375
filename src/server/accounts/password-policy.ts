/**
 * Refuses the 1,000 most common passwords (the ranked list maintained by zxcvbn-ts), compared
 * case-insensitively, on sign-up and on reset.
 */
import { dictionary } from '@zxcvbn-ts/language-common';

const mostCommon = new Set(
  (dictionary['passwords-common'] as string[]).slice(0, 1000).map((password) => password.toLowerCase()),
);

export function isCommonPassword(password: string): boolean {
  return mostCommon.has(password.toLowerCase());
}
