/**
 * One sendMail() for the whole server. It only writes the mail to the outbox table and returns, so
 * a request never waits for, or fails because of, a mail server. A worker delivers the outbox:
 * through SMTP when SMTP_URL is set, otherwise by printing the mail to the console and saving it
 * under DATA_DIR/mail. A failed delivery is logged and retried with backoff; a mail claimed by a
 * server that died is picked up again once its claim expires.
 *
 * A mail may be queued as a template's name and the facts it is written from (TemplatedMail):
 * the worker writes its text when it delivers it, so the transaction that queues it only writes a
 * row. Once delivered, the row keeps the text as a mail queued whole does.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Selectable, Transaction } from 'kysely';
import type { SendMailOptions, Transporter } from 'nodemailer';
import type { Database } from '../db/database';
import type { DB } from '../db/schema';
import type { Logger } from '../logging/logger';
import type { MailContent } from './mail-templates';

export interface OutgoingMail extends MailContent {
  to: string;
  /** Where replies go: an address, never a raw header line. */
  replyTo?: { name: string; address: string };
  /** An iCalendar invitation (a lesson's), sent as the mail's text/calendar part. */
  calendar?: { method: 'REQUEST' | 'CANCEL'; content: string };
}

/**
 * A mail queued as what it says rather than as its text: `template` names the function that
 * writes it (MailerOptions.templates) and `params` are the facts it writes it from, kept as JSON.
 */
export interface TemplatedMail {
  to: string;
  template: string;
  params: unknown;
}

/** What a template writes: a mail but for its recipient, whom the queued row names. */
export type MailTemplate = (params: unknown) => Omit<OutgoingMail, 'to'>;

export interface Mailer {
  /**
   * Queues the mail durably and returns; delivery happens in the background. Given a transaction,
   * the mail is queued in it, so it exists exactly when the rows it belongs to do; call
   * deliverSoon() once that transaction has committed (the worker cannot see the mail before).
   */
  sendMail(mail: OutgoingMail, within?: Transaction<DB>): Promise<void>;
  /**
   * Queues several mails as sendMail does one, with one statement for hundreds of them; a
   * TemplatedMail among them is written by its template when it is delivered.
   */
  sendMails(mails: (OutgoingMail | TemplatedMail)[], within?: Transaction<DB>): Promise<void>;
  /** Starts a delivery pass shortly, unless the mailer is stopping. */
  deliverSoon(): void;
  /** Delivers what is due now; resolves when this pass is over. */
  deliverDue(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

export interface MailerOptions {
  database: Pick<Database, 'db' | 'kind'>;
  logger: Logger;
  from: string;
  smtpUrl?: string | undefined;
  /** Where mail goes without SMTP_URL. */
  mailDir: string;
  /** How often the worker looks for retries, in ms. */
  pollIntervalMs?: number;
  /** The templates a TemplatedMail may name, by name. */
  templates?: Record<string, MailTemplate>;
}

export const MAX_ATTEMPTS = 25;
const CLAIM_MS = 60_000;
/** Mails queued per statement: ten parameters each, far under a statement's 65,535. */
const QUEUED_PER_STATEMENT = 500;
const BATCH = 10;

/** 2 s, 4 s, 8 s … capped at one minute, so a mail server that comes back gets its mail soon. */
export function retryDelayMs(attempts: number): number {
  return Math.min(2000 * 2 ** Math.max(0, attempts - 1), 60_000);
}

/** A file name's worth of `text`: letters, digits and a few safe marks, at most `max` characters. */
const fileNamePart = (text: string, max: number) =>
  text
    .replace(/[^\w@.+-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max);

function consoleTransport(nodemailer: typeof import('nodemailer')['default'], mailDir: string): Transporter {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const send = transport.sendMail.bind(transport);
  // Print the text body (with its link) for a newcomer, and keep the message twice: whole, as a
  // mail program reads it (.eml, whose body is quoted-printable, so links there are wrapped and
  // escaped), and as plain text a person can read and copy a link from (.txt).
  transport.sendMail = (async (message: SendMailOptions) => {
    const info = await send(message);
    mkdirSync(mailDir, { recursive: true });
    const name = [
      new Date().toISOString().replaceAll(':', '-'),
      fileNamePart(String(message.to), 80),
      fileNamePart(String(message.subject), 60),
      info.messageId.replace(/[^\w]/g, '').slice(0, 12),
    ].join('-');
    const file = join(mailDir, `${name}.eml`);
    writeFileSync(file, info.message as Buffer);
    // The invitation too, as the file a calendar app imports.
    const calendar = message.icalEvent as { content?: string } | undefined;
    if (calendar?.content) writeFileSync(join(mailDir, `${name}.ics`), calendar.content);
    const readable = `From: ${String(message.from)}\nTo: ${String(message.to)}\nSubject: ${message.subject}\n\n${String(message.text)}`;
    writeFileSync(join(mailDir, `${name}.txt`), readable);
    process.stdout.write(
      `\n──── Mail to ${String(message.to)}: ${message.subject}\n${String(message.text)}──── saved as ${file} (and .txt${calendar?.content ? ', .ics' : ''})\n\n`,
    );
    return info;
  }) as typeof transport.sendMail;
  return transport;
}

export function createMailer(options: MailerOptions): Mailer {
  const { logger } = options;
  const { db } = options.database;
  // How many of a batch's mails (to different people) are sent at once: four where the database
  // has a pool of connections; one on the embedded store, whose one connection every request and
  // job waits on, and where more mails in flight would take their turns (the minute jobs' passes
  // took a fifth longer with four).
  const inFlight = options.database.kind === 'postgres' ? 4 : 1;
  // Loaded with the first mail to deliver, not at start-up: a server starts to answer pages sooner
  // without it, and most passes of the worker find nothing to send.
  let transport: Promise<Transporter> | undefined;
  const transportOf = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      options.smtpUrl
        ? nodemailer.createTransport(options.smtpUrl)
        : consoleTransport(nodemailer, options.mailDir),
    ));
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  /** A claimed row's mail: as it was queued, or written now by its template. */
  function writtenMail(row: Selectable<DB['mail_outbox']>): Omit<OutgoingMail, 'to'> {
    if (row.template === null)
      return {
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        ...(row.reply_to ? { replyTo: JSON.parse(row.reply_to) as { name: string; address: string } } : {}),
        ...(row.calendar
          ? {
              calendar: {
                method: row.calendar_method === 'CANCEL' ? ('CANCEL' as const) : ('REQUEST' as const),
                content: row.calendar,
              },
            }
          : {}),
      };
    const template = options.templates?.[row.template];
    if (!template) throw new Error(`no mail template named ${row.template}`);
    return template(JSON.parse(row.params ?? 'null'));
  }

  async function deliverOnce(): Promise<number> {
    const now = new Date();
    const claimed = await db
      .updateTable('mail_outbox')
      .set({ claimed_until: new Date(now.getTime() + CLAIM_MS) })
      .where(
        'id',
        'in',
        db
          .selectFrom('mail_outbox')
          .select('id')
          .where('sent_at', 'is', null)
          .where('attempts', '<', MAX_ATTEMPTS)
          .where('next_attempt_at', '<=', now)
          .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
          .orderBy('id')
          .limit(BATCH)
          .forUpdate()
          .skipLocked(),
      )
      .returningAll()
      .execute();

    // Mails to different people may go out side by side (inFlight): one mail's round trip to the
    // mail server, or to the database for its row, then need not wait for the one before.
    // One person's mails keep the order they were queued in ("booked" before "cancelled"), which
    // RETURNING does not promise: hence the sort.
    const byRecipient = new Map<string, typeof claimed>();
    for (const mail of claimed.sort((a, b) => a.id - b.id)) {
      const queue = byRecipient.get(mail.recipient);
      if (queue) queue.push(mail);
      else byRecipient.set(mail.recipient, [mail]);
    }
    const queues = [...byRecipient.values()];
    const lane = async () => {
      for (let queue = queues.shift(); queue; queue = queues.shift())
        for (const mail of queue) await deliver(mail);
    };
    await Promise.all(Array.from({ length: Math.min(inFlight, queues.length) }, lane));
    return claimed.length;
  }

  /** Sends one claimed mail and records the outcome on its row: sent, or failed and when to retry. */
  async function deliver(mail: Selectable<DB['mail_outbox']>) {
    try {
      const written = writtenMail(mail);
      await (await transportOf()).sendMail({
        from: options.from,
        to: mail.recipient,
        subject: written.subject,
        text: written.text,
        html: written.html,
        ...(written.replyTo ? { replyTo: written.replyTo } : {}),
        ...(written.calendar
          ? {
              icalEvent: {
                method: written.calendar.method,
                filename: 'lesson.ics',
                content: written.calendar.content,
              },
            }
          : {}),
      });
      await db
        .updateTable('mail_outbox')
        .set({
          sent_at: new Date(),
          claimed_until: null,
          attempts: mail.attempts + 1,
          last_error: null,
          // A templated mail keeps the text it was sent with, as a mail queued whole does.
          ...(mail.template === null
            ? {}
            : {
                subject: written.subject,
                text_body: written.text,
                html_body: written.html,
                calendar: written.calendar?.content ?? null,
                calendar_method: written.calendar?.method ?? null,
                template: null,
                params: null,
              }),
        })
        .where('id', '=', mail.id)
        .execute();
      logger.info({ mailId: mail.id, subject: written.subject }, 'mail delivered');
    } catch (error) {
      const attempts = mail.attempts + 1;
      const message = (error as Error).message;
      await db
        .updateTable('mail_outbox')
        .set({
          attempts,
          claimed_until: null,
          last_error: message.slice(0, 500),
          next_attempt_at: new Date(Date.now() + retryDelayMs(attempts)),
        })
        .where('id', '=', mail.id)
        .execute();
      const log = attempts >= MAX_ATTEMPTS ? logger.error.bind(logger) : logger.warn.bind(logger);
      log(
        { mailId: mail.id, attempts, err: message },
        attempts >= MAX_ATTEMPTS ? 'mail given up' : 'mail delivery failed; will retry',
      );
    }
  }

  function deliverDue(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          while (!stopped && (await deliverOnce()) === BATCH) {
            // A full batch: there may be more.
          }
        } while (again && !stopped);
      } catch (error) {
        logger.error({ err: (error as Error).message }, 'mail outbox unavailable');
      } finally {
        running = undefined;
      }
    })();
    return running;
  }

  function deliverSoon() {
    if (!stopped) setImmediate(() => void deliverDue());
  }

  async function sendMails(mails: (OutgoingMail | TemplatedMail)[], within?: Transaction<DB>) {
    // The worker compares with this process's clock (millisecond precision); the database's now()
    // has microseconds, and a mail stamped 0.4 ms "later" would wait for the next poll.
    const next = new Date();
    for (let start = 0; start < mails.length; start += QUEUED_PER_STATEMENT)
      await (within ?? db)
        .insertInto('mail_outbox')
        .values(
          mails.slice(start, start + QUEUED_PER_STATEMENT).map((mail) =>
            'template' in mail
              ? {
                  recipient: mail.to,
                  // Written at delivery: empty until then.
                  subject: '',
                  text_body: '',
                  html_body: '',
                  template: mail.template,
                  params: JSON.stringify(mail.params),
                  next_attempt_at: next,
                }
              : {
                  recipient: mail.to,
                  subject: mail.subject,
                  text_body: mail.text,
                  html_body: mail.html,
                  reply_to: mail.replyTo ? JSON.stringify(mail.replyTo) : null,
                  calendar: mail.calendar?.content ?? null,
                  calendar_method: mail.calendar?.method ?? null,
                  next_attempt_at: next,
                },
          ),
        )
        .execute();
    if (!within && mails.length > 0) deliverSoon();
  }

  return {
    sendMail: (mail, within) => sendMails([mail], within),
    sendMails,
    deliverSoon,
    deliverDue,
    start() {
      stopped = false;
      timer = setInterval(() => void deliverDue(), options.pollIntervalMs ?? 2000);
      timer.unref();
      void deliverDue();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
      (await transport)?.close();
    },
  };
}
