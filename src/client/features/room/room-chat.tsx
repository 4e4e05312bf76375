/**
 * A room's chat beside the call, kept with the lesson or the class session: the lines so far,
 * the new ones as the live channel brings them (and everything again after it reconnects), and a
 * composer. The room says where its lines come from and go, and who wrote each.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useState } from 'react';
import { MAX_ROOM_CHAT_LENGTH } from '../../../shared/lessons/room-rules';
import { Composer } from '../../components/composer';
import { MessageText } from '../../components/message-text';
import { live } from '../../lib/live';
import { sentLabel } from '../messages';

export interface ChatLine {
  id: number;
  senderId: string;
  text: string;
  createdAt: string;
}

type LiveFrame = Parameters<Parameters<typeof live.subscribe>[0]>[0];

export interface ChatSource {
  /** The lines kept so far. */
  load(): Promise<ChatLine[]>;
  /** Sends a line; answers it as kept. */
  say(text: string): Promise<ChatLine>;
  /** A line of this room in a live frame, or null. */
  heard(frame: LiveFrame): ChatLine | null;
}

export function RoomChat({
  source,
  nameOf,
  label,
  linesLabel,
  empty,
}: {
  source: ChatSource;
  /** Who wrote a line, as this viewer calls them ("You" for themselves). */
  nameOf: (senderId: string) => string;
  label: string;
  linesLabel: string;
  empty: React.ReactNode;
}) {
  const { t } = useLingui();
  const [lines, setLines] = useState<ChatLine[]>([]);
  const add = useCallback(
    (added: ChatLine[]) =>
      setLines((current) => {
        const known = new Set(current.map((line) => line.id));
        const fresh = added.filter((line) => !known.has(line.id));
        return fresh.length ? [...current, ...fresh].sort((a, b) => a.id - b.id) : current;
      }),
    [],
  );
  useEffect(() => {
    const load = () =>
      source
        .load()
        .then(add)
        .catch(() => undefined);
    const unsubscribe = live.subscribe((frame) => {
      if (frame.type === 'ready') void load();
      const line = source.heard(frame);
      if (line) add([line]);
    });
    void load();
    return unsubscribe;
  }, [source, add]);

  return (
    <section
      aria-label={label}
      className="flex min-h-80 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm lg:max-h-[32rem]"
    >
      <h2 className="border-b border-slate-200 px-4 py-3 text-base font-semibold text-slate-900">
        <Trans>Chat</Trans>
      </h2>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-3">
        <div role="log" aria-live="polite" aria-label={linesLabel}>
          {lines.length === 0 ? <p className="text-sm text-slate-600">{empty}</p> : null}
          <ol className="space-y-2">
            {lines.map((line) => (
              <li key={line.id} className="text-sm">
                <span className="font-semibold text-slate-900">{nameOf(line.senderId)}</span>{' '}
                <span className="text-xs text-slate-600">{sentLabel(line.createdAt)}</span>
                <p className="whitespace-pre-wrap break-words text-slate-800">
                  <MessageText text={line.text} />
                </p>
              </li>
            ))}
          </ol>
        </div>
      </div>
      <Composer
        label={t`Chat message`}
        send={async (text) => add([await source.say(text)])}
        maxLength={MAX_ROOM_CHAT_LENGTH}
      />
    </section>
  );
}
