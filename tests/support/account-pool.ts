/**
 * Accounts made ahead for the browser suite: verified students and tutors that the seed
 * (browser-seed.ts) writes into every data folder it fills, so that a spec whose subject is not
 * sign-up starts from an account at the cost of a sign-in, not of a human check, an argon2id hash
 * and a mail. Each is what a sign-up followed by the mailed link leaves behind, and nothing more.
 *
 * A test claims one by creating a file named after it in the claims folder, which fails for every
 * other test that tries the same one (O_EXCL), whichever worker or server it runs on: every
 * seeded folder holds the same accounts, and one run shares one claims folder.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';

export type PoolRole = 'student' | 'tutor';

/** Per role and folder: more than a whole run's createAccount() calls. */
export const POOL_SIZE = 250;

export const pooledAccount = (role: PoolRole, index: number) => ({
  id: `pool-${role}-${index}`,
  email: `pool.${role}.${index}@seed.tutorlane.test`,
  displayName: `Pooled ${role === 'tutor' ? 'Tutor' : 'Student'} ${index}`,
});

/** Where this process looks first: every account before it is known to be claimed. */
const next: Record<PoolRole, number> = { student: 0, tutor: 0 };

/** The first account of `role` nobody in this run has claimed; undefined once all are taken. */
export function claimPooledAccount(claimsDir: string, role: PoolRole) {
  mkdirSync(claimsDir, { recursive: true });
  for (; next[role] < POOL_SIZE; next[role]++) {
    try {
      closeSync(openSync(join(claimsDir, `${role}-${next[role]}`), 'wx'));
      return pooledAccount(role, next[role]++);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return undefined;
}
