/**
 * How much of a text's limit is used, shown once the text comes near it: "1,950 / 2,000", and in
 * red with how many are too many once it is over. Nothing is ever cut: the field keeps what was
 * typed or pasted, and its form refuses it with a message naming the limit. A screen reader hears
 * the count politely once the typing pauses, not at every key.
 */
import { plural } from '@lingui/core/macro';
import { Plural } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { formatLocale } from '../../shared/format-locale';

/** The count shows from this share of the limit on. */
const SHOWN_FROM = 0.9;
/** How long the typing must pause before the count is announced. */
const ANNOUNCE_AFTER_MS = 1000;

/** Whether a text of `length` is near enough its limit for the count to show. */
export const countShown = (length: number, limit: number) => length >= Math.floor(limit * SHOWN_FROM);

/** What is counted against a limit: the text as it is kept, without the spaces around it. */
export const countedLength = (text: string) => text.trim().length;

/** "12 characters too many", or "50 characters left". */
function remainingWords(length: number, limit: number): string {
  const left = limit - length;
  const count = new Intl.NumberFormat(formatLocale()).format(Math.abs(left));
  return left < 0
    ? plural(-left, { one: `${count} character too many`, other: `${count} characters too many` })
    : plural(left, { one: `${count} character left`, other: `${count} characters left` });
}

/**
 * The count, with `id` for the field's aria-describedby while it shows (`countShown`), and the
 * polite announcement beside it.
 */
export function CharacterCount({
  id,
  length,
  limit,
  className = '',
}: {
  id: string;
  length: number;
  limit: number;
  className?: string;
}) {
  const [announced, setAnnounced] = useState('');
  const first = useRef(length);
  const shown = countShown(length, limit);

  useEffect(() => {
    // A text that arrives near its limit (a saved profile) is not news; a change to it is.
    if (length === first.current) return;
    first.current = Number.NaN;
    const timer = setTimeout(
      () => setAnnounced(shown ? remainingWords(length, limit) : ''),
      ANNOUNCE_AFTER_MS,
    );
    return () => clearTimeout(timer);
  }, [length, limit, shown]);

  const over = length > limit;
  const numbers = new Intl.NumberFormat(formatLocale());
  const typed = numbers.format(length);
  const most = numbers.format(limit);
  const extra = numbers.format(length - limit);
  return (
    <>
      {shown ? (
        <p
          id={id}
          className={`tabular-nums ${over ? 'font-semibold text-red-700' : 'text-slate-600'} ${className}`}
        >
          <span aria-hidden="true">
            {typed} / {most}
            {over ? (
              <>
                {': '}
                <Plural value={length - limit} one={`${extra} too many`} other={`${extra} too many`} />
              </>
            ) : null}
          </span>
          <span className="sr-only">
            <Plural
              value={limit}
              one={`${typed} of ${most} character`}
              other={`${typed} of ${most} characters`}
            />
          </span>
        </p>
      ) : null}
      <p aria-live="polite" className="sr-only">
        {announced}
      </p>
    </>
  );
}
