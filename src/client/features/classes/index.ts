/** What the classes feature offers the rest of the app (a tutor's page lists their classes). */
import { withTexts } from '../../lib/i18n';
import { preloadable } from '../../lib/preloadable';

export { type ClassList, listClasses } from './class-api';

/**
 * A tutor's classes on their page, with its texts: fetched only for a tutor who has some, by the
 * page's loader, so that they render with the page.
 */
export const tutorClasses = preloadable(() =>
  withTexts(import('./tutor-classes'), 'features/classes/tutor-classes.tsx'),
);
