/**
 * Passwords are hashed with argon2id at OWASP's recommended parameters (19 MiB, 2 iterations,
 * 1 lane) by @node-rs/argon2, on threads of their own that run below the request thread's
 * priority (./hash-threads.ts), so hashing never blocks requests nor slows them down.
 *
 * At most one hash per core runs at a time; the rest wait their turn here
 * (docs/decisions/0010-one-hash-per-core.md).
 */
import { availableParallelism } from 'node:os';
import { ConcurrencyLimit } from '../rate-limit/concurrency-limit';
import { HashThreads } from './hash-threads';

/** Algorithm.Argon2id in @node-rs/argon2's const enum, which isolated modules cannot import. */
const ARGON2ID = 2;

/** What every new hash uses (a stored hash carries its own parameters, which verify reads). */
export const argon2Params = {
  algorithm: ARGON2ID,
  memoryCost: 19 * 1024,
  timeCost: 2,
  parallelism: 1,
} as const;

const cores = availableParallelism();

/** The threads hashes run on, one per core. */
export const hashThreads = new HashThreads(cores);

/** Every hash and verify in this process takes a slot; the line behind them is unbounded. */
export const passwordHashing = new ConcurrencyLimit({ slots: cores });

export function hashPassword(password: string): Promise<string> {
  return passwordHashing.run(() => hashThreads.hash(password, argon2Params));
}

export async function verifyPassword(data: { hash: string; password: string }): Promise<boolean> {
  try {
    return await passwordHashing.run(() => hashThreads.verify(data.hash, data.password));
  } catch {
    // A malformed stored hash never signs anyone in.
    return false;
  }
}
