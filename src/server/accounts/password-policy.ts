/**
 * Refuses the 1,000 most common passwords (the ranked list maintained by zxcvbn-ts), compared
 * case-insensitively, on sign-up and on reset. The list is loaded on first use, not at start-up:
 * its module is the largest the server has, and most requests never need it.
 */
let mostCommon: Promise<Set<string>> | undefined;

export async function isCommonPassword(password: string): Promise<boolean> {
  mostCommon ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) =>
      new Set(
        (dictionary['passwords-common'] as string[]).slice(0, 1000).map((common) => common.toLowerCase()),
      ),
  );
  return (await mostCommon).has(password.toLowerCase());
}
