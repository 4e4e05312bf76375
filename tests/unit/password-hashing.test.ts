/**
 * Password hashing takes one slot per core (issue #6): a burst of sign-ins never occupies every
 * thread of libuv's pool, which also reads the files the server sends.
 */
import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';

const argon2 = vi.hoisted(() => {
  const finishers: ((ok: boolean) => void)[] = [];
  return {
    finishers,
    verify: vi.fn(
      (stored: string) =>
        new Promise<boolean>((resolve, reject) => {
          if (stored === 'malformed') reject(new Error('invalid hash'));
          else finishers.push(resolve);
        }),
    ),
    hash: vi.fn(async (password: string) => `$argon2id$${password}`),
  };
});
vi.mock('@node-rs/argon2', () => ({ verify: argon2.verify, hash: argon2.hash }));

const { hashPassword, passwordHashing, verifyPassword } = await import(
  '../../src/server/accounts/password-hashing'
);

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  argon2.verify.mockClear();
  argon2.finishers.length = 0;
});

describe('password hashing', () => {
  it('runs one verify per core, starts the next as soon as one ends, and answers each caller', async () => {
    const cores = availableParallelism();
    const results = Array.from({ length: cores + 3 }, (_, i) =>
      verifyPassword({ hash: `stored-${i}`, password: 'correct horse' }),
    );
    await settle();
    expect(argon2.verify).toHaveBeenCalledTimes(cores);
    expect(passwordHashing.active).toBe(cores);

    // Verifies finish in the order they started; the even ones match.
    let finished = 0;
    const finishOne = async () => {
      argon2.finishers[finished]?.(finished % 2 === 0);
      finished += 1;
      await settle();
    };
    await finishOne();
    expect(argon2.verify).toHaveBeenCalledTimes(cores + 1);
    expect(passwordHashing.active).toBe(cores);
    while (finished < cores + 3) await finishOne();

    expect(argon2.verify.mock.calls.map(([stored]) => stored)).toEqual(
      Array.from({ length: cores + 3 }, (_, i) => `stored-${i}`),
    );
    expect(await Promise.all(results)).toEqual(Array.from({ length: cores + 3 }, (_, i) => i % 2 === 0));
    expect(passwordHashing.active).toBe(0);
  });

  it('answers false for a malformed stored hash and gives its slot back', async () => {
    const cores = availableParallelism();
    for (let i = 0; i < cores + 1; i++) {
      expect(await verifyPassword({ hash: 'malformed', password: 'x' })).toBe(false);
    }
    expect(passwordHashing.active).toBe(0);
    expect(await hashPassword('pw')).toBe('$argon2id$pw');
  });
});
