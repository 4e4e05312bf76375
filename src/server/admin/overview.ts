/**
 * The console's front page: how many people of each kind, tutors by verification status, lessons
 * this week, open reports, the mail outbox's backlog, and the contact form's messages with the
 * state of their forward to the support address.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema';
import { MAX_ATTEMPTS } from '../mail/mailer';
import { outboxBacklog } from '../mail/outbox-backlog';

const CONTACT_LIMIT = 50;
/** The mailer gives up after this many attempts. */
const MAIL_ATTEMPTS = MAX_ATTEMPTS;

export type ContactState = 'forwarded' | 'waiting' | 'failed' | 'unknown';

/** Monday 00:00 UTC of the week holding `now`, and the Monday after. */
export function weekOf(now: number): { from: Date; to: Date } {
  const day = new Date(now);
  const start = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  const from = start - sinceMonday * 86_400_000;
  return { from: new Date(from), to: new Date(from + 7 * 86_400_000) };
}

export async function adminOverview(db: Kysely<DB>, now: number) {
  const week = weekOf(now);
  const [users, tutors, lessons, reports, outbox, contact] = await Promise.all([
    db
      .selectFrom('users')
      .select([
        sql<number>`count(*) filter (where role = 'student')::int`.as('students'),
        sql<number>`count(*) filter (where role = 'tutor')::int`.as('tutors'),
        sql<number>`count(*) filter (where is_admin)::int`.as('admins'),
        sql<number>`count(*) filter (where suspended_at is not null)::int`.as('suspended'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('users as u')
      .leftJoin('tutor_profiles as tp', 'tp.user_id', 'u.id')
      .where('u.role', '=', 'tutor')
      .select([
        sql<number>`count(*) filter (where coalesce(tp.published, false))::int`.as('listed'),
        sql<number>`count(*) filter (where not coalesce(tp.published, false))::int`.as('incomplete'),
        sql<number>`count(*) filter (where tp.verification_status = 'requested')::int`.as('waiting'),
        sql<number>`count(*) filter (where tp.verification_status = 'approved')::int`.as('approved'),
        sql<number>`count(*) filter (where tp.verification_status = 'declined')::int`.as('declined'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('lessons')
      .where('starts_at', '>=', week.from)
      .where('starts_at', '<', week.to)
      .select([
        sql<number>`count(*) filter (where status in ('confirmed', 'completed', 'no_show'))::int`.as(
          'booked',
        ),
        sql<number>`count(*) filter (where status = 'pending')::int`.as('requested'),
        sql<number>`count(*) filter (where status = 'cancelled')::int`.as('cancelled'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectNoFrom([
        sql<number>`(select count(*)::int from message_reports where resolved_at is null)`.as('messages'),
        sql<number>`(select count(*)::int from review_reports where resolved_at is null)`.as('reviews'),
      ])
      .executeTakeFirstOrThrow(),
    outboxBacklog(db),
    // A message and its forward are written in one transaction, so both carry that transaction's
    // now(): the forward is the outbox row with the same time and the sender as Reply-To (only
    // forwards have one). Not matched by recipient: the support address may have changed since.
    db
      .selectFrom('contact_messages as cm')
      .leftJoin('mail_outbox as mo', (join) =>
        join
          .onRef('mo.created_at', '=', 'cm.created_at')
          .on(sql<boolean>`mo.reply_to::jsonb ->> 'address' = cm.email`),
      )
      .select([
        'cm.id',
        'cm.name',
        'cm.email',
        'cm.subject',
        'cm.message',
        'cm.created_at',
        'mo.sent_at',
        'mo.attempts',
        'mo.id as mail_id',
      ])
      .orderBy('cm.created_at', 'desc')
      .orderBy('cm.id', 'desc')
      .limit(CONTACT_LIMIT)
      .execute(),
  ]);
  const contactState = (row: (typeof contact)[number]): ContactState => {
    if (row.mail_id === null) return 'unknown';
    if (row.sent_at) return 'forwarded';
    return (row.attempts ?? 0) >= MAIL_ATTEMPTS ? 'failed' : 'waiting';
  };
  return {
    users,
    tutors,
    lessonsThisWeek: { from: week.from.toISOString(), to: week.to.toISOString(), ...lessons },
    openReports: {
      messages: reports.messages,
      reviews: reports.reviews,
      total: reports.messages + reports.reviews,
    },
    mailOutbox: {
      waiting: outbox.waiting,
      failed: outbox.failed,
      oldestWaitingSince: outbox.oldest ? outbox.oldest.toISOString() : null,
    },
    contactMessages: contact.map((row) => ({
      id: Number(row.id),
      name: row.name,
      email: row.email,
      subject: row.subject,
      message: row.message,
      receivedAt: row.created_at.toISOString(),
      state: contactState(row),
    })),
  };
}
