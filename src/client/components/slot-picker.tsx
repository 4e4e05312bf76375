/**
 * A tutor's free times as the best schedulers show them: the seven days of a week, each saying
 * whether it has free times, then only the chosen day's times, in the viewer's zone (each a toggle
 * button named by its start, "09:00"). Choosing a time opens the confirmation right under that
 * time's row and brings it into view, so on a phone nothing happens out of sight. Used to book a
 * lesson and to move one. The week starts today; the viewer pages a week at a time.
 */
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { formatLocale } from '../../shared/format-locale';
import { addDays, localDate, startOfLocalDay } from '../../shared/lessons/lesson-times';
import { api, failureMessage, request } from '../lib/api';
import { i18n } from '../lib/i18n';
import { monthDayLabel, shortDayLabel, weekdayLabel } from '../lib/time-labels';
import { Button } from './button';
import { ErrorMessage } from './messages';
import { countLabel, DayTimes, type Slot } from './slot-picker-day';
import { Spinner } from './spinner';

export type { Slot };

/** How many weeks ahead the viewer may page: a year, past any tutor's booking horizon. */
const MAX_WEEKS_AHEAD = 52;
/** How far past an empty week the picker looks for the next free day (the API answers up to 31 days). */
const LOOK_AHEAD_WEEKS = 4;

type Loaded =
  | { kind: 'loading' }
  | { kind: 'ready'; slots: Slot[]; refreshing: boolean }
  | { kind: 'failed'; message: string };

/** What lies past an empty week: nothing known yet, the next day with free times, or none. */
type NextFree = { kind: 'looking' } | { kind: 'found'; day: string } | { kind: 'none' } | null;

const dayNumber = (day: string) => new Intl.NumberFormat(formatLocale()).format(Number(day.slice(8, 10)));

const NOT_LOADED = msg`The free times could not be loaded.`;

/** An arrow that points back or forward, turned around in a right-to-left page. */
const Arrow = ({ children }: { children: string }) => (
  <span aria-hidden="true" className="inline-block rtl:-scale-x-100">
    {children}
  </span>
);

/** Whole days from one local date to another (both "YYYY-MM-DD", read as UTC dates: no zone shifts). */
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

export function SlotPicker({
  tutorId,
  minutes,
  timeZone,
  selected,
  onSelect,
  refreshKey = 0,
  initialStart = null,
  children,
}: {
  tutorId: string;
  minutes: number;
  timeZone: string;
  selected: string | null;
  /** A time chosen, or none (another day or week was chosen, or the time is no longer free). */
  onSelect: (slot: Slot | null) => void;
  /** Changing it loads the week again (after a booking took a time). */
  refreshKey?: number;
  /**
   * A time to open on (its week and day), such as one a link asked for; whether it is offered is
   * up to the week's times, and `selected` is dropped when it is not.
   */
  initialStart?: string | null;
  /** What to do with the chosen time (a subject and "Confirm booking"; "Move the lesson"), shown right under it. */
  children?: (slot: Slot) => ReactNode;
}) {
  const { t } = useLingui();
  const today = localDate(Date.now(), timeZone);
  const initialDay = initialStart ? localDate(Date.parse(initialStart), timeZone) : null;
  const [week, setWeek] = useState(() => {
    const ahead = initialDay ? Math.floor(daysBetween(today, initialDay) / 7) : 0;
    return Number.isFinite(ahead) ? Math.min(Math.max(ahead, 0), MAX_WEEKS_AHEAD) : 0;
  });
  const [state, setState] = useState<Loaded>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // The day the viewer chose; while it has no free times (none chosen, or its times were taken),
  // the first day of the week that has some is shown instead.
  const [chosenDay, setChosenDay] = useState<string | null>(initialDay);
  const [nextFree, setNextFree] = useState<NextFree>(null);
  const first = addDays(today, week * 7);
  const days = Array.from({ length: 7 }, (_, i) => addDays(first, i));
  const loadedFor = useRef('');

  const load = useCallback(
    async (signal: AbortSignal) => {
      const key = `${tutorId}|${minutes}|${timeZone}|${first}`;
      // The same week again (a booking took a time): keep it on screen while it reloads.
      setState((current) =>
        current.kind === 'ready' && loadedFor.current === key
          ? { ...current, refreshing: true }
          : { kind: 'loading' },
      );
      setNextFree(null);
      let weekLoaded = false;
      try {
        const from = new Date(Math.max(Date.now(), startOfLocalDay(first, timeZone))).toISOString();
        const to = new Date(startOfLocalDay(addDays(first, 7), timeZone)).toISOString();
        const answer = await request(
          api.tutors[':id'].slots.$get(
            { param: { id: tutorId }, query: { from, to, minutes: String(minutes) } },
            { init: { signal } },
          ),
        );
        loadedFor.current = key;
        weekLoaded = true;
        setState({ kind: 'ready', slots: answer.slots, refreshing: false });
        if (answer.slots.length > 0) return;
        // An empty week: look further, so the viewer is offered the next day that has times.
        setNextFree({ kind: 'looking' });
        const later = await request(
          api.tutors[':id'].slots.$get(
            {
              param: { id: tutorId },
              query: {
                from: to,
                to: new Date(
                  startOfLocalDay(addDays(first, 7 * (1 + LOOK_AHEAD_WEEKS)), timeZone),
                ).toISOString(),
                minutes: String(minutes),
              },
            },
            { init: { signal } },
          ),
        );
        const found = later.slots[0];
        setNextFree(
          found ? { kind: 'found', day: localDate(Date.parse(found.start), timeZone) } : { kind: 'none' },
        );
      } catch (error) {
        if ((error as Error).name === 'AbortError') return;
        // The week itself loaded and only the look ahead failed: the week stays, Next week still works.
        if (weekLoaded) {
          setNextFree(null);
          return;
        }
        setState({ kind: 'failed', message: failureMessage(error, i18n._(NOT_LOADED)) });
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
  const slots = state.kind === 'ready' ? state.slots : null;
  const hasTimes = (day: string | null) => day !== null && (byDay.get(day)?.length ?? 0) > 0;
  const shownDay = hasTimes(chosenDay) ? chosenDay : (days.find(hasTimes) ?? null);

  // A chosen time that is no longer offered (taken meanwhile) is no longer chosen.
  useEffect(() => {
    if (slots && selected && !slots.some((slot) => slot.start === selected)) onSelect(null);
  }, [slots, selected, onSelect]);

  const goToWeek = (next: number, day: string | null = null) => {
    setWeek(next);
    setChosenDay(day);
    onSelect(null);
  };

  const chooseDay = (day: string) => {
    if (day === shownDay) return;
    setChosenDay(day);
    if (selected) onSelect(null);
  };

  const from = monthDayLabel(startOfLocalDay(first, timeZone), timeZone);
  const to = monthDayLabel(startOfLocalDay(addDays(first, 6), timeZone), timeZone);
  const rangeLabel = t`${from} – ${to}`;
  const dayName = useId();

  return (
    <div>
      <div className="flex items-center justify-between gap-2">
        <Button
          variant="secondary"
          onClick={() => goToWeek(week - 1)}
          disabled={week === 0}
          aria-label={t`Previous week`}
        >
          <Arrow>←</Arrow>
        </Button>
        <p className="text-center text-sm font-semibold text-slate-800" aria-live="polite">
          {rangeLabel}
        </p>
        <Button
          variant="secondary"
          onClick={() => goToWeek(week + 1)}
          disabled={week >= MAX_WEEKS_AHEAD}
          aria-label={t`Next week`}
        >
          <Arrow>→</Arrow>
        </Button>
      </div>

      <fieldset className="mt-3" aria-busy={state.kind === 'loading' || undefined}>
        <legend className="sr-only">
          <Trans>Day</Trans>
        </legend>
        <div className="grid grid-cols-7 gap-1">
          {days.map((day) => {
            const at = startOfLocalDay(day, timeZone);
            const count = byDay.get(day)?.length ?? 0;
            const known = state.kind === 'ready';
            const weekday = weekdayLabel(at, timeZone);
            const dayLabel = shortDayLabel(at, timeZone);
            const times = countLabel(count);
            return (
              <label
                key={day}
                className={`relative flex min-h-16 select-none flex-col items-center justify-center rounded-lg border px-0.5 py-1.5 text-center transition-colors has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600 ${
                  shownDay === day
                    ? 'border-brand-700 bg-brand-700 text-white'
                    : known && count > 0
                      ? 'border-slate-300 bg-white text-slate-900 hover:border-brand-600 hover:bg-brand-50'
                      : 'cursor-not-allowed border-transparent bg-slate-50 text-slate-500'
                }`}
              >
                <input
                  type="radio"
                  name={dayName}
                  value={day}
                  // Over the whole day, unseen: a click anywhere on the day is a click on it.
                  className="absolute inset-0 m-0 size-full cursor-pointer appearance-none rounded-lg opacity-0 disabled:cursor-not-allowed"
                  checked={shownDay === day}
                  disabled={!known || count === 0}
                  onChange={() => chooseDay(day)}
                  aria-label={known ? t`${dayLabel}, ${times}` : t`${dayLabel}, loading`}
                />
                <span className="text-xs font-medium">{weekday}</span>
                <span className="text-lg font-semibold leading-6">{dayNumber(day)}</span>
                <span
                  className={`mt-0.5 size-1.5 rounded-full ${
                    known && count > 0 ? (shownDay === day ? 'bg-white' : 'bg-brand-600') : 'bg-transparent'
                  }`}
                />
              </label>
            );
          })}
        </div>
      </fieldset>

      <div
        className="mt-4"
        aria-busy={state.kind === 'loading' || (state.kind === 'ready' && state.refreshing)}
      >
        {state.kind === 'loading' ? (
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner /> <Trans>Loading free times…</Trans>
          </p>
        ) : state.kind === 'failed' ? (
          <div className="space-y-3">
            <ErrorMessage>{state.message}</ErrorMessage>
            <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
              <Trans>Try loading the free times again</Trans>
            </Button>
          </div>
        ) : state.slots.length === 0 ? (
          <EmptyWeek
            nextFree={nextFree}
            timeZone={timeZone}
            onGo={(day) => goToWeek(Math.floor(daysBetween(today, day) / 7), day)}
          />
        ) : shownDay ? (
          <DayTimes
            key={shownDay}
            day={shownDay}
            slots={byDay.get(shownDay) ?? []}
            timeZone={timeZone}
            selected={selected}
            onSelect={onSelect}
          >
            {children}
          </DayTimes>
        ) : null}
      </div>
    </div>
  );
}

/** An empty week, and the way to the next day that has free times. */
function EmptyWeek({
  nextFree,
  timeZone,
  onGo,
}: {
  nextFree: NextFree;
  timeZone: string;
  onGo: (day: string) => void;
}) {
  const weeks = LOOK_AHEAD_WEEKS;
  const nextDay =
    nextFree?.kind === 'found' ? shortDayLabel(startOfLocalDay(nextFree.day, timeZone), timeZone) : '';
  return (
    <div className="rounded-lg bg-slate-50 px-4 py-3 text-sm text-slate-700">
      <p>
        <Trans>No free times this week.</Trans>
      </p>
      {nextFree?.kind === 'looking' ? (
        <p className="mt-2 flex items-center gap-2 text-slate-600">
          <Spinner /> <Trans>Looking for the next free day…</Trans>
        </p>
      ) : nextFree?.kind === 'found' ? (
        <Button variant="secondary" className="mt-3" onClick={() => onGo(nextFree.day)}>
          <Trans>Next free day: {nextDay}</Trans>
        </Button>
      ) : nextFree?.kind === 'none' ? (
        <p className="mt-1">
          <Plural
            value={weeks}
            one="None in the week after it either. Please check back later."
            other="None in the # weeks after it either. Please check back later."
          />
        </p>
      ) : null}
    </div>
  );
}
