/** What the classes feature offers the rest of the app (a tutor's page lists their classes). */
export { type ClassList, listClasses } from './class-api';
export { TutorClasses } from './tutor-classes';
