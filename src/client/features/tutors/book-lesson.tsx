/**
 * The "Book a lesson" region of a tutor's page: a length, a week of free times in the viewer's
 * zone (a signed-in student's saved zone, else this browser's), and right under the chosen time
 * the subject, a note and "Confirm booking". The subject a search was for is preselected when the
 * tutor teaches it; a tutor of several subjects otherwise has the student choose, never a subject
 * picked for them. Anyone may look at the times; a visitor who is not a verified student is told
 * what to do to book. A booking carries an Idempotency-Key made when the time was chosen, so a
 * retried or double-clicked confirmation books once. A tutor's trial lesson is one more choice of
 * length while the student may still take it. A link may ask for a length and a time ("Book
 * again" asks for the same lesson a week on): each is preselected only when the tutor offers it. While students pay through Tutorlane, the
 * price is weighed against the student's balance before they confirm, and a balance too small for
 * it (as read here, or as the server finds it) leads to the wallet with the missing amount.
 * "Repeat every week" books a weekly series: the server's preview lists the weeks it would book and
 * skip before the student confirms, and the balance is weighed against all the weeks' prices.
 * A parent books for one of their children, chosen under "For" (required), on their own wallet;
 * the weekly series' preview is a student's, so a parent books one lesson at a time here.
 */

import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatAmount, minorPerUnit } from '../../../shared/amounts';
import type { ChildView } from '../../../shared/family/family-constants';
import { lessonPriceCents } from '../../../shared/lessons/availability';
import { policySentence } from '../../../shared/lessons/cancellation-policy';
import { TRIAL_MINUTES } from '../../../shared/lessons/lesson-constants';
import type { Amount } from '../../../shared/money/amounts';
import { paths } from '../../../shared/routes';
import type { TutorPublicProfile } from '../../../shared/tutor-schemas';
import { Button } from '../../components/button';
import { ZoneNote } from '../../components/lesson-parts';
import { ErrorMessage } from '../../components/messages';
import { type Slot, SlotPicker } from '../../components/slot-picker';
import { SelectField, TextArea } from '../../components/text-field';
import { ApiError, api, request } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { translated } from '../../lib/i18n';
import { type LessonPackage, packageFor, packagesOf } from '../../lib/lesson-packages';
import { usePaymentsConfig } from '../../lib/payments-config';
import { books } from '../../lib/roles';
import { browserTimeZone } from '../../lib/time-zones';
import { refreshWalletSummary, useWalletSummary } from '../../lib/wallet-summary';
import { useAuth } from '../auth';
import { ChildChoice, useChildChoice } from '../family';
import { BookingOutcome, type Outcome } from './booking-outcome';
import { Lacking, neededAmount, PriceAgainstBalance } from './booking-price';
import { BookingPrompt } from './booking-prompt';
import { trialPrice as trialPriceText } from './labels';
import { LengthChoice } from './length-choice';
import { RepeatChoice, SeriesPreviewList, useSeriesPreview, WEEKS_PROBLEM, weeksFrom } from './repeat-weekly';
import { taughtSubject } from './searched-subject';

const CHOOSE_SUBJECT = msg`Choose a subject for the lesson`;

/** The booking region's id: the tutor page's "Book a lesson" button leads to it. */
export const BOOK_A_LESSON_ID = 'book-a-lesson';

export function BookLesson({
  tutor,
  searchedFor = null,
  asked = {},
  packages = [],
  onPackageUsed,
  family = null,
}: {
  tutor: TutorPublicProfile;
  /** A parent's children, one of whom the lesson is for (null for anyone else, or while read). */
  family?: ChildView[] | null;
  /** The subject the search that led here was for, if any. */
  searchedFor?: string | null;
  /** A length and a start the link asked for (ISO 8601), preselected when offered. */
  asked?: { minutes?: number | null; start?: string | null };
  /** The student's lesson packages: one for this tutor and length pays instead of the balance. */
  packages?: LessonPackage[];
  /** A booking used (or may have used) a package's credit: read the packages again. */
  onPackageUsed?: () => void;
}) {
  const { t } = useLingui();
  const auth = useAuth();
  const user = auth.status === 'signed-in' ? auth.user : null;
  const canBook = books(user?.role) && user?.emailVerified === true;
  const parent = user?.role === 'parent';
  // A student's (or a parent's) times are in their saved zone, which the session carries from the
  // first render: a zone learnt later would leave the picker on a day counted in another zone.
  // Until a zone is saved (the first sign-in saves this browser's), and for anyone else, this browser's.
  const timeZone = (books(user?.role) ? user?.timeZone : null) ?? browserTimeZone();
  const forChoice = useChildChoice(family);
  const forChild = forChoice.value;
  const lengths = tutor.booking.lessonMinutes;
  const [chosenMinutes, setMinutes] = useState(
    asked.minutes && lengths.includes(asked.minutes)
      ? asked.minutes
      : lengths.includes(60)
        ? 60
        : (lengths[0] ?? 60),
  );
  // Once booked here (or refused as taken), the trial is no longer offered on this page.
  const [trialOpen, setTrialOpen] = useState(tutor.booking.trialAvailable && tutor.trial !== null);
  const [trial, setTrial] = useState(false);
  const trialPrice = trialOpen && tutor.trial ? tutor.trial.priceCents : null;
  const minutes = trial ? TRIAL_MINUTES : chosenMinutes;
  // A start asked for is chosen until the picker finds it is not offered (it then drops it).
  const [slot, setSlot] = useState<Slot | null>(() => {
    const start = asked.start ? Date.parse(asked.start) : Number.NaN;
    if (!Number.isFinite(start) || start <= Date.now()) return null;
    return { start: new Date(start).toISOString(), end: new Date(start + minutes * 60_000).toISOString() };
  });
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [subject, setSubject] = useState(
    () =>
      taughtSubject(tutor.subjects, searchedFor) ??
      (tutor.subjects.length === 1 ? (tutor.subjects[0] ?? '') : ''),
  );
  const [subjectProblem, setSubjectProblem] = useState<string | null>(null);
  const subjectField = useRef<HTMLSelectElement>(null);
  const [note, setNote] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // "Repeat every week": a trial is one lesson, so the choice is not offered with it.
  const [repeatChosen, setRepeat] = useState(false);
  const [weeksText, setWeeksText] = useState('4');
  const repeat = repeatChosen && !trial && !parent;
  const weeks = weeksFrom(weeksText);
  const series = useSeriesPreview(
    repeat && slot && canBook && weeks !== null
      ? { tutorId: tutor.id, start: slot.start, minutes, weeks }
      : null,
  );
  // A failure while the time is still chosen is told beside "Confirm booking"; a booking, or a time
  // that was taken meanwhile, closes the confirmation and is told above the days.
  const booking = useApiAction(t`The booking could not be made.`);
  const { busy, problem: failure, setProblem: setFailure } = booking;
  const outcomeBox = useRef<HTMLDivElement>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  const headingId = useId();
  const here = `${paths.tutors}/${encodeURIComponent(tutor.id)}`;
  const payments = usePaymentsConfig();
  // The balance is read afresh on arriving here: a top-up may have been confirmed since.
  const wallet = useWalletSummary(canBook && user ? user.id : null, {
    enabled: payments.on,
    freshness: 'now',
  });
  const balance = payments.on && wallet?.payments === 'on' ? wallet.balance : null;
  // What the server said the student lacks, for the time still chosen.
  const [lacking, setLacking] = useState<Amount | null>(null);

  const choose = (chosen: Slot | null) => {
    setSlot(chosen);
    setFailure(null);
    setLacking(null);
    if (!chosen) return;
    setKey(crypto.randomUUID());
    setOutcome(null);
  };

  // The confirmation the focus was in is gone: the focus and the view go to what happened.
  useEffect(() => {
    if (!outcome) return;
    outcomeBox.current?.focus({ preventScroll: true });
    outcomeBox.current?.scrollIntoView({ block: 'nearest' });
  }, [outcome]);

  async function confirm() {
    if (!slot) return;
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
    // The days below are read again by the picker (refreshKey), not through the page's loader.
    await booking.run(
      () =>
        request(
          api.lessons.$post(
            {
              json: {
                tutorId: tutor.id,
                ...(parent ? { studentId: forChild } : {}),
                start: slot.start,
                ...(trial ? { trial: true as const } : { minutes }),
                // Named, so a package used up meanwhile is refused rather than paid from the balance.
                ...(usedPackage ? { packageId: usedPackage.id } : {}),
                subject,
                ...(note.trim() ? { note: note.trim() } : {}),
                ...(repeat && weeks !== null ? { repeatWeeks: weeks } : {}),
              },
            },
            { headers: { 'Idempotency-Key': key } },
          ),
        ),
      {
        reload: false,
        onDone: (answer) => {
          if ('series' in answer) {
            const [first] = answer.series.lessons;
            setOutcome({
              kind: 'series',
              status: first?.status ?? 'confirmed',
              lessons: answer.series.lessons,
              skipped: answer.series.skipped.length,
            });
            setSlot(null);
            setNote('');
            setRefreshKey((n) => n + 1);
            if (user) void refreshWalletSummary(user.id);
            return;
          }
          const lesson = answer;
          if (lesson.trial) {
            setTrialOpen(false);
            setTrial(false);
          }
          setOutcome({ kind: 'booked', status: lesson.status, start: lesson.start, end: lesson.end });
          setSlot(null);
          setNote('');
          setRefreshKey((n) => n + 1);
          if (user) void refreshWalletSummary(user.id);
          if (lesson.packageId) onPackageUsed?.();
        },
        onFailure: (error) => {
          // Too little money: the time stays chosen, with the way to top up what is missing.
          if (error instanceof ApiError && error.code === 'INSUFFICIENT_BALANCE') {
            setLacking(neededAmount(error.body) ?? { amountCents: 0, currency: payments.currency });
            if (user) void refreshWalletSummary(user.id);
            return true;
          }
          // A time someone else took is gone: show the week as it is now.
          if (!(error instanceof ApiError && error.status === 409)) return false;
          if (error.code === 'PACKAGE_USED_UP' || error.code === 'PACKAGE_ENDED') onPackageUsed?.();
          // The trial can no longer be had here: back to the regular lengths.
          if (error.code === 'TRIAL_TAKEN' || error.code === 'TRIAL_NOT_OFFERED') {
            setTrialOpen(false);
            setTrial(false);
          }
          setOutcome({ kind: 'failed', message: error.message });
          setSlot(null);
          setRefreshKey((n) => n + 1);
          return true;
        },
      },
    );
  }

  // The server uses the same package (the oldest with a credit) when none is named.
  const usedPackage =
    trial || !payments.on
      ? null
      : packageFor(packagesOf(packages, parent ? forChild : null), tutor.id, minutes);
  const priceCents = usedPackage
    ? usedPackage.perLessonCents
    : trial && trialPrice !== null
      ? trialPrice
      : lessonPriceCents(tutor.hourlyRate, minutes, minorPerUnit(payments.currency));
  // A series holds every week's price at once: the balance is weighed against the total.
  const heldCents = repeat && series.preview ? series.preview.total.amountCents : priceCents;
  const price = trial
    ? trialPriceText(priceCents, payments.currency)
    : formatAmount(priceCents, payments.currency);
  const firstName = tutor.displayName.split(' ')[0] ?? tutor.displayName;
  const trialMinutes = TRIAL_MINUTES;
  const packageLessons = usedPackage?.lessons ?? 0;
  const creditsLeft = usedPackage?.creditsLeft ?? 0;
  const trialAmount = trialPrice === null ? '' : trialPriceText(trialPrice, payments.currency);

  return (
    <section
      id={BOOK_A_LESSON_ID}
      aria-labelledby={headingId}
      // Clear of the sticky navigation when the page's "Book a lesson" button brings it into view.
      className="scroll-mt-20 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      {/* Focusable from the script only: the page's "Book a lesson" button moves the focus here. */}
      <h2 id={headingId} tabIndex={-1} className="text-xl font-semibold text-slate-900 focus:outline-none">
        <Trans>Book a lesson</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {tutor.booking.instantBooking ? (
          <Trans>{firstName} confirms bookings at once.</Trans>
        ) : (
          <Trans>{firstName} accepts each request: you will hear within 48 hours.</Trans>
        )}{' '}
        {policySentence(tutor.booking.cancellationPolicy, translated)}
      </p>
      <ZoneNote timeZone={timeZone} className="mt-1" />
      {!user ? (
        <p className="mt-1 text-sm text-slate-700">
          <Trans>
            <Link to={paths.signup} className="font-semibold text-brand-700 underline">
              Sign up
            </Link>{' '}
            or{' '}
            <Link
              to={`${paths.login}?redirectTo=${encodeURIComponent(here)}`}
              className="font-semibold text-brand-700 underline"
            >
              sign in
            </Link>{' '}
            to book.
          </Trans>
        </p>
      ) : null}

      {!tutor.booking.hasHours ? (
        <p className="mt-4 rounded-lg bg-slate-50 px-4 py-3 text-sm text-slate-700">
          <Trans>{firstName} has not opened any times for booking yet. Please check back soon.</Trans>
        </p>
      ) : (
        <>
          <LengthChoice
            lengths={lengths}
            trial={trial}
            chosenMinutes={chosenMinutes}
            minutes={minutes}
            trialLabel={trialPrice !== null ? t`Trial lesson (${trialMinutes} min, ${trialAmount})` : null}
            priceOf={(length) =>
              formatAmount(
                lessonPriceCents(tutor.hourlyRate, length, minorPerUnit(payments.currency)),
                payments.currency,
              )
            }
            price={price}
            onChoose={(choice) => {
              setTrial(choice === 'trial');
              if (choice !== 'trial') setMinutes(choice);
              choose(null);
            }}
          />

          <div ref={outcomeBox} tabIndex={-1} className="scroll-mt-24 outline-none">
            <BookingOutcome outcome={outcome} timeZone={timeZone} firstName={firstName} />
          </div>

          <div className="mt-4">
            <SlotPicker
              // The week and day it opens on are counted in its zone: another zone opens it anew,
              // on the chosen time's day there.
              key={timeZone}
              tutorId={tutor.id}
              minutes={minutes}
              timeZone={timeZone}
              selected={slot?.start ?? null}
              onSelect={choose}
              refreshKey={refreshKey}
              initialStart={slot?.start ?? null}
            >
              {() => (
                <>
                  <p className="mt-0.5 text-sm text-slate-700">
                    {trial ? (
                      <>
                        <Trans>Trial lesson</Trans>
                        {' · '}
                      </>
                    ) : null}
                    <Trans>
                      {minutes} min · {price}
                    </Trans>
                    {tutor.subjects.length === 1 ? ` · ${translated(tutor.subjects[0] ?? '')}` : ''}
                  </p>
                  {canBook ? (
                    <div className="mt-3 space-y-3">
                      {parent ? <ChildChoice {...forChoice.props} /> : null}
                      {tutor.subjects.length > 1 ? (
                        <SelectField
                          ref={subjectField}
                          label={t`Subject`}
                          value={subject}
                          problem={subjectProblem}
                          onChange={(event) => {
                            setSubject(event.target.value);
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
                        onChange={(event) => setNote(event.target.value)}
                        hint={t`What you would like to work on.`}
                      />
                      {trial || parent ? null : (
                        <RepeatChoice
                          repeat={repeat}
                          onRepeat={(chosen) => {
                            setRepeat(chosen);
                            setFailure(null);
                            setLacking(null);
                          }}
                          weeksText={weeksText}
                          onWeeks={(text) => {
                            setWeeksText(text);
                            setFailure(null);
                            setLacking(null);
                          }}
                        />
                      )}
                      {repeat && series.preview ? (
                        <SeriesPreviewList preview={series.preview} timeZone={timeZone} />
                      ) : null}
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
                  ) : (
                    <BookingPrompt here={here} role={user?.role} verified={user?.emailVerified ?? false} />
                  )}
                </>
              )}
            </SlotPicker>
          </div>
        </>
      )}
    </section>
  );
}
