/**
 * Password hashes run on threads of their own, one hash per core at a time, below the request
 * thread's priority (issue #6): a burst of sign-ins never holds up the other requests, and never
 * occupies libuv's pool, which reads the files the server sends.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, getPriority } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { HASH_THREAD_NICE_INCREMENT, HashThreads } from '../../src/server/accounts/hash-threads';
import {
  hashPassword,
  hashThreads,
  passwordHashing,
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

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

afterAll(() => hashThreads.close());

describe('password hashing', () => {
  it('hashes with argon2id at OWASP parameters and verifies right, wrong and malformed hashes', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword({ hash: stored, password: 'correct horse' })).toBe(true);
    expect(await verifyPassword({ hash: stored, password: 'correct horsE' })).toBe(false);
    expect(await verifyPassword({ hash: 'not a hash', password: 'correct horse' })).toBe(false);
    expect(passwordHashing.active).toBe(0);
  });

  it('runs the hashes on threads below the request thread’s priority', async () => {
    await hashPassword('warm up the threads');
    const below = Math.min(19, getPriority() + HASH_THREAD_NICE_INCREMENT);
    expect(hashThreads.started).toBeGreaterThan(0);
    expect(threadNiceValues().filter((nice) => nice === below).length).toBeGreaterThanOrEqual(
      hashThreads.started,
    );
  });

  it('runs one hash per core at a time, on at most one thread per core, and answers each caller', async () => {
    const cores = availableParallelism();
    const stored = await hashPassword('correct horse');
    const results = Array.from({ length: cores + 3 }, (_, i) =>
      verifyPassword({ hash: stored, password: i % 2 === 0 ? 'correct horse' : 'wrong horse' }),
    );
    await settle();
    expect(passwordHashing.active).toBe(cores);
    expect(await Promise.all(results)).toEqual(Array.from({ length: cores + 3 }, (_, i) => i % 2 === 0));
    expect(hashThreads.started).toBeLessThanOrEqual(cores);
    expect(passwordHashing.active).toBe(0);
  });

  it('fails the hash of a thread that stops, gives its slot back, and starts a new thread for the next', async () => {
    await hashThreads.close();
    const pending = hashPassword('correct horse');
    await settle();
    await hashThreads.close();
    await expect(pending).rejects.toThrow('A password hash thread stopped');
    expect(passwordHashing.active).toBe(0);

    const stored = await hashPassword('correct horse');
    expect(await verifyPassword({ hash: stored, password: 'correct horse' })).toBe(true);
  });

  it('reports a thread that stops unasked, such as one that cannot load the hash library, and fails its job', async () => {
    const threads = new HashThreads(1, '/nowhere/argon2.node');
    const lost: Error[] = [];
    threads.onThreadLost = (error) => lost.push(error);
    await expect(threads.hash('correct horse', {})).rejects.toThrow('/nowhere/argon2.node');
    expect(lost.map((error) => error.message)).toEqual([expect.stringContaining('/nowhere/argon2.node')]);
    expect(threads.started).toBe(0);
  });

  it('does not report threads it was asked to end', async () => {
    const lost: Error[] = [];
    hashThreads.onThreadLost = (error) => lost.push(error);
    await hashPassword('correct horse');
    await hashThreads.close();
    expect(lost).toEqual([]);
    hashThreads.onThreadLost = undefined;
  });
});
