/**
 * The badge of a tutor an administrator checked, shown on a tutor's card and page: a module of its
 * own, so those public pages do not bring the console's rules (./admin/admin-rules.ts) and texts.
 * Its accessible name says what it means.
 */
export const VERIFIED_TUTOR_LABEL = /*i18n*/ 'Verified tutor';
export const VERIFIED_TUTOR_MEANING = /*i18n*/ 'Verified tutor: an administrator checked this profile';
