/**
 * The box a message is written in. Enter sends and Shift+Enter starts a new line (as in every chat
 * people know), except while an input method is composing a character. After sending, the box is
 * empty and keeps focus, ready for the next line; a refusal is said below it and the text stays.
 * Nothing typed or pasted is ever cut: near the limit a count shows, and a message over it is
 * refused here, before it is sent, with the limit named.
 */
import { plural, t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from 'react';
import { MAX_MESSAGE_LENGTH } from '../../shared/conversation-schemas';
import { formatLocale } from '../../shared/format-locale';
import * as messages from '../../shared/messages';
import { useApiAction } from '../lib/api-action';
import { translated } from '../lib/i18n';
import { Button } from './button';
import { CharacterCount, countedLength, countShown } from './character-count';
import { ErrorMessage } from './messages';

/** Why a message over the limit is not sent, and by how much to shorten it. */
export function tooLongMessage(length: number, limit: number): string {
  const numbers = new Intl.NumberFormat(formatLocale());
  const most = numbers.format(limit);
  const has = numbers.format(length);
  const over = numbers.format(length - limit);
  return plural(limit, {
    one: `A message can be at most ${most} character; this one has ${has}. Please shorten it by ${over}.`,
    other: `A message can be at most ${most} characters; this one has ${has}. Please shorten it by ${over}.`,
  });
}

export function Composer({
  label,
  send,
  autoFocus = false,
  maxLength = MAX_MESSAGE_LENGTH,
}: {
  /** The box's accessible name, e.g. "Message Ana Lima". */
  label: string;
  /** Sends the text; throws an ApiError to refuse it. */
  send: (text: string) => Promise<void>;
  autoFocus?: boolean;
  /** The most characters a message may have, as the server counts them. */
  maxLength?: number;
}) {
  const [text, setText] = useState('');
  // The message reaches the page through the live channel, not through the page's loader.
  const { busy, problem, setProblem, run } = useApiAction(messages.unexpectedError);
  const box = useRef<HTMLTextAreaElement>(null);
  const hintId = useId();
  const countId = useId();
  const problemId = useId();

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    if (!text.trim()) {
      setProblem(t`Please write a message`);
      box.current?.focus();
      return;
    }
    if (countedLength(text) > maxLength) {
      setProblem(tooLongMessage(countedLength(text), maxLength));
      box.current?.focus();
      return;
    }
    // The box empties at once, so what is typed while this one is on its way is kept; a refused
    // message comes back into the box, ahead of anything typed since.
    const sending = text;
    setText('');
    await run(() => send(sending), {
      reload: false,
      onFailure: () => {
        setText((typed) => (typed ? `${sending}\n${typed}` : sending));
        return false;
      },
    });
    box.current?.focus();
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void submit();
  };

  const length = countedLength(text);
  const described = [problem ? problemId : null, hintId, countShown(length, maxLength) ? countId : null]
    .filter(Boolean)
    .join(' ');
  return (
    <form onSubmit={submit} className="border-t border-slate-200 bg-white p-3 sm:p-4">
      {problem ? (
        <div id={problemId} className="mb-3">
          <ErrorMessage>{translated(problem)}</ErrorMessage>
        </div>
      ) : null}
      <div className="flex items-end gap-2">
        <label className="min-w-0 flex-1">
          <span className="sr-only">{label}</span>
          <textarea
            ref={box}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              if (problem) setProblem(null);
            }}
            onKeyDown={onKeyDown}
            rows={2}
            // biome-ignore lint/a11y/noAutofocus: the user came here to write: a first message, or the one after it
            autoFocus={autoFocus}
            placeholder={t`Write a message…`}
            aria-describedby={described}
            aria-invalid={problem || length > maxLength ? true : undefined}
            className="block max-h-40 min-h-11 w-full resize-y rounded-lg border border-slate-300 px-3 py-2 text-base text-slate-900 placeholder:text-slate-500 focus:border-brand-600 aria-invalid:border-red-600"
          />
        </label>
        <Button type="submit" busy={busy}>
          <Trans>Send</Trans>
        </Button>
      </div>
      <div className="mt-1 flex justify-between gap-2 text-xs text-slate-600">
        <p id={hintId}>
          <Trans>Enter sends, Shift+Enter starts a new line.</Trans>
        </p>
        <CharacterCount id={countId} length={length} limit={maxLength} className="shrink-0" />
      </div>
    </form>
  );
}
