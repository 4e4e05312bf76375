/**
 * What a school tells its visitors and an admin edits in the console's Site settings: the home
 * page's three figures (named in ../constants.ts, which the home page already loads) and how to
 * reach support, with the product's defaults. No zod here: the contact page reads this.
 */
import type { HomeFigures } from '../constants';

export { HOME_FIGURES, type HomeFigureKey, type HomeFigures } from '../constants';

/** The figures of the first description, until an admin saves others. */
export const DEFAULT_HOME_FIGURES: HomeFigures = {
  studentsHelped: '10,000+',
  expertTutors: '500+',
  lessonsCompleted: '50,000+',
};

/** How to reach support. The email and phone default to SUPPORT_EMAIL and SUPPORT_PHONE. */
export interface SupportDetails {
  email: string;
  phone: string;
  /** Days and times, separated by commas: "Mon-Fri 9-6, Sat 10-4, Sun closed". */
  hours: string;
}

export const DEFAULT_BUSINESS_HOURS = 'Mon-Fri 9-6, Sat 10-4, Sun closed';

export const MAX_FIGURE_LENGTH = 20;
export const MAX_SUPPORT_EMAIL_LENGTH = 254;
export const MAX_SUPPORT_PHONE_LENGTH = 40;
export const MAX_BUSINESS_HOURS_LENGTH = 120;
/** At most this many subjects added or retired in one change. */
export const MAX_SUBJECT_CHANGES = 50;

/** Business hours as the contact page lists them: one line per comma-separated part. */
export function businessHoursLines(hours: string): string[] {
  return hours
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The digits a phone link dials ("+1 (555) 010-0142" → "+15550100142"). */
export const phoneLink = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;
