/**
 * Passwords are hashed with argon2id at OWASP's recommended parameters (19 MiB, 2 iterations,
 * 1 lane) by @node-rs/argon2, which works off the main thread so hashing never blocks requests.
 */
import { hash, verify } from '@node-rs/argon2';

/** Algorithm.Argon2id in @node-rs/argon2's const enum, which isolated modules cannot import. */
const ARGON2ID = 2;

const params = { algorithm: ARGON2ID, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, params);
}

export async function verifyPassword(data: { hash: string; password: string }): Promise<boolean> {
  try {
    return await verify(data.hash, data.password);
  } catch {
    // A malformed stored hash never signs anyone in.
    return false;
  }
}
