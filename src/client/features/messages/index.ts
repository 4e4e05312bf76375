/** What the messages feature offers the rest of the app. Other folders import it from here, never the files behind. */
export { sentLabel } from './message-lines';
export { conversationPath } from './messages-data';
