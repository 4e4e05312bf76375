/**
 * A week of a tutor's free times, grouped by the viewer's local day and shown in the viewer's
 * zone: each time is a toggle button named by its start ("09:00"). Used to book a lesson and to
 * move one. The week starts today; the viewer pages forward and back a week at a time.
 */
import { useCallback, useEffect, useState } from 'react';
import { addDays, localDate, startOfLocalDay } from '../../../shared/lessons/lesson-times';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/messages';
import { Spinner } from '../../components/spinner';
import { ApiError, api, request } from '../../lib/api';
import { clockLabel, shortDayLabel } from '../../lib/time-labels';

export interface Slot {
  start: string;
  end: string;
}

/** How many weeks ahead the viewer may page: a year, past any tutor's booking horizon. */
const MAX_WEEKS_AHEAD = 52;

export function SlotPicker({
  tutorId,
  minutes,
  timeZone,
  selected,
  onSelect,
  refreshKey = 0,
  label = 'Free times',
}: {
  tutorId: string;
  minutes: number;
  timeZone: string;
  selected: string | null;
  onSelect: (slot: Slot) => void;
  /** Changing it loads the week again (after a booking took a time). */
  refreshKey?: number;
  label?: string;
}) {
  const today = localDate(Date.now(), timeZone);
  const [week, setWeek] = useState(0);
  const [state, setState] = useState<
    { kind: 'loading' } | { kind: 'ready'; slots: Slot[] } | { kind: 'failed'; message: string }
  >({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const first = addDays(today, week * 7);
  const days = Array.from({ length: 7 }, (_, i) => addDays(first, i));

  const load = useCallback(
    async (signal: AbortSignal) => {
      setState({ kind: 'loading' });
      try {
        const from = new Date(Math.max(Date.now(), startOfLocalDay(first, timeZone))).toISOString();
        const to = new Date(startOfLocalDay(addDays(first, 7), timeZone)).toISOString();
        const answer = await request(
          api.tutors[':id'].slots.$get(
            { param: { id: tutorId }, query: { from, to, minutes: String(minutes) } },
            { init: { signal } },
          ),
        );
        setState({ kind: 'ready', slots: answer.slots });
      } catch (error) {
        if ((error as Error).name === 'AbortError') return;
        setState({
          kind: 'failed',
          message: error instanceof ApiError ? error.message : 'The free times could not be loaded.',
        });
      }
    },
    [first, timeZone, tutorId, minutes],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt and refreshKey ask for a new load on purpose
  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load, attempt, refreshKey]);

  const byDay = new Map<string, Slot[]>(days.map((day) => [day, []]));
  if (state.kind === 'ready')
    for (const slot of state.slots) byDay.get(localDate(Date.parse(slot.start), timeZone))?.push(slot);
  const rangeLabel = `${shortDayLabel(startOfLocalDay(first, timeZone), timeZone)} – ${shortDayLabel(
    startOfLocalDay(addDays(first, 6), timeZone),
    timeZone,
  )}`;

  return (
    <div>
      <div className="flex items-center justify-between gap-2">
        <Button
          variant="secondary"
          onClick={() => setWeek((w) => w - 1)}
          disabled={week === 0}
          aria-label="Previous week"
        >
          ←
        </Button>
        <p className="text-center text-sm font-semibold text-slate-800" aria-live="polite">
          {rangeLabel}
        </p>
        <Button
          variant="secondary"
          onClick={() => setWeek((w) => w + 1)}
          disabled={week >= MAX_WEEKS_AHEAD}
          aria-label="Next week"
        >
          →
        </Button>
      </div>

      <div className="mt-4" aria-busy={state.kind === 'loading'}>
        {state.kind === 'loading' ? (
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner /> Loading free times…
          </p>
        ) : state.kind === 'failed' ? (
          <div className="space-y-3">
            <ErrorMessage>{state.message}</ErrorMessage>
            <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
              Try loading the free times again
            </Button>
          </div>
        ) : state.slots.length === 0 ? (
          <p className="text-sm text-slate-700">No free times this week. Try the next week.</p>
        ) : (
          <div className="space-y-4">
            {[...byDay].map(([day, slots]) =>
              slots.length === 0 ? null : (
                <fieldset key={day}>
                  <legend className="text-sm font-semibold text-slate-900">
                    {shortDayLabel(startOfLocalDay(day, timeZone), timeZone)}
                    <span className="sr-only">, {label.toLowerCase()}</span>
                  </legend>
                  <div className="mt-2 flex flex-wrap gap-2">
                    {slots.map((slot) => {
                      const pressed = selected === slot.start;
                      return (
                        <button
                          key={slot.start}
                          type="button"
                          aria-pressed={pressed}
                          onClick={() => onSelect(slot)}
                          className={`min-w-16 rounded-lg border px-3 py-2 font-mono text-sm font-semibold transition-colors ${
                            pressed
                              ? 'border-brand-700 bg-brand-700 text-white'
                              : 'border-slate-300 bg-white text-slate-800 hover:border-brand-600 hover:bg-brand-50'
                          }`}
                        >
                          {clockLabel(Date.parse(slot.start), timeZone)}
                        </button>
                      );
                    })}
                  </div>
                </fieldset>
              ),
            )}
          </div>
        )}
      </div>
    </div>
  );
}
