/**
 * The preview of the times students could book in the next seven days (availability-preview.ts
 * computes them), following every edit of the form. Folded on a phone, it says how many times
 * there are.
 */
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useDeferredValue, useEffect, useState } from 'react';
import type { Interval } from '../../../shared/lessons/availability';
import { FoldingSection } from '../../components/fold';
import { translated } from '../../lib/i18n';
import { describeTimeZone } from '../../lib/time-zones';
import type { Draft } from './availability-draft';
import { PREVIEW_DAYS, previewDays } from './availability-preview';

const MINUTE = 60_000;

/** The time now, moved on every minute: slots inside the notice drop out as it passes. */
function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), MINUTE);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function AvailabilityPreview({ draft, busy }: { draft: Draft; busy: Interval[] }) {
  const { t } = useLingui();
  const now = useNow();
  // Typing stays quick on a slow phone: the preview may lag a keystroke behind.
  const shown = useDeferredValue(draft);
  const preview = previewDays(shown, busy, now, translated);
  const dayCount = PREVIEW_DAYS;
  const lessonMinutes = preview.minutes;
  const zone = describeTimeZone(shown.timeZone);
  const days = preview.days ?? [];
  const total = days.reduce((sum, day) => sum + day.times.length, 0);
  // Folded on a phone, the preview says how many times students could book.
  const summary = preview.problem
    ? preview.problem
    : total === 0
      ? t`No times to book in the next ${dayCount} days.`
      : t`${plural(total, {
          one: `# time students could book in the next ${dayCount} days.`,
          other: `# times students could book in the next ${dayCount} days.`,
        })}`;
  return (
    <FoldingSection
      headingId="preview-heading"
      title={t`Preview: the next ${dayCount} days`}
      summary={summary}
    >
      <p className="mt-1 text-sm text-slate-700">
        {lessonMinutes
          ? `${t`The start times students would see for a ${lessonMinutes}-minute lesson, as you have set things now.`} `
          : ''}
        <Trans>
          Times are in <span className="font-medium text-slate-900">{zone}</span>.
        </Trans>
      </p>
      {busy.length > 0 ? (
        <p className="mt-1 text-sm text-slate-700">
          <Trans>Times taken by your planned lessons, and the buffer around them, are left out.</Trans>
        </p>
      ) : null}
      {preview.problem ? (
        <p className="mt-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950">{preview.problem}</p>
      ) : (
        <>
          {total === 0 ? (
            <p className="mt-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950">
              <Trans>
                No times to book in the next {dayCount} days. Add hours, or shorten the minimum notice.
              </Trans>
            </p>
          ) : null}
          <ul className="mt-4 space-y-4">
            {days.map((day) => {
              const times = day.times.length;
              return (
                <li key={day.date}>
                  <h3 className="text-sm font-semibold text-slate-900">
                    {day.label}
                    <span className="font-normal text-slate-600">
                      {' '}
                      · {t`${plural(times, { one: '# time', other: '# times' })}`}
                    </span>
                  </h3>
                  {day.times.length > 0 ? (
                    <ul className="mt-1.5 flex flex-wrap gap-1.5">
                      {day.times.map((time) => (
                        <li
                          key={time.start}
                          className="rounded-md bg-brand-50 px-2 py-0.5 font-mono text-sm text-brand-900 tabular-nums"
                        >
                          {time.label}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </FoldingSection>
  );
}
