/** What the tutors feature offers the rest of the app. Other folders import it from here, never the files behind. */
export { fetchTutor } from './tutor-api';
