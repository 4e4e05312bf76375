/**
 * /messages and /messages/:id: the inbox beside the open conversation. From the md breakpoint
 * (768 px) both show side by side; on a phone they are two screens, the inbox at /messages and the
 * conversation at /messages/:id with a way back. The inbox follows the live channel: a new
 * message moves its conversation up and counts as unread unless it is the one on screen.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLoaderData, useLocation, useNavigate } from 'react-router';
import { inboxOrder } from '../../../shared/inbox-order';
import { paths } from '../../../shared/routes';
import { Button } from '../../components/button';
import { Composer } from '../../components/composer';
import { TutorAvatar } from '../../components/tutor-avatar';
import { ApiError, api, request } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { live, type MessageView } from '../../lib/live';
import { usePublicConfig } from '../../lib/public-config';
import { sideOf } from '../../lib/roles';
import { useAuth } from '../auth';
import { BackToInbox } from './back-to-inbox';
import { Inbox } from './inbox';
import { type Conversation, conversationPath, loadMessages, type Recipient } from './messages-data';
import { Thread } from './thread';

export const loader = loadMessages;

/** The inbox, as loaded and then as the live channel moves it. */
function useInbox(loaded: Conversation[], openId: string | null, userId: string | undefined) {
  const [conversations, setConversations] = useState(loaded);
  useEffect(() => setConversations(loaded), [loaded]);
  const shown = useRef(conversations);
  shown.current = conversations;

  const touch = useCallback(
    (message: MessageView) => {
      setConversations((current) => {
        const row = current.find((conversation) => conversation.id === message.conversationId);
        if (!row || (row.lastMessage && row.lastMessage.id >= message.id)) return current;
        // Only the other side's lines wait unread. A line from this side (this user's, or for an
        // admin a colleague's answer as support) means the conversation was read up to it. In a
        // class's group, everyone else is the other side.
        const theirs =
          row.other === null
            ? message.senderId !== null && message.senderId !== userId
            : message.senderId === row.other.id;
        const ours = message.senderId !== null && !theirs;
        const counts =
          theirs && (message.conversationId !== openId || document.visibilityState !== 'visible');
        const moved = {
          ...row,
          lastMessage: message,
          lastActivityAt: message.createdAt,
          unread: ours ? 0 : row.unread + (counts ? 1 : 0),
        };
        return current.map((conversation) => (conversation === row ? moved : conversation)).sort(inboxOrder);
      });
    },
    [openId, userId],
  );

  const markRead = useCallback((id: string) => {
    setConversations((current) =>
      current.map((conversation) => (conversation.id === id ? { ...conversation, unread: 0 } : conversation)),
    );
  }, []);

  const refresh = useCallback(async () => {
    try {
      setConversations((await request(api.conversations.$get())).conversations);
    } catch {
      // The inbox stays as it was; the next visit loads it again.
    }
  }, []);

  useEffect(() => {
    return live.subscribe((frame) => {
      // After a (re)connection, or for a conversation this screen has not seen, ask for the whole list.
      if (frame.type === 'ready') void refresh();
      // Read in another tab: nothing waits there any more.
      if (frame.type === 'read') markRead(frame.conversationId);
      if (frame.type !== 'message') return;
      if (!shown.current.some((conversation) => conversation.id === frame.message.conversationId))
        void refresh();
      else touch(frame.message);
    });
  }, [touch, refresh, markRead]);

  return { conversations, touch, markRead, refresh };
}

export function Component() {
  const { t } = useLingui();
  const data = useLoaderData<typeof loader>();
  const auth = useAuth();
  const user = auth.status === 'signed-in' ? auth.user : null;
  const open = data.open && data.open !== 'missing' ? data.open : null;
  const openId = open?.detail.id ?? null;
  const { conversations, touch, markRead, refresh } = useInbox(data.conversations, openId, user?.id);
  const showsThread = data.open !== null || data.recipient !== null;
  // Arrived here by sending a first message: the writing goes on in this conversation's box.
  const composing = Boolean((useLocation().state as { composing?: boolean } | null)?.composing);
  // Where the school asks admins for two-factor sign-in, support's conversations wait for it too.
  const supportWaits =
    usePublicConfig()?.adminTwoFactor === 'required' && user?.isAdmin === true && !user.twoFactorEnabled;
  if (!user) return null;
  const group = open?.detail.class ?? null;
  const name = open?.detail.other?.displayName ?? group?.title ?? '';

  return (
    <div className="mx-auto max-w-6xl px-0 py-0 sm:px-4 sm:py-8">
      <title>{open ? t`${name} · Messages · Tutorlane` : t`Messages · Tutorlane`}</title>
      <h1
        className={`px-4 pt-6 text-3xl font-bold tracking-tight text-slate-900 sm:px-0 sm:pt-0 ${showsThread ? 'sr-only md:not-sr-only' : ''}`}
      >
        <Trans>Messages</Trans>
      </h1>
      {supportWaits ? (
        <p className="mx-4 mt-4 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900 sm:mx-0">
          <Trans>
            Conversations with Support show here once you{' '}
            <Link to={paths.adminTwoFactor} className="font-semibold underline">
              set up two-factor authentication
            </Link>
            : an admin answers Support with a code from an authenticator app as well as the password.
          </Trans>
        </p>
      ) : null}
      <div
        // On a phone a conversation fills the screen below the navigation (4 rem and its border);
        // from md the inbox and the conversation share a panel that fits the window.
        className={`grid overflow-hidden border-slate-200 bg-white sm:rounded-2xl sm:border sm:shadow-sm md:mt-4 md:h-[calc(100dvh-11.5rem)] md:min-h-[26rem] md:grid-cols-3 ${
          showsThread ? 'h-[calc(100dvh-4.0625rem)]' : 'mt-4'
        }`}
      >
        <nav
          aria-label={t`Conversations`}
          className={`min-h-0 overflow-y-auto border-slate-200 md:border-e ${showsThread ? 'hidden md:block' : ''}`}
        >
          <Inbox conversations={conversations} openId={openId} role={sideOf(user.role)} />
        </nav>
        <section
          aria-label={
            group ? t`Class conversation: ${name}` : open ? t`Conversation with ${name}` : t`Conversation`
          }
          className={`min-h-0 md:col-span-2 ${showsThread ? '' : 'hidden md:block'}`}
        >
          {open ? (
            <Thread
              key={open.detail.id}
              detail={open.detail}
              page={open.page}
              userId={user.id}
              onMessage={touch}
              onRead={markRead}
              onBlockChange={refresh}
              focusComposer={composing}
            />
          ) : data.recipient ? (
            <FirstMessage recipient={data.recipient} role={sideOf(user.role)} />
          ) : (
            <Placeholder missing={data.open === 'missing'} empty={conversations.length === 0} />
          )}
        </section>
      </div>
    </div>
  );
}

function Placeholder({ missing, empty }: { missing: boolean; empty: boolean }) {
  return (
    <div className="flex h-full flex-col items-center justify-center p-6 text-center text-slate-700">
      {missing ? (
        <>
          <h2 className="text-lg font-semibold text-slate-900">
            <Trans>Conversation not found</Trans>
          </h2>
          <p className="mt-1 text-sm">
            <Trans>It does not exist, or it is not one of yours.</Trans>
          </p>
        </>
      ) : (
        <p className="text-sm">
          {empty ? <Trans>Your conversations will show here.</Trans> : <Trans>Choose a conversation.</Trans>}
        </p>
      )}
    </div>
  );
}

/** A first message to someone: the conversation exists once it is sent. */
function FirstMessage({ recipient, role }: { recipient: Recipient; role: 'student' | 'tutor' }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const location = useLocation();
  // A student's name comes with the link from the schedule; a tutor's from their public profile.
  const name = recipient.displayName ?? (location.state as { name?: string } | null)?.name ?? t`this student`;
  const [blockedByMe, setBlockedByMe] = useState(false);
  async function send(text: string) {
    const to = role === 'student' ? { tutorId: recipient.id } : { studentId: recipient.id };
    try {
      const started = await request(api.conversations.$post({ json: { ...to, text } }));
      navigate(conversationPath(started.id), { replace: true, state: { composing: true } });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'BLOCKED_BY_YOU') setBlockedByMe(true);
      throw error;
    }
  }
  const unblocking = useApiAction(t`That did not work. Please try again.`);
  async function unblock() {
    // Whatever the answer, the address below shows where the two now stand.
    await unblocking.run(() => request(api.blocks[':userId'].$delete({ param: { userId: recipient.id } })), {
      reload: false,
      onFailure: () => true,
    });
    // Unblocked, the conversation is back in the inbox, and this address now opens it.
    navigate(`${paths.messages}?to=${encodeURIComponent(recipient.id)}`, { replace: true });
  }
  return (
    <div className="flex h-full min-h-0 flex-col">
      <header className="border-b border-slate-200 px-4 py-3">
        <BackToInbox />
        <div className="flex items-center gap-3">
          <TutorAvatar id={recipient.id} name={name} photoVersion={recipient.photoVersion} size={40} />
          <h2 className="text-lg font-semibold text-slate-900">
            <Trans>New message to {name}</Trans>
          </h2>
        </div>
      </header>
      <div className="flex-1 p-4 text-sm text-slate-700">
        {role === 'student'
          ? t`Ask ${name} anything before you book: your goals, your level, when you can meet.`
          : t`Write to ${name} about their lessons with you.`}
        {blockedByMe ? (
          <Button variant="secondary" className="mt-3 block" onClick={unblock} busy={unblocking.busy}>
            <Trans>Unblock {name}</Trans>
          </Button>
        ) : null}
      </div>
      <Composer label={t`Message ${name}`} send={send} autoFocus />
    </div>
  );
}
