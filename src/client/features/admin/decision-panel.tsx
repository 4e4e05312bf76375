/**
 * A decision on one item of a queue: a note (or reason) and the buttons that decide, each sending
 * its call, then reloading the page's data. The answer is said where it happened: an error as an
 * alert beside the buttons, a success as a status once the item has left the queue.
 */
import { useId, useState } from 'react';
import { MAX_NOTE_LENGTH } from '../../../shared/admin/admin-rules';
import * as messages from '../../../shared/messages';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/messages';
import { useApiAction } from '../../lib/api-action';
import { translated } from '../../lib/i18n';

export interface Decision {
  label: string;
  /** The accessible name, when the label alone does not say what it applies to. */
  name?: string;
  variant: 'primary' | 'secondary' | 'danger';
  /** Without a note the button says so instead of sending. */
  needsNote?: string;
  run: (note: string) => Promise<unknown>;
  done: string;
}

export function DecisionPanel({
  noteLabel,
  noteHint,
  decisions,
  onDone,
}: {
  noteLabel: string;
  noteHint: string;
  decisions: Decision[];
  onDone: (message: string) => void;
}) {
  const [note, setNote] = useState('');
  const { busy, busyWith, problem, setProblem, run } = useApiAction(translated(messages.unexpectedError));
  const noteId = useId();
  const hintId = useId();
  const alertId = useId();

  async function decide(decision: Decision) {
    if (busy) return;
    if (decision.needsNote && !note.trim()) {
      setProblem(decision.needsNote);
      document.getElementById(noteId)?.focus();
      return;
    }
    await run(() => decision.run(note.trim()), { key: decision.label, onDone: () => onDone(decision.done) });
  }

  return (
    <div className="mt-4 border-t border-slate-100 pt-4">
      <label htmlFor={noteId} className="block text-sm font-medium text-slate-900">
        {noteLabel}
      </label>
      <p id={hintId} className="text-sm text-slate-600">
        {noteHint}
      </p>
      <textarea
        id={noteId}
        rows={2}
        maxLength={MAX_NOTE_LENGTH}
        value={note}
        onChange={(event) => setNote(event.target.value)}
        aria-describedby={problem ? `${hintId} ${alertId}` : hintId}
        aria-invalid={problem ? true : undefined}
        className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-base text-slate-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30"
      />
      {problem ? (
        <div id={alertId} className="mt-2">
          <ErrorMessage>{problem}</ErrorMessage>
        </div>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        {decisions.map((decision) => (
          <Button
            key={decision.label}
            variant={decision.variant}
            busy={busyWith === decision.label}
            aria-disabled={busy || undefined}
            aria-label={decision.name}
            onClick={() => decide(decision)}
          >
            {decision.label}
          </Button>
        ))}
      </div>
    </div>
  );
}
