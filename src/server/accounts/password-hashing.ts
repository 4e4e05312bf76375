/**
 * Passwords are hashed with argon2id at OWASP's recommended parameters (19 MiB, 2 iterations,
 * 1 lane) by @node-rs/argon2, which works off the main thread so hashing never blocks requests.
 *
 * At most one hash per core runs at a time; the rest wait their turn here. @node-rs/argon2 runs
 * on libuv's thread pool, whose four threads also read the files the server sends: unbounded, a
 * burst of sign-ins filled all four with hashes and every stylesheet and script waited behind
 * them (docs/decisions/0010-one-hash-per-core.md).
 */
import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { ConcurrencyLimit } from '../rate-limit/concurrency-limit';

/** Algorithm.Argon2id in @node-rs/argon2's const enum, which isolated modules cannot import. */
const ARGON2ID = 2;

/** What every new hash uses (a stored hash carries its own parameters, which verify reads). */
export const argon2Params = {
  algorithm: ARGON2ID,
  memoryCost: 19 * 1024,
  timeCost: 2,
  parallelism: 1,
} as const;

/** Every hash and verify in this process takes a slot; the line behind them is unbounded. */
export const passwordHashing = new ConcurrencyLimit({ slots: availableParallelism() });

export function hashPassword(password: string): Promise<string> {
  return passwordHashing.run(() => hash(password, argon2Params));
}

export async function verifyPassword(data: { hash: string; password: string }): Promise<boolean> {
  try {
    return await passwordHashing.run(() => verify(data.hash, data.password));
  } catch {
    // A malformed stored hash never signs anyone in.
    return false;
  }
}
