/**
 * Better Auth keeps each call's context in AsyncLocalStorage. On Node 20 an AsyncLocalStorage that
 * has run once leaves async hooks on for the whole process, and every later request pays for them:
 * after the first sign-up, the health check's throughput fell by a sixth (issue #6, measured with
 * npm run bench). Better Auth is called rarely (sign-up, sign-out, verification, password reset,
 * session renewal), so we count its calls and, whenever none is in flight, disable its storages;
 * its next call enables them again. Nothing of Better Auth runs between its calls: it awaits its
 * own background work (mail hooks) unless told otherwise, which we do not.
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import {
  getCurrentAuthContextAsyncLocalStorage,
  getCurrentDBAdapterAsyncLocalStorage,
  getRequestStateAsyncLocalStorage,
} from '@better-auth/core/context';

let storages: AsyncLocalStorage<unknown>[] | undefined;
let inFlight = 0;

async function betterAuthStorages(): Promise<AsyncLocalStorage<unknown>[]> {
  storages ??= (await Promise.all([
    getCurrentAuthContextAsyncLocalStorage(),
    getCurrentDBAdapterAsyncLocalStorage(),
    getRequestStateAsyncLocalStorage(),
  ])) as AsyncLocalStorage<unknown>[];
  return storages;
}

/** Runs one call into Better Auth; the last one out switches its async context tracking off. */
export async function inAuthContext<T>(call: () => Promise<T>): Promise<T> {
  // Found before the call is counted, so the release below never waits and never races a call.
  const known = storages ?? (await betterAuthStorages());
  inFlight += 1;
  try {
    return await call();
  } finally {
    inFlight -= 1;
    if (inFlight === 0) for (const storage of known) storage.disable();
  }
}
