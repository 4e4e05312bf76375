/**
 * The reminder mail one person of a lesson gets, worded in their own zone as the other lesson mails
 * are: when it starts, with whom, in what subject, and the link to its room. A seat in a group
 * class is reminded as the class (its title, its room); its tutor gets one per session, saying how
 * many students hold a seat. A child's parent is reminded of the child's lesson in words of their
 * own, with the room only when they join it for a child without a login.
 */

import type { Language } from '../../shared/languages';
import { addDays, localDate } from '../../shared/lessons/lesson-times';
import { classRoomPath, paths, roomPath } from '../../shared/routes';
import { escapeHtml } from '../mail/html';
import { mailWords } from '../mail/mail-language';
import { greetingOf, layout } from '../mail/mail-templates';
import type { OutgoingMail } from '../mail/mailer';
import {
  languageOf,
  lessonWhen,
  type MailLesson,
  type MailPerson,
  type MailSettings,
  subjectLine,
} from './lesson-mail';
import { forParent, isParentReader } from './parent-mail';
import type { ReminderKind } from './reminders-rules';

/**
 * "today at 10:00", "tomorrow at 10:00", "on Tue, Dec 1 at 10:00": the day said from where the
 * reader is when the mail is written, in their zone, so a reminder sent at 23:30 for a lesson at
 * 00:30 says "tomorrow".
 */
export function startsWhen(start: number, now: number, zone: string, language: Language = 'en'): string {
  const { t, times } = mailWords(language);
  const day = localDate(start, zone);
  const today = localDate(now, zone);
  const clock = times.clock(start, zone);
  if (day === today) return t(/*i18n*/ 'today at {clock}', { clock });
  if (day === addDays(today, 1)) return t(/*i18n*/ 'tomorrow at {clock}', { clock });
  return t(/*i18n*/ 'on {day} at {clock}', { day: times.shortDay(start, zone), clock });
}

/** The class a reminded seat is in: its session, and the seats held in it (for its tutor). */
export interface ReminderClass {
  classId: string;
  sessionId: string;
  title: string;
  students: number;
}

export function reminderMail(
  kind: ReminderKind,
  lesson: MailLesson,
  reader: MailPerson,
  settings: MailSettings,
  now: number,
  group: ReminderClass | null = null,
): OutgoingMail {
  if (group) return classReminderMail(kind, lesson, reader, settings, now, group);
  if (isParentReader(lesson, reader)) return parentReminderMail(kind, lesson, reader, settings, now);
  const language = languageOf(reader, settings);
  const words = mailWords(language);
  const { t } = words;
  // A reader who never saved a zone reads UTC, named as such, as in the other lesson mails.
  const zone = reader.timeZone ?? 'UTC';
  const other = reader.id === lesson.tutor.id ? lesson.student : lesson.tutor;
  const start = lesson.start.getTime();
  const when = startsWhen(start, now, zone, language);
  const values = { subject: lesson.subject, other: other.displayName, when };
  const subject = t(/*i18n*/ 'Reminder: {subject} with {other} {when}', values);
  const roomUrl = `${settings.appUrl}${roomPath(lesson.id)}`;
  const profileUrl = `${settings.appUrl}${paths.profile}`;
  const time = lessonWhen(words, lesson.start, lesson.end, zone);
  const lines = [
    kind === 'hour'
      ? t(/*i18n*/ 'Your {subject} lesson with {other} starts soon: {time}.', { ...values, time })
      : t(/*i18n*/ 'Your {subject} lesson with {other} starts {when}: {time}.', { ...values, time }),
    t(/*i18n*/ 'The lesson takes place in its room, open from 10 minutes before the start: {url}', {
      url: roomUrl,
    }),
    t(/*i18n*/ 'You can turn lesson reminders off on your profile: {url}', { url: profileUrl }),
  ];
  const greeting = greetingOf(language, reader.displayName);
  return {
    to: reader.email,
    subject: subjectLine(words, subject),
    text: `${greeting}\n\n${lines.join('\n\n')}\n`,
    html: layout(language, subject, [greeting, ...lines].map(escapeHtml), {
      label: t(/*i18n*/ 'Open the lesson room'),
      url: roomUrl,
    }),
  };
}

/**
 * A parent's reminder of their child's lesson. A parent joins the room for a child without a login;
 * a child with one joins it themselves, so their parent's mail leads to the schedule instead.
 */
function parentReminderMail(
  kind: ReminderKind,
  lesson: MailLesson,
  reader: MailPerson,
  settings: MailSettings,
  now: number,
): OutgoingMail {
  const language = languageOf(reader, settings);
  const words = mailWords(language);
  const { t } = words;
  const zone = reader.timeZone ?? 'UTC';
  const when = startsWhen(lesson.start.getTime(), now, zone, language);
  const time = lessonWhen(words, lesson.start, lesson.end, zone);
  const values = {
    child: lesson.student.displayName,
    subject: lesson.subject,
    other: lesson.tutor.displayName,
    when,
    time,
  };
  const subject = t(/*i18n*/ "Reminder: {child}'s {subject} lesson with {other} {when}", values);
  const joins = !lesson.studentHasLogin;
  const roomUrl = `${settings.appUrl}${roomPath(lesson.id)}`;
  const scheduleUrl = `${settings.appUrl}${paths.schedule}`;
  const profileUrl = `${settings.appUrl}${paths.profile}`;
  const lines = [
    kind === 'hour'
      ? t(/*i18n*/ "{child}'s {subject} lesson with {other} starts soon: {time}.", values)
      : t(/*i18n*/ "{child}'s {subject} lesson with {other} starts {when}: {time}.", values),
    joins
      ? t(/*i18n*/ 'You join the lesson room for {child}; it opens 10 minutes before the start: {url}', {
          ...values,
          url: roomUrl,
        })
      : t(/*i18n*/ 'Your schedule: {url}', { url: scheduleUrl }),
    t(/*i18n*/ 'You can turn lesson reminders off on your profile: {url}', { url: profileUrl }),
  ];
  const greeting = greetingOf(language, reader.displayName);
  return {
    to: reader.email,
    subject: subjectLine(words, subject),
    text: `${greeting}\n\n${lines.join('\n\n')}\n`,
    html: layout(
      language,
      subject,
      [greeting, ...lines].map(escapeHtml),
      joins
        ? { label: t(/*i18n*/ 'Open the lesson room'), url: roomUrl }
        : { label: t(/*i18n*/ 'Open my schedule'), url: scheduleUrl },
    ),
  };
}

function classReminderMail(
  kind: ReminderKind,
  lesson: MailLesson,
  reader: MailPerson,
  settings: MailSettings,
  now: number,
  group: ReminderClass,
): OutgoingMail {
  const language = languageOf(reader, settings);
  const words = mailWords(language);
  const { t } = words;
  const zone = reader.timeZone ?? 'UTC';
  const teaching = reader.id === lesson.tutor.id;
  const when = startsWhen(lesson.start.getTime(), now, zone, language);
  const time = lessonWhen(words, lesson.start, lesson.end, zone);
  const values = {
    title: group.title,
    other: lesson.tutor.displayName,
    when,
    time,
    students: group.students,
  };
  // The student's subject line is a lesson's, the class's title standing for the subject.
  const subject = teaching
    ? t(/*i18n*/ 'Reminder: your class {title} {when}', values)
    : t(/*i18n*/ 'Reminder: {subject} with {other} {when}', { ...values, subject: group.title });
  const roomUrl = `${settings.appUrl}${classRoomPath(group.classId, group.sessionId)}`;
  const profileUrl = `${settings.appUrl}${paths.profile}`;
  const lines = [
    teaching
      ? kind === 'hour'
        ? t(/*i18n*/ 'Your class {title} starts soon: {time}.', values)
        : t(/*i18n*/ 'Your class {title} starts {when}: {time}.', values)
      : kind === 'hour'
        ? t(/*i18n*/ 'Your class {title} with {other} starts soon: {time}.', values)
        : t(/*i18n*/ 'Your class {title} with {other} starts {when}: {time}.', values),
    ...(teaching
      ? [
          t(
            /*i18n*/ '{students, plural, one {# student holds a seat in it.} other {# students hold a seat in it.}}',
            values,
          ),
        ]
      : []),
    t(/*i18n*/ 'The class takes place in its room, open from 10 minutes before the start: {url}', {
      url: roomUrl,
    }),
    t(/*i18n*/ 'You can turn lesson reminders off on your profile: {url}', { url: profileUrl }),
  ];
  const greeting = greetingOf(language, reader.displayName);
  // A parent is reminded of their child's seat as the student is, said to be about the child.
  const told = isParentReader(lesson, reader)
    ? forParent(words, lesson, subject, lines, false)
    : { subject, lines };
  return {
    to: reader.email,
    subject: subjectLine(words, told.subject),
    text: `${greeting}\n\n${told.lines.join('\n\n')}\n`,
    html: layout(language, told.subject, [greeting, ...told.lines].map(escapeHtml), {
      label: t(/*i18n*/ 'Open the class room'),
      url: roomUrl,
    }),
  };
}
