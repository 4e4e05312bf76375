/**
 * The human check on sign-up, verified by the server (the browser's check is only for comfort).
 * By default ALTCHA: our server issues signed proof-of-work challenges and checks solutions, with
 * no third party and no tracking. A solution is accepted once: its id is kept in the database until
 * the challenge expires, so several servers share the record. With both reCAPTCHA keys configured,
 * Google reCAPTCHA v2 is used instead and checked with Google's siteverify API.
 */
import { hkdfSync } from 'node:crypto';
import { createChallenge, randomInt } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { verify as verifyAltchaPayload } from 'altcha-lib/frameworks/shared';
import type { Store } from 'altcha-lib/frameworks/types';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { Logger } from '../logging/logger';

export type CaptchaKind = 'altcha' | 'recaptcha';

export interface CaptchaVerifier {
  kind: CaptchaKind;
  /** reCAPTCHA's public site key; undefined for ALTCHA. */
  siteKey: string | undefined;
  /** A new ALTCHA challenge (ALTCHA only). */
  createChallenge(): Promise<unknown>;
  /** True when the browser's solution or token is valid, unexpired and not used before. */
  verify(solution: string | undefined, clientAddress: string): Promise<boolean>;
}

export interface AltchaTuning {
  /** PBKDF2 iterations per attempt. */
  cost: number;
  /** The secret counter is drawn from [minCounter, maxCounter]: the browser tries that many keys. */
  minCounter: number;
  maxCounter: number;
  /** How long a challenge may be solved and used, in seconds. */
  ttlSeconds: number;
}

/**
 * Tuned so a mid-range phone solves a challenge in about a second (a desktop in a fraction of
 * that); see docs/decisions/0004-captcha-and-verification-links.md for the measurement.
 */
export const defaultAltchaTuning: AltchaTuning = {
  cost: 1000,
  minCounter: 250,
  maxCounter: 750,
  ttlSeconds: 600,
};

export function createAltchaVerifier(options: {
  db: Kysely<DB>;
  secret: string;
  tuning?: AltchaTuning;
  now?: () => Date;
}): CaptchaVerifier {
  const tuning = options.tuning ?? defaultAltchaTuning;
  // Keys of their own for the captcha, derived from the session secret (HKDF): one secret to
  // configure, and no signature of one kind can pass for another.
  const derive = (purpose: string) =>
    Buffer.from(hkdfSync('sha256', options.secret, 'tutorlane', purpose, 32)).toString('hex');
  const hmacSignatureSecret = derive('altcha-challenge-signature');
  const hmacKeySignatureSecret = derive('altcha-key-signature');
  const now = options.now ?? (() => new Date());

  const usedSolutions: Store = {
    get: async () => undefined,
    set: async () => undefined,
    // One INSERT decides: the first use of a challenge wins, every replay loses.
    setIfAbsent: async (id: string) => {
      const inserted = await options.db
        .insertInto('captcha_solutions')
        .values({ id, expires_at: new Date(now().getTime() + tuning.ttlSeconds * 1000) })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      return inserted !== undefined;
    },
  };

  return {
    kind: 'altcha',
    siteKey: undefined,
    createChallenge: () =>
      createChallenge({
        algorithm: 'PBKDF2/SHA-256',
        cost: tuning.cost,
        counter: randomInt(tuning.maxCounter, tuning.minCounter),
        deriveKey,
        hmacSignatureSecret,
        hmacKeySignatureSecret,
        expiresAt: new Date(now().getTime() + tuning.ttlSeconds * 1000),
      }),
    async verify(solution) {
      if (!solution || solution.length > 4000) return false;
      const result = await verifyAltchaPayload(
        solution,
        deriveKey,
        hmacSignatureSecret,
        hmacKeySignatureSecret,
        usedSolutions,
      );
      return result.error === null;
    },
  };
}

export function createRecaptchaVerifier(options: {
  siteKey: string;
  secretKey: string;
  /** Our own host (APP_URL's): a token solved on another site that uses our key is refused. */
  hostname: string;
  logger: Logger;
  fetch?: typeof fetch;
}): CaptchaVerifier {
  const doFetch = options.fetch ?? fetch;
  return {
    kind: 'recaptcha',
    siteKey: options.siteKey,
    createChallenge: async () => {
      throw new Error('reCAPTCHA issues its own challenges');
    },
    async verify(token, clientAddress) {
      if (!token || token.length > 4000) return false;
      try {
        const res = await doFetch('https://www.google.com/recaptcha/api/siteverify', {
          method: 'POST',
          body: new URLSearchParams({ secret: options.secretKey, response: token, remoteip: clientAddress }),
          signal: AbortSignal.timeout(5000),
        });
        const body = (await res.json()) as { success?: boolean; hostname?: string; 'error-codes'?: string[] };
        if (body.success !== true) {
          options.logger.info({ errors: body['error-codes'] }, 'reCAPTCHA refused a token');
          return false;
        }
        if (body.hostname?.toLowerCase() !== options.hostname.toLowerCase()) {
          options.logger.warn({ hostname: body.hostname }, 'reCAPTCHA token was solved on another site');
          return false;
        }
        return true;
      } catch (error) {
        options.logger.error({ err: (error as Error).message }, 'reCAPTCHA could not be reached');
        return false;
      }
    },
  };
}
