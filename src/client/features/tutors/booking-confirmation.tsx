/**
 * What the booking box shows under a chosen time: for a verified student (or a parent) the subject,
 * a note, "Repeat every week", the price against the balance and "Confirm booking"; for anyone else
 * what to do to book. Loaded when the person first reaches for the booking box (book-lesson.tsx),
 * not with the page: most visitors look at the times before they choose one. The choices that
 * outlive a time (the subject, the note, the weeks, the child) are the booking box's; what belongs
 * to one time (its failure, what the balance lacks for it) starts afresh with each time.
 */

import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import type { Amount } from '../../../shared/money/amounts';
import type { TutorPublicProfile } from '../../../shared/tutor-schemas';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/messages';
import type { Slot } from '../../components/slot-picker';
import { SelectField, TextArea } from '../../components/text-field';
import { ApiError, api, request } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { translated } from '../../lib/i18n';
import type { LessonPackage } from '../../lib/lesson-packages';
import { refreshWalletSummary } from '../../lib/wallet-summary';
import { ChildChoice, type useChildChoice } from '../family';
import type { Outcome } from './booking-outcome';
import { Lacking, neededAmount, PriceAgainstBalance } from './booking-price';
import { RepeatChoice, SeriesPreviewList, useSeriesPreview, WEEKS_PROBLEM, weeksFrom } from './repeat-weekly';

export { BookingOutcome } from './booking-outcome';
export { BookingPrompt } from './booking-prompt';

const CHOOSE_SUBJECT = msg`Choose a subject for the lesson`;

/** The booking box's choices that outlive a chosen time. */
export interface BookingChoices {
  subject: string;
  note: string;
  repeat: boolean;
  weeksText: string;
}

/** What a booking's answer changes in the booking box beyond the outcome told. */
export interface AfterBooking {
  /** The trial was taken (by this booking, or before it): no longer offered. */
  trialGone?: boolean;
  /** A package's credit was used, or the package was found used up: read the packages again. */
  packageUsed?: boolean;
}

export function BookingConfirmation({
  tutor,
  slot,
  minutes,
  trial,
  userId,
  parent,
  forChoice,
  choices,
  onChoices,
  idempotencyKey,
  usedPackage,
  priceCents,
  balance,
  currency,
  timeZone,
  onOutcome,
}: {
  tutor: TutorPublicProfile;
  slot: Slot;
  minutes: number;
  trial: boolean;
  userId: string;
  parent: boolean;
  /** A parent's choice of the child the lesson is for. */
  forChoice: ReturnType<typeof useChildChoice>;
  choices: BookingChoices;
  onChoices: (changed: Partial<BookingChoices>) => void;
  /** Made when the time was chosen: a retried or double-clicked confirmation books once. */
  idempotencyKey: string;
  usedPackage: LessonPackage | null;
  priceCents: number;
  balance: Amount | null;
  currency: string;
  timeZone: string;
  /** The booking was made, or the time was taken meanwhile: told above the days. */
  onOutcome: (outcome: Outcome, after: AfterBooking) => void;
}) {
  const { t } = useLingui();
  const { subject, note, weeksText } = choices;
  // "Repeat every week": a trial is one lesson, and a parent books one lesson at a time.
  const repeat = choices.repeat && !trial && !parent;
  const weeks = weeksFrom(weeksText);
  const series = useSeriesPreview(
    repeat && weeks !== null ? { tutorId: tutor.id, start: slot.start, minutes, weeks } : null,
  );
  const [subjectProblem, setSubjectProblem] = useState<string | null>(null);
  const subjectField = useRef<HTMLSelectElement>(null);
  const booking = useApiAction(t`The booking could not be made.`);
  const { busy, problem: failure, setProblem: setFailure } = booking;
  // What the server said the student lacks for this time.
  const [lacking, setLacking] = useState<Amount | null>(null);
  // A series holds every week's price at once: the balance is weighed against the total.
  const heldCents = repeat && series.preview ? series.preview.total.amountCents : priceCents;
  const packageLessons = usedPackage?.lessons ?? 0;
  const creditsLeft = usedPackage?.creditsLeft ?? 0;
  const box = useRef<HTMLDivElement>(null);

  // Under a time just chosen, the picker moved the focus to the time's line and brought it into
  // view; when this part arrives after that, it comes into view too, "Confirm booking" with it.
  // A time chosen by a link ("Book again") is not chosen by the person here: the page stays put.
  useEffect(() => {
    const panel = box.current?.parentElement;
    if (!panel?.contains(document.activeElement)) return;
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    box.current?.scrollIntoView({ block: 'nearest', behavior: still ? 'auto' : 'smooth' });
  }, []);

  async function confirm() {
    setLacking(null);
    if (repeat && weeks === null) {
      setFailure(t(WEEKS_PROBLEM));
      return;
    }
    if (parent && !forChoice.require(t`Choose the child the lesson is for`)) return;
    if (!subject) {
      setSubjectProblem(t(CHOOSE_SUBJECT));
      subjectField.current?.focus();
      return;
    }
    // The days below are read again by the picker, not through the page's loader.
    await booking.run(
      () =>
        request(
          api.lessons.$post(
            {
              json: {
                tutorId: tutor.id,
                ...(parent ? { studentId: forChoice.value } : {}),
                start: slot.start,
                ...(trial ? { trial: true as const } : { minutes }),
                // Named, so a package used up meanwhile is refused rather than paid from the balance.
                ...(usedPackage ? { packageId: usedPackage.id } : {}),
                subject,
                ...(note.trim() ? { note: note.trim() } : {}),
                ...(repeat && weeks !== null ? { repeatWeeks: weeks } : {}),
              },
            },
            { headers: { 'Idempotency-Key': idempotencyKey } },
          ),
        ),
      {
        reload: false,
        onDone: (answer) => {
          void refreshWalletSummary(userId);
          if ('series' in answer) {
            const [first] = answer.series.lessons;
            onOutcome(
              {
                kind: 'series',
                status: first?.status ?? 'confirmed',
                lessons: answer.series.lessons,
                skipped: answer.series.skipped.length,
              },
              {},
            );
            return;
          }
          const lesson = answer;
          onOutcome(
            { kind: 'booked', status: lesson.status, start: lesson.start, end: lesson.end },
            { trialGone: lesson.trial, packageUsed: Boolean(lesson.packageId) },
          );
        },
        onFailure: (error) => {
          // Too little money: the time stays chosen, with the way to top up what is missing.
          if (error instanceof ApiError && error.code === 'INSUFFICIENT_BALANCE') {
            setLacking(neededAmount(error.body) ?? { amountCents: 0, currency });
            void refreshWalletSummary(userId);
            return true;
          }
          // A time someone else took is gone: show the week as it is now.
          if (!(error instanceof ApiError && error.status === 409)) return false;
          onOutcome(
            { kind: 'failed', message: error.message },
            {
              // The trial can no longer be had here: back to the regular lengths.
              trialGone: error.code === 'TRIAL_TAKEN' || error.code === 'TRIAL_NOT_OFFERED',
              packageUsed: error.code === 'PACKAGE_USED_UP' || error.code === 'PACKAGE_ENDED',
            },
          );
          return true;
        },
      },
    );
  }

  // A change of what is asked makes the last failure and shortfall stale.
  const change = (changed: Partial<BookingChoices>) => {
    onChoices(changed);
    setFailure(null);
    setLacking(null);
  };

  return (
    <div ref={box} className="mt-3 scroll-mb-4 space-y-3">
      {parent ? <ChildChoice {...forChoice.props} /> : null}
      {tutor.subjects.length > 1 ? (
        <SelectField
          ref={subjectField}
          label={t`Subject`}
          value={subject}
          problem={subjectProblem}
          onChange={(event) => {
            onChoices({ subject: event.target.value });
            setSubjectProblem(null);
          }}
        >
          {subject === '' ? <option value="">{t`Choose a subject`}</option> : null}
          {tutor.subjects.map((item) => (
            <option key={item} value={item}>
              {translated(item)}
            </option>
          ))}
        </SelectField>
      ) : null}
      <TextArea
        label={t`Note for the tutor (optional)`}
        rows={2}
        maxLength={1000}
        value={note}
        onChange={(event) => onChoices({ note: event.target.value })}
        hint={t`What you would like to work on.`}
      />
      {trial || parent ? null : (
        <RepeatChoice
          repeat={repeat}
          onRepeat={(chosen) => change({ repeat: chosen })}
          weeksText={weeksText}
          onWeeks={(text) => change({ weeksText: text })}
        />
      )}
      {repeat && series.preview ? <SeriesPreviewList preview={series.preview} timeZone={timeZone} /> : null}
      {repeat && series.loading && !series.preview ? (
        <p className="text-sm text-slate-600">
          <Trans>Checking the weeks…</Trans>
        </p>
      ) : null}
      {repeat && series.problem ? <ErrorMessage>{series.problem}</ErrorMessage> : null}
      {usedPackage && !repeat ? (
        <p className="rounded-lg bg-brand-50 px-4 py-3 text-sm text-brand-900">
          {t`Paid with your package of ${plural(packageLessons, { one: '# lesson', other: '# lessons' })}: uses 1 of ${plural(creditsLeft, { one: '# credit', other: '# credits' })}`}
        </p>
      ) : balance ? (
        <PriceAgainstBalance priceCents={heldCents} balance={balance} lacking={lacking} />
      ) : null}
      {lacking && !balance ? <Lacking missing={lacking} refused /> : null}
      {failure ? <ErrorMessage>{failure}</ErrorMessage> : null}
      <Button size="lg" className="w-full" onClick={confirm} busy={busy} disabled={busy}>
        <Trans>Confirm booking</Trans>
      </Button>
    </div>
  );
}
