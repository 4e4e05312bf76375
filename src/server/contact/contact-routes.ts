/**
 * POST /api/contact: the contact form. Every field is checked (all required, a subject of the six,
 * a valid email, bounded lengths, no line breaks where a mail header is built), the message is
 * stored and queued for the support address in effect (Site settings, else SUPPORT_EMAIL; the
 * visitor as Reply-To) in one transaction. At most five
 * messages per hour per client address; a message refused as invalid does not count.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { CONTACT_SUBJECTS } from '../../shared/constants';
import { contactMessageSchema } from '../../shared/schemas';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/app-env';
import { validate } from '../http/validation';
import { contactForwardMail } from '../mail/mail-templates';
import type { Mailer } from '../mail/mailer';
import type { SessionReader } from '../platform/session-guards';
import { type RateLimiters, refusedByLimit } from '../rate-limit/rate-limits';
import type { SettingsSnapshot } from '../settings/settings-snapshot';

export function contactRoutes(deps: {
  db: Kysely<DB>;
  mailer: Mailer;
  limiters: RateLimiters;
  sessions: SessionReader;
  settings: Pick<SettingsSnapshot, 'get'>;
}) {
  return new Hono<AppEnv>().post(
    '/contact',
    deps.sessions.loadSession,
    validate('json', contactMessageSchema),
    async (c) => {
      // Checked after validation: a typo costs nothing, every message that could be sent counts.
      const refused = await refusedByLimit(c, deps.limiters, 'contact', c.get('clientAddress'));
      if (refused) return refused;
      const input = c.req.valid('json');
      const subjectLabel = CONTACT_SUBJECTS.find((s) => s.value === input.subject)?.label ?? input.subject;
      // The address the contact page shows at this moment, and the reply time it promises.
      const settings = await deps.settings.get();
      const supportEmail = settings.support.email;
      // One transaction: a message is never stored without its mail to support, nor mailed unstored.
      const stored = await deps.db.transaction().execute(async (trx) => {
        const row = await trx
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
        await deps.mailer.sendMail(
          {
            to: supportEmail,
            replyTo: { name: input.name, address: input.email },
            ...contactForwardMail({
              ...input,
              subjectLabel,
              receivedAt: new Date(row.created_at),
              replyHours: settings.supportReplyHours,
              // The support address belongs to nobody who chose a language: the school's default.
              language: settings.defaultLanguage,
            }),
          },
          trx,
        );
        return row;
      });
      deps.mailer.deliverSoon();
      c.get('logger').info({ contactMessageId: stored.id }, 'contact message received');
      return c.json({ received: true, id: stored.id }, 201);
    },
  );
}
