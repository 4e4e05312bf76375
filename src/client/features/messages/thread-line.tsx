/**
 * One line of a conversation: a message (its writer said to a screen reader, "Report" beside
 * another's), a message removed or whose writer left, or a line about a lesson.
 */
import { useLingui } from '@lingui/react/macro';
import { MessageText } from '../../components/message-text';
import type { MessageView } from '../../lib/live';
import { eventText, sentLabel, sentTitle } from './message-lines';

export function Line({
  line,
  mine,
  author,
  colleague,
  named = false,
  onReport,
}: {
  line: MessageView;
  /** On this user's side: their own, or (for an admin in a support conversation) a colleague's. */
  mine: boolean;
  /** Who wrote it, as a screen reader says it: "You", the other side's name, or "Support". */
  author: string;
  /** Another admin answered: said beside the time, since it is on this admin's side. */
  colleague: boolean;
  /** In a class's conversation: the writer's name shows above what someone else wrote. */
  named?: boolean;
  /** Absent where nothing is reported (the person's side of a support conversation). */
  onReport: (() => void) | undefined;
}) {
  const { t } = useLingui();
  const sent = sentTitle(line.createdAt);
  const when = (
    <time dateTime={line.createdAt} title={sent}>
      {sentLabel(line.createdAt)}
    </time>
  );
  if (line.event) {
    return (
      <li className="mx-auto max-w-md rounded-lg bg-slate-100 px-3 py-2 text-center text-sm text-slate-700">
        {eventText(line.event)} <span className="text-xs text-slate-600">· {when}</span>
      </li>
    );
  }
  // Shown to sight; a screen reader hears the name once, from the line itself.
  const byline = named ? (
    <span aria-hidden="true" className="mb-0.5 px-1 text-xs font-semibold text-slate-700">
      {author}
    </span>
  ) : null;
  // A message a moderator removed, or whose writer deleted their account: the server sends only
  // the words that replace it.
  if (line.hidden || line.deleted) {
    return (
      <li className={`flex flex-col ${mine ? 'items-end' : 'items-start'}`}>
        {byline}
        <p className="max-w-[85%] rounded-2xl border border-dashed border-slate-300 px-4 py-2 text-sm italic text-slate-600 sm:max-w-[70%]">
          <span className="sr-only">{`${author}: `}</span>
          {line.text}
        </p>
        <div className="mt-0.5 px-1 text-xs text-slate-600">{when}</div>
      </li>
    );
  }
  return (
    <li className={`flex flex-col ${mine ? 'items-end' : 'items-start'}`}>
      {byline}
      <div
        className={`max-w-[85%] whitespace-pre-wrap break-words rounded-2xl px-4 py-2 text-base sm:max-w-[70%] ${
          colleague
            ? 'rounded-ee-sm bg-brand-100 text-brand-900'
            : mine
              ? 'rounded-ee-sm bg-brand-700 text-white'
              : 'rounded-es-sm bg-slate-100 text-slate-900'
        }`}
      >
        <span className="sr-only">{`${author}: `}</span>
        <MessageText text={line.text} />
      </div>
      <div className="mt-0.5 flex items-center gap-2 px-1 text-xs text-slate-600">
        {colleague ? (
          <span>
            <span aria-hidden="true">{author} · </span>
            {when}
          </span>
        ) : (
          when
        )}
        {mine || !onReport ? null : (
          <button
            type="button"
            onClick={onReport}
            aria-label={t`Report the message from ${author}, ${sent}`}
            className="rounded font-medium text-slate-600 underline-offset-2 hover:text-red-700 hover:underline"
          >
            {t`Report`}
          </button>
        )}
      </div>
    </li>
  );
}
