/**
 * A person's own data over HTTP: GET /api/account/export answers the ZIP of everything they have
 * here; GET /api/account/money-left what money they still have with the school, and POST
 * /api/account/refund-request asks Support, in their support conversation, to refund it all;
 * POST /api/account/delete { password } deletes their account and signs this browser out.
 */

import { Hono } from 'hono';
import { z } from 'zod';
import {
  accountDataMessages,
  exportFileName,
  hasMoneyLeft,
  refundRequestText,
} from '../../shared/account-data';
import { MAX_PASSWORD_LENGTH } from '../../shared/constants';
import type { Auth } from '../accounts/auth';
import { forwardCookies } from '../accounts/session';
import { ApiError } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { languageOf } from '../http/language';
import { validate } from '../http/validation';
import { translate } from '../i18n/translations';
import { messageMessages } from '../messages/conversations';
import type { LiveHub } from '../messages/live';
import { sendMessage } from '../messages/messages';
import { openSupportConversation, readerOf } from '../messages/support';
import { moneyLeftOf } from '../money/money-left';
import { type SessionReader, signedInOnly, verifiedOnly } from '../platform/session-guards';
import { limitByUser, type RateLimiters } from '../rate-limit/rate-limits';
import { type AccountDeletionDeps, deleteAccount } from './account-deletion';
import { exportArchive } from './account-export';

const deletionSchema = z.object(
  {
    password: z
      .string({ error: accountDataMessages.passwordRequired })
      .min(1, accountDataMessages.passwordRequired)
      .max(MAX_PASSWORD_LENGTH, accountDataMessages.wrongPassword),
  },
  { error: accountDataMessages.passwordRequired },
);

export function accountDataRoutes(
  deps: AccountDeletionDeps & {
    auth: Auth;
    sessions: SessionReader;
    limiters: RateLimiters;
    live: Pick<LiveHub, 'messageSent'>;
    /** ADMIN_TWO_FACTOR: who answers support, and so who hears of a refund request. */
    adminTwoFactor: 'required' | 'optional';
  },
) {
  const { sessions, limiters, db } = deps;
  const { currency } = deps.lessons.payments;
  const requireTwoFactor = deps.adminTwoFactor === 'required';
  return new Hono<AppEnv>()
    .get('/account/money-left', sessions.loadSession, signedInOnly, async (c) =>
      c.json(await moneyLeftOf(db, c.var.user.id, currency), 200),
    )
    .post(
      '/account/refund-request',
      sessions.loadSession,
      verifiedOnly,
      limitByUser(limiters, 'messages', messageMessages.tooFast),
      async (c) => {
        // The amounts are read here, not taken from the page: Support acts on what the ledger says.
        const money = await moneyLeftOf(db, c.var.user.id, currency);
        if (!hasMoneyLeft(money))
          throw new ApiError(409, accountDataMessages.nothingToRefund, 'NOTHING_TO_REFUND');
        const reader = readerOf(c.var.user, requireTwoFactor, c.var.secondFactorProved);
        const conversation = await openSupportConversation(db, reader);
        const sent = await sendMessage(
          db,
          reader,
          conversation.id,
          refundRequestText(money),
          requireTwoFactor,
        );
        await deps.live.messageSent(sent.message, sent.recipients, sent.requesterId);
        return c.json({ conversationId: conversation.id, message: sent.message }, 201);
      },
    )
    .get(
      '/account/export',
      sessions.loadSession,
      signedInOnly,
      limitByUser(limiters, 'accountExport', accountDataMessages.tooManyExports),
      async (c) => {
        const archive = await exportArchive(deps.db, c.var.user.id);
        const day = new Date().toISOString().slice(0, 10);
        c.header('Content-Type', 'application/zip');
        c.header('Content-Disposition', `attachment; filename="${exportFileName(day)}"`);
        c.header('Cache-Control', 'no-store');
        return c.body(archive as Uint8Array<ArrayBuffer>, 200);
      },
    )
    .post(
      '/account/delete',
      sessions.loadSession,
      signedInOnly,
      limitByUser(limiters, 'accountDeletion', accountDataMessages.tooManyAttempts),
      validate('json', deletionSchema),
      async (c) => {
        await deleteAccount(deps, c.var.user.id, c.req.valid('json').password);
        // The session is gone from the database already; this clears this browser's cookies. A
        // request that came without a signed cookie (a script with a bearer of it) has none to clear.
        try {
          const { headers } = await deps.auth.api.signOut({
            headers: c.req.raw.headers,
            returnHeaders: true,
          });
          forwardCookies(c, headers);
        } catch {
          // Nothing to clear.
        }
        return c.json({ deleted: true, message: translate(languageOf(c), accountDataMessages.deleted) }, 200);
      },
    );
}
