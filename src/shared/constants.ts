/** Business constants shared by the browser and the server. */

export const PRODUCT_NAME = 'Tutorlane';

export const MIN_PASSWORD_LENGTH = 6;
export const MAX_PASSWORD_LENGTH = 128;
export const MAX_NAME_LENGTH = 80;
export const MAX_EMAIL_LENGTH = 254;

/**
 * The years every date and instant the API takes must fall in (lessons, slots, availability,
 * goals). Wide enough for anything real; a mistyped year such as 0001 or 9999 is refused with a
 * message instead of overflowing the database's dates.
 */
export const EARLIEST_YEAR = 2000;
export const LATEST_YEAR = 2100;

export const ROLES = ['student', 'tutor', 'parent'] as const;
export type Role = (typeof ROLES)[number];
export const DEFAULT_ROLE: Role = 'student';
export const ROLE_LABELS: Record<Role, string> = { student: 'Student', tutor: 'Tutor', parent: 'Parent' };

/** Contact form subjects: the product's values and labels, in its order. */
export const CONTACT_SUBJECTS = [
  { value: 'general', label: 'General Inquiry' },
  { value: 'technical', label: 'Technical Support' },
  { value: 'billing', label: 'Billing Question' },
  { value: 'tutoring', label: 'Tutoring Services' },
  { value: 'partnership', label: 'Partnership' },
  { value: 'other', label: 'Other' },
] as const;
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number]['value'];
export const CONTACT_SUBJECT_VALUES = CONTACT_SUBJECTS.map((s) => s.value) as [
  ContactSubject,
  ...ContactSubject[],
];
export const MAX_CONTACT_MESSAGE_LENGTH = 5000;
export const MAX_CONTACT_NAME_LENGTH = MAX_NAME_LENGTH;

export const SUBJECT_CATEGORIES = [
  /*i18n*/ 'Math & Science',
  /*i18n*/ 'Languages',
  /*i18n*/ 'Programming',
  /*i18n*/ 'Arts & Design',
] as const;

/**
 * The home page's figures, in the order it shows them: each school's own (Site settings), else its
 * real counts (students who took a lesson, verified tutors, lessons that took place).
 */
export const HOME_FIGURES = [
  { key: 'studentsHelped', label: /*i18n*/ 'Students helped' },
  { key: 'expertTutors', label: /*i18n*/ 'Expert tutors' },
  { key: 'lessonsCompleted', label: /*i18n*/ 'Lessons completed' },
] as const;
export type HomeFigureKey = (typeof HOME_FIGURES)[number]['key'];
/** Display strings, as written ("10,000+"): a school may count in its own way. */
export type HomeFigures = Record<HomeFigureKey, string>;

/** Verification links live one day, reset links one hour. */
export const EMAIL_VERIFICATION_TTL_SECONDS = 24 * 60 * 60;
export const PASSWORD_RESET_TTL_SECONDS = 60 * 60;

/**
 * Who a person talks to in their support conversation: the school's team, as one party. Every
 * answer shows as from Support, whichever admin wrote it, and `SUPPORT_ID` stands where a sender's
 * id would be (it is no user's id).
 */
export const SUPPORT_ID = 'support';
export const SUPPORT_NAME = 'Support';
