/**
 * One password hash, on one of Piscina's threads (./password-hashing.ts): argon2id by
 * @node-rs/argon2, synchronously, since this thread has nothing else to do. Plain JavaScript that
 * imports only a package, so it runs as it is under tsx, Vitest and the bundle.
 */
import { hashSync, verifySync } from '@node-rs/argon2';

/** { password, params } → a PHC string; { password, hash } → whether they match (throws on a malformed hash). */
export default function passwordHash(task) {
  return task.hash === undefined
    ? hashSync(task.password, task.params)
    : verifySync(task.hash, task.password);
}
