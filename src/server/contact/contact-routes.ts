/**
 * POST /api/contact: the contact form. Every field is checked (all required, a subject of the six,
 * a valid email, bounded lengths, no line breaks where a mail header is built), the message is
 * stored, then forwarded by mail to SUPPORT_EMAIL with the visitor as Reply-To. At most five
 * messages per hour per client address.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { CONTACT_SUBJECTS } from '../../shared/constants';
import { contactMessageSchema } from '../../shared/schemas';
import { loadSession, type SessionReader } from '../accounts/session';
import type { DB } from '../db/schema';
import { ApiError } from '../http/api-error';
import type { AppEnv } from '../http/app-env';
import { contactForwardMail } from '../mail/mail-templates';
import type { Mailer } from '../mail/mailer';
import { limitByClient, type RateLimiters } from '../rate-limit/rate-limits';

export function contactRoutes(deps: {
  db: Kysely<DB>;
  mailer: Mailer;
  limiters: RateLimiters;
  sessions: SessionReader;
  supportEmail: string;
}) {
  return new Hono<AppEnv>().post(
    '/contact',
    loadSession(deps.sessions),
    limitByClient(deps.limiters, 'contact'),
    async (c) => {
      const raw = await c.req.json().catch(() => {
        throw new ApiError(400, 'The message must be sent as a JSON object', 'INVALID_JSON');
      });
      const parsed = contactMessageSchema.safeParse(raw);
      if (!parsed.success)
        throw new ApiError(400, parsed.error.issues[0]?.message ?? 'Invalid message', 'VALIDATION_ERROR');
      const input = parsed.data;
      const stored = await deps.db
        .insertInto('contact_messages')
        .values({
          name: input.name,
          email: input.email,
          subject: input.subject,
          message: input.message,
          user_id: c.get('user')?.id ?? null,
          client_address: c.get('clientAddress'),
        })
        .returning(['id', 'created_at'])
        .executeTakeFirstOrThrow();
      const subjectLabel = CONTACT_SUBJECTS.find((s) => s.value === input.subject)?.label ?? input.subject;
      await deps.mailer.sendMail({
        to: deps.supportEmail,
        replyTo: { name: input.name, address: input.email },
        ...contactForwardMail({ ...input, subjectLabel, receivedAt: new Date(stored.created_at) }),
      });
      c.get('logger').info({ contactMessageId: stored.id }, 'contact message received');
      return c.json({ received: true, id: stored.id }, 201);
    },
  );
}
