/**
 * What the schedule offers for a weekly series as a whole: the tutor's one answer to a series
 * request (shown once, with every week it asks for), the "Weekly" marker on a week, and "Cancel the
 * rest of the series" on a week, which asks first. Each week is otherwise an ordinary lesson with
 * its own actions.
 */
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef, useState } from 'react';
import { formatAmount } from '../../../shared/amounts';
import { MAX_CANCEL_REASON_LENGTH } from '../../../shared/lessons/lesson-schemas';
import { Button } from '../../components/button';
import { ConfirmPanel } from '../../components/confirm-panel';
import { ErrorMessage } from '../../components/messages';
import { TextArea } from '../../components/text-field';
import { api, request } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { lessonTimeLabel } from '../../lib/time-labels';
import type { Lesson } from './schedule-data';

/** The marker a week of a series carries in lists. */
export function WeeklyBadge() {
  return (
    <span className="inline-block rounded-full bg-violet-100 px-2.5 py-0.5 text-xs font-semibold text-violet-900">
      <span aria-hidden="true">↻ </span>
      <span>
        <Trans>Weekly</Trans>
      </span>
    </span>
  );
}

/** Requests in the order shown: a single request alone, a series request once, as its weeks. */
export type RequestItem =
  | { kind: 'single'; lesson: Lesson }
  | { kind: 'series'; id: string; lessons: Lesson[] };

export function groupRequests(requests: Lesson[]): RequestItem[] {
  const items: RequestItem[] = [];
  const bySeries = new Map<string, Lesson[]>();
  for (const lesson of requests) {
    if (!lesson.seriesId) {
      items.push({ kind: 'single', lesson });
      continue;
    }
    const weeks = bySeries.get(lesson.seriesId);
    if (weeks) weeks.push(lesson);
    else {
      const first = [lesson];
      bySeries.set(lesson.seriesId, first);
      items.push({ kind: 'series', id: lesson.seriesId, lessons: first });
    }
  }
  return items;
}

/** A series request as its tutor answers it: all its weeks at once. */
export function SeriesRequest({
  id,
  lessons,
  timeZone,
  onChanged,
}: {
  id: string;
  lessons: Lesson[];
  timeZone: string;
  onChanged: (notice: string) => void;
}) {
  const { t } = useLingui();
  const { busy, busyWith, problem, run } = useApiAction();
  const [first] = lessons;
  if (!first) return null;
  const subject = first.subject;
  const name = first.student.displayName;
  const what = t`${subject} with ${name}`;
  const total = formatAmount(
    lessons.reduce((sum, lesson) => sum + lesson.price.amountCents, 0),
    first.price.currency,
  );
  const weeks = lessons.length;
  const count = t`${plural(weeks, { one: '# weekly lesson', other: '# weekly lessons' })}`;
  const minutes = first.minutes;
  const note = first.note;
  const answer = async (choice: 'accept' | 'decline') => {
    const call =
      choice === 'accept'
        ? () => request(api.series[':id'].accept.$post({ param: { id } }))
        : () => request(api.series[':id'].decline.$post({ param: { id } }));
    if (await run(call, { key: choice }))
      onChanged(
        choice === 'accept'
          ? t`Weekly request accepted: ${what}, ${count}. You will both get a mail.`
          : t`Weekly request declined: ${what}, ${count}. ${name} will get a mail.`,
      );
  };
  return (
    <div>
      <div className="flex flex-wrap items-center gap-2">
        <p className="font-semibold text-slate-900">{what}</p>
        <WeeklyBadge />
      </div>
      <p className="mt-1 text-sm text-slate-700">
        {count} · <Trans>{minutes} min each</Trans> · <Trans>{total} in all</Trans>
      </p>
      {note ? (
        <p className="mt-1 text-sm text-slate-600">
          <Trans>Note: {note}</Trans>
        </p>
      ) : null}
      <ul className="mt-2 list-disc space-y-0.5 ps-5 text-sm text-slate-700">
        {lessons.map((lesson) => (
          <li key={lesson.id}>
            {lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), timeZone)}
          </li>
        ))}
      </ul>
      <div className="mt-3 space-y-3">
        {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
        <div className="flex flex-wrap gap-2">
          <Button busy={busyWith === 'accept'} disabled={busy} onClick={() => answer('accept')}>
            <Trans>Accept all</Trans>
          </Button>
          <Button
            variant="secondary"
            busy={busyWith === 'decline'}
            disabled={busy}
            onClick={() => answer('decline')}
          >
            <Trans>Decline</Trans>
          </Button>
        </div>
      </div>
    </div>
  );
}

/** "Cancel the rest of the series" on one of its weeks, with a confirmation first. */
export function CancelRestOfSeries({
  lesson,
  other,
  onChanged,
}: {
  lesson: Lesson;
  other: string;
  onChanged: (notice: string) => void;
}) {
  const { t } = useLingui();
  const { busy, problem, run } = useApiAction();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const panelId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const seriesId = lesson.seriesId;
  const subject = lesson.subject;
  if (!seriesId) return null;
  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };
  const confirm = async () => {
    let kept = 0;
    const done = await run(
      () =>
        request(
          api.series[':id'].cancel.$post({
            param: { id: seriesId },
            json: reason.trim() ? { reason: reason.trim() } : {},
          }),
        ),
      {
        onDone: (answer) => {
          kept = answer.series.kept.length;
        },
      },
    );
    if (!done) return;
    setOpen(false);
    const cancelled = t`Weekly ${subject} lessons with ${other} cancelled. You will both get a mail for each.`;
    const stay = t`${plural(kept, {
      one: '# lesson starts within 24 hours and stays.',
      other: '# lessons start within 24 hours and stay.',
    })}`;
    onChanged(kept > 0 ? `${cancelled} ${stay}` : cancelled);
  };
  return (
    <div className="mt-2 space-y-2">
      {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
      <Button
        ref={toggle}
        variant="secondary"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        <Trans>Cancel the rest of the series</Trans>
      </Button>
      <div id={panelId}>
        {open ? (
          <CancelSeriesConfirmation
            what={t`${subject} with ${other}`}
            other={other}
            reason={reason}
            onReason={setReason}
            busy={busy}
            onKeep={close}
            onConfirm={confirm}
          />
        ) : null}
      </div>
    </div>
  );
}

function CancelSeriesConfirmation({
  what,
  other,
  reason,
  onReason,
  busy,
  onKeep,
  onConfirm,
}: {
  what: string;
  other: string;
  reason: string;
  onReason: (reason: string) => void;
  busy: boolean;
  onKeep: () => void;
  onConfirm: () => void;
}) {
  const { t } = useLingui();
  return (
    <ConfirmPanel question={t`Cancel the rest of the series?`} onKeep={onKeep}>
      <p className="text-sm text-slate-700">
        <Trans>
          Every lesson of this weekly series ({what}) that has not started is cancelled, each under the usual
          cancellation rules: a lesson less than 24 hours away stays. {other} will get a mail for each.
        </Trans>
      </p>
      <TextArea
        label={t`Reason (optional)`}
        rows={2}
        maxLength={MAX_CANCEL_REASON_LENGTH}
        value={reason}
        onChange={(event) => onReason(event.target.value)}
        hint={t`${other} will see it in the cancellation mails.`}
      />
      <div className="flex flex-wrap gap-2">
        <Button variant="danger" busy={busy} disabled={busy} onClick={onConfirm}>
          <Trans>Yes, cancel the rest</Trans>
        </Button>
        <Button variant="ghost" onClick={onKeep}>
          <Trans>Keep the series</Trans>
        </Button>
      </div>
    </ConfirmPanel>
  );
}
