/**
 * Password hashes run on Piscina's threads, one per core, below the request thread's priority: a
 * burst of sign-ins never takes the cores from the other requests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, getPriority } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import {
  HASH_THREAD_NICE_INCREMENT,
  hashPassword,
  hashThreads,
  verifyPassword,
} from '../../src/server/accounts/password-hashing';

/** The nice value of every thread of this process, read from /proc. */
function threadNiceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // After the command name in parentheses: state is field 3, nice field 19.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

afterAll(() => hashThreads.destroy());

describe('password hashing', () => {
  it('hashes with argon2id at OWASP parameters and verifies right, wrong, foreign and damaged hashes', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword({ hash: stored, password: 'correct horse' })).toBe(true);
    expect(await verifyPassword({ hash: stored, password: 'correct horsE' })).toBe(false);
    expect(await verifyPassword({ hash: 'not a hash', password: 'correct horse' })).toBe(false);
    // A damaged argon2 hash is the server's fault, raised rather than read as a wrong password.
    await expect(
      verifyPassword({ hash: '$argon2id$v=19$damaged', password: 'correct horse' }),
    ).rejects.toThrow();
  });

  it('runs the hashes on threads below the request thread’s priority', async () => {
    await hashPassword('warm up the threads');
    const below = Math.min(19, getPriority() + HASH_THREAD_NICE_INCREMENT);
    expect(hashThreads.threads.length).toBeGreaterThan(0);
    expect(threadNiceValues().filter((nice) => nice === below).length).toBeGreaterThanOrEqual(
      hashThreads.threads.length,
    );
  });

  it('answers every caller of a burst, on at most one thread per core', async () => {
    const cores = availableParallelism();
    const stored = await hashPassword('correct horse');
    const results = Array.from({ length: cores * 3 }, (_, i) =>
      verifyPassword({ hash: stored, password: i % 2 === 0 ? 'correct horse' : 'wrong horse' }),
    );
    expect(await Promise.all(results)).toEqual(Array.from({ length: cores * 3 }, (_, i) => i % 2 === 0));
    expect(hashThreads.threads.length).toBeLessThanOrEqual(cores);
  });
});
