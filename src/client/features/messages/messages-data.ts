/**
 * What /messages loads: the inbox (GET /api/conversations) and, on /messages/:id, the conversation
 * (who the other person is, the pair's next lesson, whether this user blocked them) with its latest
 * messages. `/messages?to=<userId>` opens the conversation with that person when there is one, and
 * otherwise a first message to them (a tutor's name and photo come from their public profile).
 * `/messages?support=1` opens the user's conversation with support (made on first use): where
 * "Start Live Chat" leads after signing in.
 */
import type { InferResponseType } from 'hono/client';
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { paths } from '../../../shared/routes';
import { ApiError, api, request } from '../../lib/api';
import { fetchTutor } from '../tutors';

export type Conversation = InferResponseType<typeof api.conversations.$get, 200>['conversations'][number];
export type ConversationDetail = InferResponseType<(typeof api.conversations)[':id']['$get'], 200>;
export type MessagePage = InferResponseType<(typeof api.conversations)[':id']['messages']['$get'], 200>;

/** Someone to write a first message to. */
export interface Recipient {
  id: string;
  displayName: string | null;
  photoVersion: string | null;
}

export const conversationPath = (id: string) => `${paths.messages}/${encodeURIComponent(id)}`;

async function loadRecipient(id: string, signal: AbortSignal): Promise<Recipient> {
  try {
    const tutor = await fetchTutor(id, signal);
    return { id, displayName: tutor.displayName, photoVersion: tutor.photoVersion };
  } catch (error) {
    // Not a public tutor: a student, whose name the link that led here may carry.
    if (error instanceof ApiError && error.status === 404)
      return { id, displayName: null, photoVersion: null };
    throw error;
  }
}

/** The user's support conversation, or null for an admin, who answers support rather than asks it. */
async function openSupport(signal: AbortSignal): Promise<string | null> {
  try {
    return (await request(api.support.conversation.$post(undefined, { init: { signal } }))).conversationId;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'IS_ADMIN') return null;
    throw error;
  }
}

export async function loadMessages({ params, request: page }: LoaderFunctionArgs) {
  const signal = page.signal;
  const id = params.id;
  if (!id && new URL(page.url).searchParams.has('support')) {
    const support = await openSupport(signal);
    // A redirect: the address that opens it never stays in the history for Back to repeat.
    throw redirect(support ? conversationPath(support) : paths.messages);
  }
  const inbox = request(api.conversations.$get(undefined, { init: { signal } }));
  if (!id) {
    const to = new URL(page.url).searchParams.get('to');
    const { conversations } = await inbox;
    if (!to) return { conversations, open: null, recipient: null };
    const existing = conversations.find((conversation) => conversation.other?.id === to);
    if (existing) throw redirect(conversationPath(existing.id));
    return { conversations, open: null, recipient: await loadRecipient(to, signal) };
  }
  try {
    const [{ conversations }, detail, page] = await Promise.all([
      inbox,
      request(api.conversations[':id'].$get({ param: { id } }, { init: { signal } })),
      request(api.conversations[':id'].messages.$get({ param: { id }, query: {} }, { init: { signal } })),
    ]);
    return { conversations, open: { detail, page }, recipient: null };
  } catch (error) {
    // Not one of this user's conversations: the page says so beside the inbox.
    if (error instanceof ApiError && error.status === 404) {
      const { conversations } = await inbox;
      return { conversations, open: 'missing' as const, recipient: null };
    }
    throw error;
  }
}
