/**
 * A real SMTP server for tests (smtp-server + mailparser): the app delivers to it exactly as it
 * would to a production mail server, and tests read what arrived.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  /** The iCalendar invitation the mail carries, if any. */
  calendar?: string;
}

export interface MailCatcher {
  port: number;
  smtpUrl: string;
  mails: CaughtMail[];
  /** The most mails whose data had arrived and were not yet answered, at any one time. */
  readonly mostAtOnce: number;
  /** Resolves with the first mail (already arrived or arriving) that matches. */
  waitFor(match: (mail: CaughtMail) => boolean, timeoutMs?: number): Promise<CaughtMail>;
  mailsTo(address: string): CaughtMail[];
  close(): Promise<void>;
}

/**
 * `answerAfterMs`: how long each mail's data is held before the server answers it, as a slow mail
 * server would (a sender waits that long for each mail it sends).
 */
export async function startMailCatcher(
  port = 0,
  options: { answerAfterMs?: number } = {},
): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  const waiters = new Set<() => void>();
  let atOnce = 0;
  let mostAtOnce = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, answer) {
      atOnce++;
      mostAtOnce = Math.max(mostAtOnce, atOnce);
      const callback = (error?: Error) =>
        setTimeout(() => {
          atOnce--;
          answer(error);
        }, options.answerAfterMs ?? 0);
      simpleParser(stream)
        .then((parsed) => {
          const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
          const headers: Record<string, string> = {};
          for (const line of parsed.headerLines) headers[line.key] = line.line;
          mails.push({
            to: (to?.value[0]?.address ?? '').toLowerCase(),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers,
            calendar: parsed.attachments
              .find((part) => part.contentType.startsWith('text/calendar'))
              ?.content.toString('utf8'),
          });
          for (const wake of waiters) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  // A sender that dies mid-conversation (a server killed with -9 in the crash tests) resets its
  // connection; smtp-server reports that as an 'error' event, which would otherwise be thrown as
  // an unhandled error and fail whichever test is running. A real mail server shrugs it off too.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') console.error('mail catcher:', error);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const actualPort = (server.server.address() as AddressInfo).port;

  return {
    port: actualPort,
    smtpUrl: `smtp://127.0.0.1:${actualPort}`,
    mails,
    get mostAtOnce() {
      return mostAtOnce;
    },
    mailsTo: (address) => mails.filter((mail) => mail.to === address.toLowerCase()),
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = mails.find(match);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no matching mail within ${timeoutMs} ms; got: ${mails.map((m) => `${m.to} "${m.subject}"`).join(', ') || 'none'}`,
            ),
          );
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text body whose URL contains `fragment`. */
export function linkIn(mail: CaughtMail, fragment: string): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(fragment));
  if (!link) throw new Error(`no link with ${fragment} in mail "${mail.subject}"`);
  return link;
}
