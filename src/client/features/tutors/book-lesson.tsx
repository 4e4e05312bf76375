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
 * What shows under a chosen time (booking-confirmation.tsx) is fetched when the person first
 * reaches for the box (a pointer over it, a touch, the focus inside), so that a visitor who only
 * reads the profile never loads it and one who chooses a time rarely waits for it.
 */

import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { formatAmount, minorPerUnit } from '../../../shared/amounts';
import type { ChildView } from '../../../shared/family/family-constants';
import { policySentence } from '../../../shared/lessons/cancellation-policy';
import { TRIAL_MINUTES } from '../../../shared/lessons/lesson-constants';
import { lessonPriceCents } from '../../../shared/lessons/lesson-price';
import { paths } from '../../../shared/routes';
import type { TutorPublicProfile } from '../../../shared/tutor-schemas';
import { type Slot, SlotPicker } from '../../components/slot-picker';
import { Spinner } from '../../components/spinner';
import { ZoneNote } from '../../components/zone-note';
import { translated, withTexts } from '../../lib/i18n';
import { type LessonPackage, packageFor, packagesOf } from '../../lib/lesson-packages';
import { usePaymentsConfig } from '../../lib/payments-config';
import { books } from '../../lib/roles';
import { browserTimeZone } from '../../lib/time-zones';
import { useWalletSummary } from '../../lib/wallet-summary';
import { useAuth } from '../auth';
import { useChildChoice } from '../family';
import type { AfterBooking, BookingChoices } from './booking-confirmation';
import type { Outcome } from './booking-outcome';
import { trialPrice as trialPriceText } from './labels';
import { LengthChoice } from './length-choice';
import { taughtSubject } from './searched-subject';

/** The part of the box under a chosen time, fetched once with its texts (see above). */
let confirmationModule: ReturnType<typeof loadConfirmation> | undefined;
function loadConfirmation() {
  return withTexts(import('./booking-confirmation'), 'features/tutors/booking-confirmation.tsx');
}
const confirmationParts = () => {
  // A failed fetch is tried again next time.
  confirmationModule ??= loadConfirmation().catch((error: unknown) => {
    confirmationModule = undefined;
    throw error;
  });
  return confirmationModule;
};
const BookingConfirmation = lazy(async () => ({ default: (await confirmationParts()).BookingConfirmation }));
const BookingPrompt = lazy(async () => ({ default: (await confirmationParts()).BookingPrompt }));
const BookingOutcome = lazy(async () => ({ default: (await confirmationParts()).BookingOutcome }));

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
  const [choices, setChoices] = useState<BookingChoices>(() => ({
    subject:
      taughtSubject(tutor.subjects, searchedFor) ??
      (tutor.subjects.length === 1 ? (tutor.subjects[0] ?? '') : ''),
    note: '',
    repeat: false,
    weeksText: '4',
  }));
  const [outcome, setOutcome] = useState<Outcome | null>(null);
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

  const choose = (chosen: Slot | null) => {
    setSlot(chosen);
    if (!chosen) return;
    setKey(crypto.randomUUID());
    setOutcome(null);
  };

  // A failure while the time is still chosen is told beside "Confirm booking"; a booking, or a time
  // that was taken meanwhile, closes the confirmation and is told above the days, read again.
  const told = (what: Outcome, after: AfterBooking) => {
    if (after.trialGone) {
      setTrialOpen(false);
      setTrial(false);
    }
    setOutcome(what);
    setSlot(null);
    if (what.kind !== 'failed') setChoices((current) => ({ ...current, note: '' }));
    setRefreshKey((n) => n + 1);
    if (after.packageUsed) onPackageUsed?.();
  };

  // The confirmation the focus was in is gone: the focus and the view go to what happened.
  useEffect(() => {
    if (!outcome) return;
    outcomeBox.current?.focus({ preventScroll: true });
    outcomeBox.current?.scrollIntoView({ block: 'nearest' });
  }, [outcome]);

  // The server uses the same package (the oldest with a credit) when none is named.
  const usedPackage =
    trial || !payments.on
      ? null
      : packageFor(packagesOf(packages, parent ? forChoice.value : null), tutor.id, minutes);
  const priceCents = usedPackage
    ? usedPackage.perLessonCents
    : trial && trialPrice !== null
      ? trialPrice
      : lessonPriceCents(tutor.hourlyRate, minutes, minorPerUnit(payments.currency));
  const price = trial
    ? trialPriceText(priceCents, payments.currency)
    : formatAmount(priceCents, payments.currency);
  const firstName = tutor.displayName.split(' ')[0] ?? tutor.displayName;
  const trialMinutes = TRIAL_MINUTES;
  const trialAmount = trialPrice === null ? '' : trialPriceText(trialPrice, payments.currency);
  // Reaching for the box (a pointer over it, a touch, the focus inside) fetches what a chosen time shows.
  const reachFor = () => void confirmationParts().catch(() => undefined);

  return (
    <section
      id={BOOK_A_LESSON_ID}
      aria-labelledby={headingId}
      onPointerEnter={reachFor}
      onTouchStart={reachFor}
      onFocus={reachFor}
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
            {/* An outcome comes from the confirmation: its code is there by then. */}
            {outcome ? (
              <Suspense fallback={null}>
                <BookingOutcome outcome={outcome} timeZone={timeZone} firstName={firstName} />
              </Suspense>
            ) : null}
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
                  <Suspense
                    fallback={
                      <p role="status" className="mt-3 flex items-center gap-2 text-sm text-slate-600">
                        <Spinner /> <Trans>Loading the booking details…</Trans>
                      </p>
                    }
                  >
                    {canBook && user && slot ? (
                      <BookingConfirmation
                        // What belongs to one time (its failure, its shortfall) starts afresh with each.
                        key={slot.start}
                        tutor={tutor}
                        slot={slot}
                        minutes={minutes}
                        trial={trial}
                        userId={user.id}
                        parent={parent}
                        forChoice={forChoice}
                        choices={choices}
                        onChoices={(changed) => setChoices((current) => ({ ...current, ...changed }))}
                        idempotencyKey={key}
                        usedPackage={usedPackage}
                        priceCents={priceCents}
                        balance={balance}
                        currency={payments.currency}
                        timeZone={timeZone}
                        onOutcome={told}
                      />
                    ) : (
                      <BookingPrompt here={here} role={user?.role} verified={user?.emailVerified ?? false} />
                    )}
                  </Suspense>
                </>
              )}
            </SlotPicker>
          </div>
        </>
      )}
    </section>
  );
}
