/**
 * A lesson's mail queued as its facts (the event, the lesson, its reader, what else it says) and
 * written by the mail worker when it delivers it, so the change that queues it writes one row and
 * renders nothing: the same words and invitation ./lesson-mail.ts writes, in the reader's language.
 */
import type { MailTemplate, TemplatedMail } from '../mail/mailer';
import type { MailLesson, MailPerson, MailSettings } from './lesson-invitation';
import { type LessonEvent, lessonMail, type MailExtra } from './lesson-mail';

/** The template's name in the outbox. */
export const LESSON_MAIL_TEMPLATE = 'lesson';

type Extra = MailExtra & { invitation?: 'REQUEST' | 'CANCEL' };

interface LessonMailParams {
  event: LessonEvent;
  lesson: MailLesson;
  reader: MailPerson;
  extra: Extra;
}

/**
 * The mail `lessonMail` would write, queued as its facts. The other people's addresses are left out
 * where the mail does not say them (without an invitation, which lists its attendees): the outbox
 * keeps no more of anyone than their mail says.
 */
export function lessonMailToQueue(
  event: LessonEvent,
  lesson: MailLesson,
  reader: MailPerson,
  extra: Extra = {},
): TemplatedMail {
  const unnamed = (person: MailPerson) =>
    person.id === reader.id || extra.invitation ? person : { ...person, email: '' };
  const params: LessonMailParams = {
    event,
    lesson: {
      ...lesson,
      tutor: unnamed(lesson.tutor),
      student: unnamed(lesson.student),
      parent: lesson.parent ? unnamed(lesson.parent) : lesson.parent,
    },
    reader,
    extra,
  };
  return { to: reader.email, template: LESSON_MAIL_TEMPLATE, params };
}

const dateOf = (value: unknown) => new Date(value as string);

/** The params as queued, their instants Dates again (JSON keeps them as text). */
function revived(params: LessonMailParams): LessonMailParams {
  const { lesson, extra } = params;
  return {
    ...params,
    lesson: { ...lesson, start: dateOf(lesson.start), end: dateOf(lesson.end) },
    extra: {
      ...extra,
      ...(extra.previousStart ? { previousStart: dateOf(extra.previousStart) } : {}),
      ...(extra.proposed
        ? {
            proposed: {
              ...extra.proposed,
              start: dateOf(extra.proposed.start),
              end: dateOf(extra.proposed.end),
            },
          }
        : {}),
    },
  };
}

/** The lesson mails' template, writing with this server's settings. */
export function lessonMailTemplate(settings: MailSettings): MailTemplate {
  return (queued) => {
    const { event, lesson, reader, extra } = revived(queued as LessonMailParams);
    const { to: _to, ...mail } = lessonMail(event, lesson, reader, settings, extra);
    return mail;
  };
}
