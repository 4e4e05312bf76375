/**
 * The booking box's "Repeat every week" choice: a number of weeks, and before the student confirms,
 * the server's preview of the weeks a series would book and those it would skip, with why.
 */

import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import type { InferResponseType } from 'hono/client';
import { useEffect, useId, useState } from 'react';
import { formatAmount } from '../../../shared/amounts';
import {
  MAX_REPEAT_WEEKS,
  MIN_REPEAT_WEEKS,
  type SkipReason,
  skipReasonLabels,
} from '../../../shared/lessons/series';
import { TextField } from '../../components/text-field';
import { ApiError, api, request } from '../../lib/api';
import { translated } from '../../lib/i18n';
import { instantLabel, lessonTimeLabel } from '../../lib/time-labels';

export type SeriesPreview = InferResponseType<(typeof api.lessons)['preview-series']['$get'], 200>;

const min = MIN_REPEAT_WEEKS;
const max = MAX_REPEAT_WEEKS;
export const WEEKS_PROBLEM = msg`Choose ${min} to ${max} weeks`;

/** The weeks typed, or null while they are not a whole number from 2 to 26. */
export function weeksFrom(text: string): number | null {
  if (!/^\d{1,2}$/.test(text.trim())) return null;
  const weeks = Number(text);
  return weeks >= MIN_REPEAT_WEEKS && weeks <= MAX_REPEAT_WEEKS ? weeks : null;
}

/** The checkbox and the number of weeks. */
export function RepeatChoice({
  repeat,
  onRepeat,
  weeksText,
  onWeeks,
}: {
  repeat: boolean;
  onRepeat: (repeat: boolean) => void;
  weeksText: string;
  onWeeks: (text: string) => void;
}) {
  const { t } = useLingui();
  const valid = weeksFrom(weeksText) !== null;
  return (
    <div className="space-y-2">
      <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          className="size-5"
          checked={repeat}
          onChange={(event) => onRepeat(event.target.checked)}
        />
        <Trans>Repeat every week</Trans>
      </label>
      {repeat ? (
        <div>
          <TextField
            label={t`Weeks`}
            type="number"
            inputMode="numeric"
            min={MIN_REPEAT_WEEKS}
            max={MAX_REPEAT_WEEKS}
            className="max-w-xs"
            value={weeksText}
            onChange={(event) => onWeeks(event.target.value)}
            hint={t`The same time each week, ${min} to ${max} weeks.`}
            aria-invalid={valid ? undefined : true}
          />
          {valid ? null : (
            <p role="alert" className="mt-1 text-sm font-medium text-red-700">
              {t(WEEKS_PROBLEM)}
            </p>
          )}
        </div>
      ) : null}
    </div>
  );
}

/** The preview of a series from the chosen time, read again whenever the time, length or weeks change. */
export function useSeriesPreview(
  query: { tutorId: string; start: string; minutes: number; weeks: number } | null,
): { preview: SeriesPreview | null; problem: string | null; loading: boolean } {
  const [state, setState] = useState<{
    preview: SeriesPreview | null;
    problem: string | null;
    loading: boolean;
  }>({ preview: null, problem: null, loading: false });
  const { t } = useLingui();
  const failed = t`The weeks could not be checked.`;
  const tutorId = query?.tutorId;
  const start = query?.start;
  const minutes = query?.minutes;
  const weeks = query?.weeks;
  useEffect(() => {
    if (!tutorId || !start || !minutes || !weeks) {
      setState({ preview: null, problem: null, loading: false });
      return;
    }
    const controller = new AbortController();
    setState((before) => ({ ...before, loading: true, problem: null }));
    request(
      api.lessons['preview-series'].$get(
        { query: { tutorId, start, minutes: String(minutes), repeatWeeks: String(weeks) } },
        { init: { signal: controller.signal } },
      ),
    )
      .then((preview) => setState({ preview, problem: null, loading: false }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState({
          preview: null,
          problem: error instanceof ApiError ? error.message : failed,
          loading: false,
        });
      });
    return () => controller.abort();
  }, [tutorId, start, minutes, weeks, failed]);
  return state;
}

/** The weeks a series would book, those it would skip and why, and the total held. */
export function SeriesPreviewList({ preview, timeZone }: { preview: SeriesPreview; timeZone: string }) {
  const headingId = useId();
  const count = preview.lessons.length;
  const total = formatAmount(preview.total.amountCents, preview.total.currency, { minor: 'always' });
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-slate-50 p-3">
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        <Plural
          value={count}
          one={`# weekly lesson · ${total} in all`}
          other={`# weekly lessons · ${total} in all`}
        />
      </h3>
      <ul className="mt-2 space-y-1 text-sm text-slate-800">
        {preview.lessons.map((lesson) => (
          <li key={lesson.start}>
            <bdi>{lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), timeZone)}</bdi>
          </li>
        ))}
      </ul>
      {preview.skipped.length > 0 ? (
        <>
          <p className="mt-3 text-sm font-semibold text-slate-900">
            <Trans>Not booked</Trans>
          </p>
          <ul className="mt-1 space-y-1 text-sm text-slate-700">
            {preview.skipped.map((week) => (
              <li key={week.start}>
                <bdi>{instantLabel(Date.parse(week.start), timeZone)}</bdi>:{' '}
                {translated(skipReasonLabels[week.reason as SkipReason])}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
