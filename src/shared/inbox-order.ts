/**
 * The inbox's order, as the server lists it and as the page keeps it while live messages move it:
 * unread first, then the latest activity first, then the latest message first. Message ids follow
 * the order messages were written, and settle ties of time: the lines one transaction writes into
 * several conversations (requests expiring together, a suspension) all carry its time.
 */
export interface InboxRow {
  unread: number;
  lastActivityAt: string;
  lastMessage: { id: number } | null;
}

export const inboxOrder = (a: InboxRow, b: InboxRow) =>
  Number(b.unread > 0) - Number(a.unread > 0) ||
  Date.parse(b.lastActivityAt) - Date.parse(a.lastActivityAt) ||
  (b.lastMessage?.id ?? 0) - (a.lastMessage?.id ?? 0);
