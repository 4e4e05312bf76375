/**
 * The addresses of a group class's pages (docs: issue 53): its page, and a session's room. Kept
 * here, beside the class's schemas, for the pages and mails that link to them.
 */
import { paths } from '../routes';

/** A class's page. */
export const classPath = (classId: string) => `${paths.classes}/${encodeURIComponent(classId)}`;

/** A class session's room, where its tutor and enrolled students meet. */
export const classRoomPath = (classId: string, sessionId: string) =>
  `${classPath(classId)}/sessions/${encodeURIComponent(sessionId)}/room`;
