/** What the classes feature offers the rest of the app (a tutor's page lists their classes). */
import { withTexts } from '../../lib/i18n';

export { type ClassList, listClasses } from './class-api';

/** A tutor's classes on their page, with its texts: fetched only for a tutor who has some. */
export const loadTutorClasses = () =>
  withTexts(import('./tutor-classes'), 'features/classes/tutor-classes.tsx');
