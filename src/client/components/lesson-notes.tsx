/**
 * A lesson's notes: what was covered and the homework. The student reads them; the tutor writes
 * them once the lesson has taken place, in a form that opens from the lesson.
 */
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useState } from 'react';
import { MAX_NOTES_LENGTH } from '../../shared/progress/progress-rules';
import { api, request } from '../lib/api';
import { useApiAction } from '../lib/api-action';
import { Button } from './button';
import { ErrorMessage } from './messages';
import { TextArea } from './text-field';

const NOT_SAVED = msg`The notes were not saved. Please try again.`;

export interface Notes {
  covered: string;
  homework: string;
  updatedAt: string;
}

export function NotesView({ notes, className = '' }: { notes: Notes; className?: string }) {
  return (
    <dl className={`space-y-2 rounded-lg bg-slate-50 p-3 text-sm ${className}`}>
      {notes.covered ? (
        <div>
          <dt className="font-semibold text-slate-900">
            <Trans>What we covered</Trans>
          </dt>
          <dd className="mt-0.5 whitespace-pre-line break-words text-slate-800">{notes.covered}</dd>
        </div>
      ) : null}
      {notes.homework ? (
        <div>
          <dt className="font-semibold text-slate-900">
            <Trans>Homework</Trans>
          </dt>
          <dd className="mt-0.5 whitespace-pre-line break-words text-slate-800">{notes.homework}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** The tutor's notes on one lesson: shown, with a button that opens the form to write them. */
export function NotesEditor({
  lessonId,
  notes,
  lessonName,
}: {
  lessonId: string;
  notes: Notes | null;
  lessonName: string;
}) {
  const { t, i18n } = useLingui();
  const [open, setOpen] = useState(false);
  const [covered, setCovered] = useState(notes?.covered ?? '');
  const [homework, setHomework] = useState(notes?.homework ?? '');
  const { busy, problem, run } = useApiAction(i18n._(NOT_SAVED));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const saved = await run(() =>
      request(api.lessons[':id'].notes.$put({ param: { id: lessonId }, json: { covered, homework } })),
    );
    if (saved) setOpen(false);
  }

  if (!open)
    return (
      <div className="mt-2">
        {notes ? <NotesView notes={notes} /> : null}
        <Button
          type="button"
          variant="secondary"
          className="mt-2"
          aria-label={notes ? t`Edit notes on ${lessonName}` : t`Write notes on ${lessonName}`}
          onClick={() => {
            setCovered(notes?.covered ?? '');
            setHomework(notes?.homework ?? '');
            setOpen(true);
          }}
        >
          {notes ? <Trans>Edit notes</Trans> : <Trans>Write notes</Trans>}
        </Button>
      </div>
    );
  return (
    <form onSubmit={submit} className="mt-2 space-y-3 rounded-lg border border-slate-200 p-3">
      {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
      <TextArea
        label={t`What was covered`}
        rows={3}
        value={covered}
        onChange={(e) => setCovered(e.target.value)}
        maxLength={MAX_NOTES_LENGTH}
      />
      <TextArea
        label={t`Homework`}
        rows={2}
        value={homework}
        onChange={(e) => setHomework(e.target.value)}
        maxLength={MAX_NOTES_LENGTH}
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" busy={busy}>
          <Trans>Save notes</Trans>
        </Button>
        <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}
