/**
 * What tutors teach and speak: the subject catalogue a profile chooses from and a search filters
 * by, and the fixed list of languages. A subject belongs to exactly one of the four categories of
 * the home page. The catalogue in effect lives in the database, where an admin adds and retires
 * subjects (Site settings); the list below is only what a new installation starts with.
 */
import { formatUnits } from './amounts';
import { SUBJECT_CATEGORIES } from './constants';
import { english, type Say } from './say';

export type SubjectCategory = (typeof SUBJECT_CATEGORIES)[number];

/** The catalogue of a new installation, in its order (migration 0011 stored it). */
export const DEFAULT_SUBJECTS_BY_CATEGORY = {
  'Math & Science': [
    /*i18n*/ 'Algebra',
    /*i18n*/ 'Geometry',
    /*i18n*/ 'Calculus',
    /*i18n*/ 'Statistics',
    /*i18n*/ 'Physics',
    /*i18n*/ 'Chemistry',
    /*i18n*/ 'Biology',
  ],
  Languages: [
    /*i18n*/ 'English',
    /*i18n*/ 'Spanish',
    /*i18n*/ 'French',
    /*i18n*/ 'German',
    /*i18n*/ 'Mandarin',
    /*i18n*/ 'Japanese',
    /*i18n*/ 'Italian',
  ],
  Programming: [
    /*i18n*/ 'Python',
    /*i18n*/ 'JavaScript',
    /*i18n*/ 'Java',
    /*i18n*/ 'C++',
    /*i18n*/ 'Web Development',
    /*i18n*/ 'Data Science',
    /*i18n*/ 'SQL',
  ],
  'Arts & Design': [
    /*i18n*/ 'Drawing',
    /*i18n*/ 'Painting',
    /*i18n*/ 'Graphic Design',
    /*i18n*/ 'Photography',
    /*i18n*/ 'Music Theory',
    /*i18n*/ 'Piano',
    /*i18n*/ 'Guitar',
  ],
} as const satisfies Record<SubjectCategory, readonly string[]>;

/** A subject's name: trimmed, on one line, unique across the catalogue whatever its case. */
export const MAX_SUBJECT_NAME_LENGTH = 40;
/** How many subjects one tutor may list. */
export const MAX_PROFILE_SUBJECTS = 30;

/**
 * One category of the catalogue in effect: the subjects a tutor may choose (`offered`), and those
 * an admin retired, which stay on the profiles that list them (shown, searched and booked there)
 * but are no longer offered to anyone else.
 */
export interface CatalogCategory {
  category: SubjectCategory;
  offered: string[];
  retired: string[];
}
/** The four categories, in the home page's order. */
export type SubjectCatalog = CatalogCategory[];

/** The catalogue a new installation starts with, in the shape the server gives the one in effect. */
export const DEFAULT_CATALOG: SubjectCatalog = SUBJECT_CATEGORIES.map((category) => ({
  category,
  offered: [...DEFAULT_SUBJECTS_BY_CATEGORY[category]],
  retired: [],
}));

/** Every subject a tutor may list, in the catalogue's order. */
export const offeredSubjects = (catalog: SubjectCatalog) => catalog.flatMap((entry) => entry.offered);

/** Every subject of the catalogue, retired ones too (each category's offered ones first). */
export const catalogSubjects = (catalog: SubjectCatalog) =>
  catalog.flatMap((entry) => [...entry.offered, ...entry.retired]);

/** The category a subject of the catalogue belongs to. */
export function categoryOf(catalog: SubjectCatalog, subject: string): SubjectCategory | undefined {
  return catalog.find((entry) => entry.offered.includes(subject) || entry.retired.includes(subject))
    ?.category;
}

export const SPOKEN_LANGUAGES = [
  'Arabic',
  'Bengali',
  'Chinese',
  'Dutch',
  'English',
  'French',
  'German',
  'Greek',
  'Hindi',
  'Italian',
  'Japanese',
  'Korean',
  'Polish',
  'Portuguese',
  'Russian',
  'Spanish',
  'Swahili',
  'Swedish',
  'Turkish',
  'Ukrainian',
  'Vietnamese',
] as const;

/**
 * What most listed tutors charge an hour: the middle 80% of their rates (the cheapest and the
 * dearest tenth left out), in whole units of the school's currency like a tutor's hourly rate.
 * Only said once TYPICAL_RATE_MIN_TUTORS are listed: before, "most tutors" would be one or two.
 */
export interface TypicalHourlyRate {
  low: number;
  high: number;
}
export const TYPICAL_RATE_MIN_TUTORS = 5;

/** "$25-$75 per hour", or "$40 per hour" when most charge the same (`say`: ./say.ts). */
export function typicalRateLabel(
  rate: TypicalHourlyRate,
  currency: string,
  say: Say = english,
  locale?: string,
): string {
  const low = formatUnits(rate.low, currency, locale);
  return rate.low === rate.high
    ? say(/*i18n*/ '{low} per hour', { low })
    : say(/*i18n*/ '{low}-{high} per hour', { low, high: formatUnits(rate.high, currency, locale) });
}
export const MAX_HEADLINE_LENGTH = 80;
export const MAX_ABOUT_LENGTH = 2000;
export const MAX_LEARNING_GOALS_LENGTH = 1000;
export const MAX_YEARS_EXPERIENCE = 60;
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
export const PHOTO_SIZE_PIXELS = 256;

export const TUTOR_SORTS = ['relevance', 'rating', 'price_asc', 'price_desc', 'newest'] as const;
export type TutorSort = (typeof TUTOR_SORTS)[number];
/**
 * The sort a search really gets. None chosen: best match for a text search, else newest. Best
 * match needs text to rank by; without it the search sorts by newest. The server sorts this way
 * and the search page shows the same.
 */
export function effectiveSort(chosen: TutorSort | undefined, hasText: boolean): TutorSort {
  if (!hasText) return chosen && chosen !== 'relevance' ? chosen : 'newest';
  return chosen ?? 'relevance';
}

export const TUTOR_SORT_LABELS: Record<TutorSort, string> = {
  relevance: /*i18n*/ 'Best match',
  rating: /*i18n*/ 'Best rated',
  price_asc: /*i18n*/ 'Price: low to high',
  price_desc: /*i18n*/ 'Price: high to low',
  newest: /*i18n*/ 'Newest',
};
export const DEFAULT_PAGE_SIZE = 12;
export const MAX_PAGE_SIZE = 48;

/** What a tutor profile still needs before it appears in search, in the order the form shows it. */
export interface PublicationInput {
  emailVerified: boolean;
  hasPhoto: boolean;
  headline: string;
  subjects: readonly string[];
  hourlyRate: number | null;
  about: string;
}

export const PUBLICATION_REQUIREMENTS = {
  emailVerified: /*i18n*/ 'Verify your email address',
  photoOrHeadline: /*i18n*/ 'Add a photo or a headline',
  subjects: /*i18n*/ 'Choose at least one subject',
  hourlyRate: /*i18n*/ 'Set your hourly rate',
  about: /*i18n*/ 'Write a few words about yourself',
} as const;

export function missingForPublication(input: PublicationInput): string[] {
  const missing: string[] = [];
  if (!input.emailVerified) missing.push(PUBLICATION_REQUIREMENTS.emailVerified);
  if (!input.hasPhoto && input.headline.trim() === '') missing.push(PUBLICATION_REQUIREMENTS.photoOrHeadline);
  if (input.subjects.length === 0) missing.push(PUBLICATION_REQUIREMENTS.subjects);
  if (input.hourlyRate === null) missing.push(PUBLICATION_REQUIREMENTS.hourlyRate);
  if (input.about.trim() === '') missing.push(PUBLICATION_REQUIREMENTS.about);
  return missing;
}
