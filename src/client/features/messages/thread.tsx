/**
 * One conversation: who it is with and the pair's next lesson, the messages (a polite live log, so
 * a screen reader says each new one without interrupting), older ones on request, and the
 * composer. New messages arrive through this tab's live channel; after every (re)connection the
 * thread asks for whatever came after the last message it has, so nothing sent while the
 * connection was down is missing. While the thread is on screen its messages count as read.
 *
 * In a conversation with support, the person sees the team as Support (answers carry Support's
 * id, never an admin's), and an admin sees the person, with every answer from support on their own
 * side: theirs as "You", a colleague's as "Support". Blocks are between two people, so none is
 * offered there; admins report what the person wrote as in any conversation, while the person
 * has nothing to report to the very team that answered.
 *
 * A class's conversation has members rather than another side: its title heads it, every line
 * from someone else carries their name, and no block is offered (a block is between two people;
 * a class is left by leaving the class).
 */
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { PRODUCT_NAME, SUPPORT_NAME } from '../../../shared/constants';
import * as messages from '../../../shared/messages';
import { paths } from '../../../shared/routes';
import { Button } from '../../components/button';
import { Composer } from '../../components/composer';
import { Dialog } from '../../components/dialog';
import { StatusBadge } from '../../components/lesson-parts';
import { StatusMessage } from '../../components/messages';
import { TutorAvatar } from '../../components/tutor-avatar';
import { api, failureMessage, request } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { translated } from '../../lib/i18n';
import { live, type MessageView } from '../../lib/live';
import { usePublicConfig } from '../../lib/public-config';
import { lessonTimeLabel } from '../../lib/time-labels';
import { browserTimeZone } from '../../lib/time-zones';
import { BackToInbox } from './back-to-inbox';
import { ClassAvatar, ClassMembers, ClassTag, useMemberNames } from './class-parts';
import { scheduleWeekOf } from './message-lines';
import type { ConversationDetail, MessagePage } from './messages-data';
import { ReportDialog } from './report-dialog';
import { SupportAvatar, SupportTag } from './support-parts';
import { Line } from './thread-line';

/** Adds messages to a list kept in id order, once each. */
function merge(list: MessageView[], added: MessageView[]): MessageView[] {
  const known = new Set(list.map((message) => message.id));
  const fresh = added.filter((message) => !known.has(message.id));
  if (fresh.length === 0) return list;
  return [...list, ...fresh].sort((a, b) => a.id - b.id);
}

export function Thread({
  detail,
  page,
  userId,
  onMessage,
  onRead,
  onBlockChange,
  focusComposer = false,
}: {
  detail: ConversationDetail;
  page: MessagePage;
  userId: string;
  /** A message this thread sent or received, for the inbox's row. */
  onMessage: (message: MessageView) => void;
  /** The thread was read here: the inbox row has nothing unread. */
  onRead: (conversationId: string) => void;
  /** Blocking hides the conversation from the inbox, unblocking brings it back. */
  onBlockChange: () => void;
  focusComposer?: boolean;
}) {
  const { t } = useLingui();
  const id = detail.id;
  const group = detail.class;
  const name = detail.other?.displayName ?? group?.title ?? '';
  const members = useMemberNames(detail);
  const notice = members.notice;
  const product = PRODUCT_NAME;
  /** This user asked support: the other side is the team. */
  const asking = detail.other?.role === 'support';
  // How soon the team answers, only where a school has said (Site settings).
  const replyHours = usePublicConfig()?.supportReplyHours ?? null;
  const [lines, setLines] = useState(page.messages);
  const [hasOlder, setHasOlder] = useState('hasOlder' in page && page.hasOlder);
  const [blocked, setBlocked] = useState(detail.blockedByMe);
  const [note, setNote] = useState<string | null>(null);
  const [reporting, setReporting] = useState<MessageView | null>(null);
  const [confirmBlock, setConfirmBlock] = useState(false);
  const lastId = useRef(0);
  lastId.current = lines.at(-1)?.id ?? 0;
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const unblockButton = useRef<HTMLButtonElement>(null);

  const markRead = useCallback(async () => {
    if (document.visibilityState !== 'visible') return;
    try {
      const { unreadTotal } = await request(api.conversations[':id'].read.$post({ param: { id } }));
      live.setUnread(unreadTotal);
      onRead(id);
    } catch {
      // Still unread on the server: the inbox says so, and the next visit reads it.
    }
  }, [id, onRead]);

  // This conversation is "being read" while it is on screen and the tab is visible.
  useEffect(() => {
    const track = () => {
      const visible = document.visibilityState === 'visible';
      live.view(visible ? id : null);
      if (visible) void markRead();
    };
    track();
    document.addEventListener('visibilitychange', track);
    return () => {
      document.removeEventListener('visibilitychange', track);
      live.view(null);
    };
  }, [id, markRead]);

  useEffect(() => {
    const catchUp = async () => {
      for (let more = true; more; ) {
        const after = String(lastId.current);
        const next = await request(
          api.conversations[':id'].messages.$get({ param: { id }, query: { after } }),
        );
        setLines((current) => merge(current, next.messages));
        lastId.current = next.messages.at(-1)?.id ?? lastId.current;
        more = 'hasMore' in next && next.hasMore && next.messages.length > 0;
      }
    };
    const unsubscribe = live.subscribe((frame) => {
      if (frame.type === 'ready') void catchUp().catch(() => undefined);
      if (frame.type === 'message' && frame.message.conversationId === id) {
        setLines((current) => merge(current, [frame.message]));
        void notice(frame.message.senderId);
        if (frame.message.senderId !== userId) void markRead();
      }
      // A moderator removed a message: what replaces it takes its place at once.
      if (frame.type === 'message-hidden' && frame.message.conversationId === id) {
        const hidden = frame.message;
        setLines((current) => current.map((line) => (line.id === hidden.id ? hidden : line)));
      }
    });
    // What arrived between the page's load and this subscription came in no frame of ours.
    void catchUp().catch(() => undefined);
    return unsubscribe;
  }, [id, userId, markRead, notice]);

  // Follow new lines when the reader is at the bottom; leave them be when they scrolled up to read.
  const newest = lines.at(-1)?.id;
  useEffect(() => {
    const element = scroller.current;
    if (element && atBottom.current && newest !== undefined) element.scrollTop = element.scrollHeight;
  }, [newest]);

  const blocking = useApiAction(translated(messages.unexpectedError));

  async function showOlder() {
    const first = lines[0];
    if (!first) return;
    // Older lines are history, not news: the log is busy while they come, so they are not read out.
    setLoadingOlder(true);
    try {
      const older = await request(
        api.conversations[':id'].messages.$get({ param: { id }, query: { before: String(first.id) } }),
      );
      atBottom.current = false;
      setLines((current) => merge(current, older.messages));
      const more = 'hasOlder' in older && older.hasOlder;
      setHasOlder(more);
      // The button goes with the last page: the focus moves to the messages rather than nowhere.
      if (!more) scroller.current?.focus();
    } catch (error) {
      setNote(failureMessage(error));
    } finally {
      setLoadingOlder(false);
    }
  }

  async function send(text: string) {
    const sent = await request(api.conversations[':id'].messages.$post({ param: { id }, json: { text } }));
    atBottom.current = true;
    setLines((current) => merge(current, [sent]));
    onMessage(sent);
  }

  async function setBlock(block: boolean) {
    const other = detail.other?.id ?? '';
    await blocking.run<unknown>(
      () =>
        block
          ? request(api.blocks.$post({ json: { userId: other } }))
          : request(api.blocks[':userId'].$delete({ param: { userId: other } })),
      {
        reload: false,
        onDone: () => blockChanged(block),
        // The answer, either way, is told in the conversation's note.
        onFailure: (error) => {
          setNote(failureMessage(error));
          return true;
        },
      },
    );
    setConfirmBlock(false);
  }

  function blockChanged(block: boolean) {
    setBlocked(block);
    onBlockChange();
    // The Block button is gone: the focus goes to the way back, which appears in its place.
    if (block) requestAnimationFrame(() => unblockButton.current?.focus());
    setNote(
      block
        ? t`You blocked ${name}. They cannot write to you, and this conversation is hidden from your inbox. They are not told.`
        : t`You unblocked ${name}. The conversation is back in your inbox.`,
    );
  }

  return (
    <div className="flex h-full min-h-0 flex-col">
      <header className="border-b border-slate-200 px-4 py-3">
        <BackToInbox />
        <div className="flex items-center gap-3">
          {group ? (
            <ClassAvatar size={40} />
          ) : asking ? (
            <SupportAvatar size={40} />
          ) : (
            <TutorAvatar
              id={detail.other?.id ?? ''}
              name={name}
              photoVersion={detail.other?.photoVersion ?? null}
              size={40}
            />
          )}
          <div className="min-w-0 flex-1">
            <h2 className="flex min-w-0 items-center gap-2 text-lg font-semibold text-slate-900">
              {detail.other?.role === 'tutor' ? (
                <Link
                  to={`${paths.tutors}/${encodeURIComponent(detail.other.id)}`}
                  className="truncate hover:underline"
                >
                  {name}
                </Link>
              ) : (
                <span className="truncate">{name}</span>
              )}
              {group ? <ClassTag /> : null}
            </h2>
            {group ? (
              <ClassMembers members={members.members} userId={userId} />
            ) : asking ? (
              <p className="text-sm text-slate-600">
                {replyHours === null
                  ? t`The ${product} team answers here.`
                  : t`${plural(replyHours, { one: `The ${product} team answers here, usually within # hour.`, other: `The ${product} team answers here, usually within # hours.` })}`}
              </p>
            ) : (
              <p className="flex items-center gap-2 text-sm text-slate-600">
                {detail.other?.role === 'tutor' ? t`Tutor` : t`Student`}
                {detail.support ? <SupportTag /> : null}
              </p>
            )}
          </div>
          {blocked || detail.support || group ? null : (
            <Button variant="ghost" onClick={() => setConfirmBlock(true)}>
              <Trans>Block</Trans>
            </Button>
          )}
        </div>
        <NextLesson lesson={detail.nextLesson} />
      </header>

      {note ? (
        <div className="px-4 pt-3">
          <StatusMessage tone="info">{note}</StatusMessage>
        </div>
      ) : null}

      <div
        ref={scroller}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is focusable so a keyboard can scroll it
        tabIndex={0}
        onScroll={(event) => {
          const element = event.currentTarget;
          atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
        }}
        className="min-h-0 flex-1 overflow-y-auto px-4 py-4"
      >
        {hasOlder ? (
          <div className="mb-4 text-center">
            <Button variant="secondary" onClick={showOlder} busy={loadingOlder}>
              <Trans>Show earlier messages</Trans>
            </Button>
          </div>
        ) : null}
        <div
          role="log"
          aria-live="polite"
          aria-busy={loadingOlder}
          aria-label={group ? t`Messages in ${name}` : t`Messages with ${name}`}
        >
          {lines.length === 0 ? (
            <p className="mx-auto max-w-sm text-center text-sm text-slate-600">
              {asking
                ? t`Ask us anything about your account, lessons or tutors. Write below: we answer here, and the conversation stays in your messages.`
                : t`No messages yet.`}
            </p>
          ) : null}
          <ol className="space-y-3">
            {lines.map((line) => {
              // The other side's lines on the left; an admin's colleagues answer from support's side.
              // In a class, everyone else's lines are on the left, each under its writer's name.
              const theirs = group ? line.senderId !== userId : line.senderId === detail.other?.id;
              const author = group
                ? (members.nameOf(line.senderId) ?? t`A member`)
                : theirs
                  ? name
                  : translated(SUPPORT_NAME);
              return (
                <Line
                  key={line.id}
                  line={line}
                  mine={!theirs}
                  author={line.senderId === userId ? t`You` : author}
                  colleague={!group && !theirs && line.senderId !== userId}
                  named={group !== null && theirs}
                  onReport={asking ? undefined : () => setReporting(line)}
                />
              );
            })}
          </ol>
        </div>
      </div>

      {blocked ? (
        <div className="border-t border-slate-200 p-4 text-sm text-slate-700">
          <p>
            <Trans>You blocked {name}. Unblock them to write here again.</Trans>
          </p>
          <Button ref={unblockButton} variant="secondary" className="mt-2" onClick={() => setBlock(false)}>
            <Trans>Unblock {name}</Trans>
          </Button>
        </div>
      ) : (
        <Composer
          label={t`Message ${name}`}
          send={send}
          // Someone who came to ask support came to write.
          autoFocus={focusComposer || (asking && page.messages.length === 0)}
        />
      )}

      <Dialog open={confirmBlock} onClose={() => setConfirmBlock(false)} title={t`Block ${name}?`}>
        <p className="mt-2 text-sm text-slate-700">
          <Trans>
            {name} will no longer be able to write to you or start a conversation with you, and this
            conversation leaves your inbox. They are not told. You can unblock them from this conversation at
            any time.
          </Trans>
        </p>
        <div className="mt-5 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirmBlock(false)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button variant="danger" onClick={() => setBlock(true)}>
            <Trans>Block</Trans>
          </Button>
        </div>
      </Dialog>
      <ReportDialog
        line={reporting}
        onClose={(sent) => {
          setReporting(null);
          if (sent) setNote(t`Thank you: the report was sent to the moderators. The sender is not told.`);
        }}
      />
    </div>
  );
}

function NextLesson({ lesson }: { lesson: ConversationDetail['nextLesson'] }) {
  if (!lesson) return null;
  const timeZone = browserTimeZone();
  const subject = translated(lesson.subject);
  const when = lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), timeZone);
  return (
    <p className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700">
      <span className="font-medium text-slate-900">
        <Trans>Next lesson:</Trans>
      </span>
      <span>
        <Trans>
          {subject}, <bdi>{when}</bdi>
        </Trans>
      </span>
      <StatusBadge status={lesson.status} />
      <Link to={scheduleWeekOf(lesson.start, timeZone)} className="font-semibold text-brand-700 underline">
        <Trans>See it on your schedule</Trans>
      </Link>
    </p>
  );
}
