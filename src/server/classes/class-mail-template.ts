/**
 * A group class's mail queued as its facts and written by the mail worker when it delivers it, as
 * a lesson's is (../lessons/lesson-mail-template.ts): enrolling, leaving or being promoted writes
 * one outbox row per reader and renders nothing while the class's row is locked.
 */
import type { MailPerson, MailSettings } from '../lessons/lesson-invitation';
import type { MailTemplate, TemplatedMail } from '../mail/mailer';
import { type ClassEvent, type ClassMailFacts, classMail, type MailClass } from './class-mail';

/** The template's name in the outbox. */
export const CLASS_MAIL_TEMPLATE = 'class';

interface ClassMailParams {
  event: ClassEvent;
  cls: MailClass;
  reader: MailPerson;
  facts: ClassMailFacts;
}

/**
 * The mail `classMail` would write, queued as its facts. The outbox keeps no more of anyone than
 * the mail says: the tutor's address only where the student's invitation names its organiser, and
 * never the other student's (a tutor's mail names them, not their address).
 */
export function classMailToQueue(
  event: ClassEvent,
  cls: MailClass,
  reader: MailPerson,
  facts: ClassMailFacts,
): TemplatedMail {
  const invited = reader.id !== cls.tutor.id && facts.seats.length > 0;
  const params: ClassMailParams = {
    event,
    cls: { ...cls, tutor: invited ? cls.tutor : { ...cls.tutor, email: '' } },
    reader,
    facts: { ...facts, ...(facts.student ? { student: { ...facts.student, email: '' } } : {}) },
  };
  return { to: reader.email, template: CLASS_MAIL_TEMPLATE, params };
}

/** The class mails' template, writing with this server's settings. */
export function classMailTemplate(settings: MailSettings): MailTemplate {
  return (queued) => {
    const { event, cls, reader, facts } = queued as ClassMailParams;
    // JSON keeps the seats' instants as text.
    const seats = facts.seats.map((seat) => ({
      ...seat,
      start: new Date(seat.start),
      end: new Date(seat.end),
    }));
    const { to: _to, ...mail } = classMail(event, cls, reader, { ...facts, seats }, settings);
    return mail;
  };
}
