import { Hono } from 'hono';
import * as messages from '../../shared/messages';
import { errorResponse } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import type { CaptchaVerifier } from './captcha';

/** GET /api/captcha/challenge: a fresh signed ALTCHA challenge for the sign-up form. */
export function captchaRoutes(captcha: CaptchaVerifier) {
  return new Hono<AppEnv>().get('/captcha/challenge', async (c) => {
    if (captcha.kind !== 'altcha') return errorResponse(c, 404, messages.notFound, 'NOT_FOUND');
    return c.json(await captcha.createChallenge(), 200);
  });
}
