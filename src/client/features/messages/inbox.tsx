/**
 * The inbox: one row per conversation, unread first, then by last activity (the server's order,
 * kept as live messages move rows up), with the other person's photo or initials, their name, the
 * last line and how many wait unread. A person's conversation with support shows Support; an
 * admin's support conversations show the person, tagged "Support"; a class's group shows the
 * class's title, tagged "Class".
 */
import { Plural, Trans } from '@lingui/react/macro';
import { Link } from 'react-router';
import { paths } from '../../../shared/routes';
import { TutorAvatar } from '../../components/tutor-avatar';
import { ClassAvatar, ClassTag } from './class-parts';
import { lineText, sentLabel } from './message-lines';
import { type Conversation, conversationPath } from './messages-data';
import { SupportAvatar, SupportTag } from './support-parts';

export function Inbox({
  conversations,
  openId,
  role,
}: {
  conversations: Conversation[];
  openId: string | null;
  role: 'student' | 'tutor';
}) {
  if (conversations.length === 0) {
    return (
      <div className="p-4 text-sm text-slate-700 sm:p-6">
        <p className="font-semibold text-slate-900">
          <Trans>No conversations yet.</Trans>
        </p>
        {role === 'student' ? (
          <p className="mt-1">
            <Trans>
              <Link to={paths.tutors} className="font-semibold text-brand-700 underline">
                Find a tutor
              </Link>{' '}
              and press Message on their page to ask them anything before you book.
            </Trans>
          </p>
        ) : (
          <p className="mt-1">
            <Trans>
              Students who write to you appear here. You can write to a student once they have booked a lesson
              with you, from your schedule.
            </Trans>
          </p>
        )}
      </div>
    );
  }
  return (
    <ul className="divide-y divide-slate-100">
      {conversations.map((conversation) => {
        const current = conversation.id === openId;
        const last = conversation.lastMessage;
        const unread = conversation.unread;
        const other = conversation.other;
        const title = other?.displayName ?? conversation.class?.title ?? '';
        return (
          <li key={conversation.id}>
            <Link
              to={conversationPath(conversation.id)}
              aria-current={current ? 'page' : undefined}
              className={`flex gap-3 px-4 py-3 transition-colors hover:bg-slate-50 ${
                current ? 'bg-brand-50 hover:bg-brand-50' : ''
              }`}
            >
              {other === null ? (
                <ClassAvatar size={44} />
              ) : other.role === 'support' ? (
                <SupportAvatar size={44} />
              ) : (
                <TutorAvatar
                  id={other.id}
                  name={other.displayName}
                  photoVersion={other.photoVersion}
                  size={44}
                />
              )}
              <span className="min-w-0 flex-1">
                <span className="flex items-baseline justify-between gap-2">
                  <span className="flex min-w-0 items-baseline gap-2">
                    <span
                      className={`truncate text-slate-900 ${conversation.unread > 0 ? 'font-bold' : 'font-semibold'}`}
                    >
                      {title}
                    </span>
                    {conversation.support && other?.role !== 'support' ? <SupportTag /> : null}
                    {conversation.class ? <ClassTag /> : null}
                  </span>
                  <span className="shrink-0 text-xs text-slate-600">
                    {sentLabel(conversation.lastActivityAt)}
                  </span>
                </span>
                <span className="mt-0.5 flex items-center justify-between gap-2">
                  <span
                    className={`truncate text-sm ${conversation.unread > 0 ? 'text-slate-900' : 'text-slate-600'}`}
                  >
                    {last ? lineText(last) : <Trans>No messages yet</Trans>}
                  </span>
                  {conversation.unread > 0 ? (
                    <span className="shrink-0 rounded-full bg-brand-700 px-2 py-0.5 text-xs font-bold text-white">
                      <span aria-hidden="true">{conversation.unread}</span>
                      <span className="sr-only">
                        {' '}
                        <Plural value={unread} one="# unread" other="# unread" />
                      </span>
                    </span>
                  ) : null}
                </span>
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
