/**
 * The calendar invitation a confirmed lesson's mails carry, and what a lesson's mails need of it
 * and of its people. An invitation keeps one UID for the lesson's whole life and a SEQUENCE that
 * rises with each change, so a calendar app moves the event it already has when the lesson moves,
 * and drops it when a METHOD:CANCEL arrives; its times are in UTC.
 *
 * Families: a child's lesson names the child by first name. Its attendees are the tutor and the
 * student, but never an address nobody reads (a child without a login); a parent's copy adds the
 * parent, and only theirs: a tutor's invitation never holds a parent's address.
 */
import ical, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventStatus,
} from 'ical-generator';
import { PRODUCT_NAME } from '../../shared/constants';
import { type Language, SOURCE_LANGUAGE } from '../../shared/languages';
import { paths } from '../../shared/routes';
import { type DefaultLanguage, mailWords } from '../mail/mail-language';
import { isChildAddress } from '../platform/family-links';

/** A participant as the mails need them. */
export interface MailPerson {
  id: string;
  displayName: string;
  email: string;
  /** Their zone, for the times they read; UTC when they have not said. */
  timeZone: string | null;
  /** Their saved language (null: never chose): their mails are in it, else in the school's default. */
  language?: string | null;
}

/** A lesson as the mails need it. */
export interface MailLesson {
  id: string;
  subject: string;
  note: string;
  start: Date;
  end: Date;
  priceCents: number;
  currency: string;
  /**
   * What the tutor will be paid for it, after the school's commission, while its price is held;
   * null when nothing is held (booked while payments were off, or free). Left out by mails that
   * say nothing of money (reminders).
   */
  tutorEarnings?: { amountCents: number; commissionPercent: number } | null;
  sequence: number;
  tutor: MailPerson;
  student: MailPerson;
  /**
   * The student's paying parent, when one pays for them: they are mailed about the lesson too (in
   * the student's place when the student has no login of their own).
   */
  parent?: MailPerson | null;
  /** Whether the student has a login of their own (false: a child their parent acts for). */
  studentHasLogin?: boolean;
}

export interface MailSettings {
  appUrl: string;
  /** The From address, "Name <address>" or an address: the invitation's organizer. */
  mailFrom: string;
  /** The school's default language, for a reader who never chose one (English when not given). */
  defaultLanguage?: DefaultLanguage;
}

const organizerOf = (mailFrom: string) => {
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return { name: PRODUCT_NAME, email: address };
};

/** The UID a lesson keeps in every calendar, for its whole life. */
export const lessonUid = (lessonId: string, appUrl: string) =>
  `lesson-${lessonId}@${new URL(appUrl).hostname}`;

/** The lesson as an iCalendar invitation: REQUEST while it stands, CANCEL once it is off. */
export function lessonInvitation(
  lesson: MailLesson,
  method: 'REQUEST' | 'CANCEL',
  settings: MailSettings,
  language: Language = SOURCE_LANGUAGE,
  reader?: MailPerson,
): string {
  return invitationOf([lesson], method, settings, language, reader);
}

/**
 * Who an event lists: the lesson's tutor and student, leaving out an address nobody reads, and the
 * reader when they are neither (a parent's own copy); so nobody else's copy names the parent.
 */
const attendeesOf = (lesson: MailLesson, reader: MailPerson | undefined) => {
  const people = [lesson.tutor, lesson.student].filter((person) => !isChildAddress(person.email));
  if (reader && reader.id !== lesson.tutor.id && reader.id !== lesson.student.id) people.push(reader);
  return people;
};

/**
 * One calendar with an event per lesson: a weekly series is invited to in one file, and each week
 * keeps its own UID, so a later change to one week moves or drops only that event.
 */
export function invitationOf(
  lessons: MailLesson[],
  method: 'REQUEST' | 'CANCEL',
  settings: MailSettings,
  /** The language of the mail it rides with: its words are the reader's. */
  language: Language = SOURCE_LANGUAGE,
  /** Whose copy it is: a parent's adds them as an attendee. */
  reader?: MailPerson,
): string {
  const { t } = mailWords(language);
  const calendar = ical({
    prodId: { company: PRODUCT_NAME, product: PRODUCT_NAME, language: language.toUpperCase() },
    method: method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
  });
  for (const lesson of lessons)
    calendar.createEvent({
      id: lessonUid(lesson.id, settings.appUrl),
      sequence: lesson.sequence,
      start: lesson.start,
      end: lesson.end,
      stamp: new Date(),
      summary: t(/*i18n*/ '{subject} lesson: {tutor} and {student}', {
        subject: lesson.subject,
        tutor: lesson.tutor.displayName,
        student: lesson.student.displayName,
      }),
      description: t(/*i18n*/ '{product} lesson. Your schedule: {url}', {
        product: PRODUCT_NAME,
        url: `${settings.appUrl}${paths.schedule}`,
      }),
      url: `${settings.appUrl}${paths.schedule}`,
      status: method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
      organizer: organizerOf(settings.mailFrom),
      attendees: attendeesOf(lesson, reader).map((person) => ({
        name: person.displayName,
        email: person.email,
        role: ICalAttendeeRole.REQ,
        status: method === 'CANCEL' ? ICalAttendeeStatus.DECLINED : ICalAttendeeStatus.ACCEPTED,
      })),
    });
  return calendar.toString();
}
