/**
 * Passwords are hashed with argon2id at OWASP's recommended parameters (19 MiB, 2 iterations,
 * 1 lane) by @node-rs/argon2, on a Piscina pool of one thread per core whose threads run below the
 * request thread's scheduling priority. A hash is 10-20 ms of CPU against well under one for a page
 * or a session check: at the same priority, a burst of sign-ins took the cores from everyone else
 * (measured: other requests' p99 went from 45-54 ms to 165-195 ms, docs/decisions/0005-performance-work.md). Hashes
 * beyond one per core wait in Piscina's queue, and libuv's pool stays free for file reads.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';

/** Algorithm.Argon2id in @node-rs/argon2's const enum, which isolated modules cannot import. */
const ARGON2ID = 2;

/** What every new hash uses (a stored hash carries its own parameters, which verify reads). */
export const argon2Params = {
  algorithm: ARGON2ID,
  memoryCost: 19 * 1024,
  timeCost: 2,
  parallelism: 1,
} as const;

/** How far below the server's own priority the hash threads run (nice 0 becomes 10). */
export const HASH_THREAD_NICE_INCREMENT = 10;

export const hashThreads = new Piscina<
  { password: string; params?: typeof argon2Params; hash?: string },
  string | boolean
>({
  filename: new URL('./password-hash-thread.mjs', import.meta.url).href,
  maxThreads: availableParallelism(),
  // None until the first sign-in; then they stay a while, as sign-ins come in bursts and a new
  // thread costs tens of milliseconds to start.
  minThreads: 0,
  idleTimeout: 5 * 60 * 1000,
  niceIncrement: HASH_THREAD_NICE_INCREMENT,
});

export async function hashPassword(password: string): Promise<string> {
  return String(await hashThreads.run({ password, params: argon2Params }));
}

export async function verifyPassword(data: { hash: string; password: string }): Promise<boolean> {
  // Something that is not an argon2 hash at all never signs anyone in. Any other failure (a
  // thread that died, a damaged hash) is the server's, and is raised as one.
  if (!data.hash.startsWith('$argon2')) return false;
  return (await hashThreads.run({ hash: data.hash, password: data.password })) === true;
}
