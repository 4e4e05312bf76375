/**
 * What the visitor of a class's page can do about it: sign in to enrol; as a student, enrol (the
 * price of every session ahead held on their balance) or join the waitlist when it is full, and
 * leave; as its tutor, cancel it with a reason. Each change goes through useApiAction, which reads
 * the class again once it went through.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { formatAmount } from '../../../shared/amounts';
import { type Amount, topUpUnitsFor } from '../../../shared/money/amounts';
import { paths } from '../../../shared/routes';
import { Button, ButtonLink } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { TextArea } from '../../components/text-field';
import { ApiError } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { newIdempotencyKey } from '../../lib/idempotency';
import { usePaymentsConfig } from '../../lib/payments-config';
import { refreshWalletSummary } from '../../lib/wallet-summary';
import { useAuth } from '../auth';
import { ChildChoice, firstChoice, useFamilyChildren } from '../family';
import { type ClassView, cancelClass, enrol, fetchClass, leaveClass } from './class-api';
import { sessionsAhead } from './class-parts';

const boxClass = 'rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6';

export function ClassActions({ view }: { view: ClassView }) {
  const auth = useAuth();
  const location = useLocation();
  const user = auth.status === 'signed-in' ? auth.user : null;
  const open = view.status === 'scheduled' || view.status === 'held';
  if (user && user.id === view.tutor.id) return open ? <TutorActions view={view} /> : null;
  if (!user) {
    if (!open) return null;
    const back = encodeURIComponent(`${location.pathname}${location.search}`);
    return (
      <div className={boxClass}>
        <p className="text-sm text-slate-700">
          <Trans>Sign in as a student to enrol in this class.</Trans>
        </p>
        <ButtonLink to={`${paths.login}?redirectTo=${back}`} className="mt-3 w-full">
          <Trans>Sign in to enrol</Trans>
        </ButtonLink>
      </div>
    );
  }
  if (user.role === 'parent') return open ? <ParentActions view={view} userId={user.id} /> : null;
  if (user.role !== 'student') return null;
  return <StudentActions view={view} verified={user.emailVerified} userId={user.id} />;
}

/**
 * A parent enrols one of their children (chosen under "For"), the sessions ahead held on the
 * parent's balance, and sees the chosen child's place (read for that child): enrolled or waiting,
 * with a way to take them out, or the button to enrol them.
 */
function ParentActions({ view, userId }: { view: ClassView; userId: string }) {
  const { t } = useLingui();
  const payments = usePaymentsConfig();
  const family = useFamilyChildren(true);
  const acting = useApiAction();
  const [forChild, setForChild] = useState('');
  const [forProblem, setForProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [lacking, setLacking] = useState<Amount | null>(null);
  const [takingOut, setTakingOut] = useState(false);
  const [key, setKey] = useState(newIdempotencyKey);
  const ahead = sessionsAhead(view);
  const full = view.seatsTaken >= view.seats;
  const totalCents = view.price.amountCents * ahead.length;
  const total = formatAmount(totalCents, view.price.currency, { minor: 'always' });
  const count = ahead.length;
  const childId = forChild || firstChoice(family);
  const childName = family?.find((child) => child.id === childId)?.firstName ?? '';
  const place = useChildPlace(view, childId);
  const placed = place?.status === 'enrolled' || place?.status === 'waitlisted';
  const position = place?.position ?? 0;
  const takeOut = () =>
    acting.run(() => leaveClass(view.id, childId), {
      onDone: () => {
        setTakingOut(false);
        setDone(t`${childName} is out of the class.`);
        void refreshWalletSummary(userId);
      },
    });
  const join = () => {
    if (!childId) {
      setForProblem(t`Choose the child the seat is for`);
      return;
    }
    const name = family?.find((child) => child.id === childId)?.firstName ?? '';
    return acting.run(() => enrol(view.id, key, childId), {
      onDone: (standing) => {
        setKey(newIdempotencyKey());
        setLacking(null);
        setDone(
          (standing as { status?: string }).status === 'waitlisted'
            ? t`${name} is on the waitlist.`
            : t`${name} is enrolled.`,
        );
        void refreshWalletSummary(userId);
      },
      onFailure: (error) => {
        const missing = shortfallOf(error, { amountCents: totalCents, currency: view.price.currency });
        if (missing) setLacking(missing);
        return missing !== null;
      },
    });
  };
  return (
    <div className={`${boxClass} space-y-3`}>
      {done ? <StatusMessage>{done}</StatusMessage> : null}
      {placed || count === 0 ? null : full ? (
        <p className="text-sm text-slate-700">
          <Trans>Every seat is taken. Join the waitlist: nothing is paid until a seat is yours.</Trans>
        </p>
      ) : payments.on && totalCents > 0 ? (
        <p className="text-sm text-slate-700">
          <Trans>
            Enrolling holds <strong className="font-semibold text-slate-900">{total}</strong> from your
            balance for the {count} sessions ahead, paid to the tutor session by session once each takes
            place.
          </Trans>
        </p>
      ) : null}
      <ChildChoice
        family={family}
        value={childId}
        problem={forProblem}
        onChange={(chosen) => {
          setForChild(chosen);
          setForProblem(null);
          setDone(null);
        }}
      />
      {placed ? (
        <div className="space-y-3">
          <p className="text-sm font-medium text-slate-900">
            {place?.status === 'enrolled'
              ? t`${childName} has a seat in this class.`
              : t`${childName} is number ${position} on the waitlist.`}
          </p>
          {takingOut ? (
            <div className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-950">
              <p>
                <Trans>
                  Take {childName} out of the class? Their seats ahead are released to your wallet under the
                  tutor's cancellation policy, and the next on the waitlist moves up.
                </Trans>
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <Button variant="danger" onClick={takeOut} busy={acting.busy}>
                  <Trans>Yes, take {childName} out</Trans>
                </Button>
                <Button variant="secondary" onClick={() => setTakingOut(false)}>
                  <Trans>Keep {childName} in</Trans>
                </Button>
              </div>
            </div>
          ) : (
            <Button variant="secondary" className="w-full" onClick={() => setTakingOut(true)}>
              <Trans>Take {childName} out of the class</Trans>
            </Button>
          )}
        </div>
      ) : family && family.length > 0 && count > 0 ? (
        <Button
          className="w-full"
          size="lg"
          onClick={join}
          busy={acting.busy}
          aria-disabled={acting.busy || undefined}
        >
          {full ? <Trans>Join the waitlist</Trans> : <Trans>Enrol</Trans>}
        </Button>
      ) : null}
      <Shortfall lacking={lacking} />
      {acting.problem ? <ErrorMessage>{acting.problem}</ErrorMessage> : null}
    </div>
  );
}

/** What an enrolment refused for a short balance (409 INSUFFICIENT_BALANCE) lacks; null for any other failure. */
function shortfallOf(error: unknown, fallback: Amount): Amount | null {
  if (!(error instanceof ApiError) || error.code !== 'INSUFFICIENT_BALANCE') return null;
  return (error.body as { needed?: Amount } | null)?.needed ?? fallback;
}

/** What the balance lacks for the class, with the way to top up that much. */
function Shortfall({ lacking }: { lacking: Amount | null }) {
  if (!lacking) return null;
  const short = formatAmount(lacking, { minor: 'always' });
  return (
    <div
      role="alert"
      className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950"
    >
      <Trans>Your balance is {short} short for this class.</Trans>{' '}
      <Link to={`${paths.wallet}?amount=${topUpUnitsFor(lacking)}`} className="font-semibold underline">
        <Trans>Top up your wallet</Trans>
      </Link>
    </div>
  );
}

/**
 * The chosen child's place in the class, read for that child (null while read, or with no child
 * chosen); read again with the class, which each change reads again.
 */
function useChildPlace(view: ClassView, childId: string) {
  const [place, setPlace] = useState<ClassView['you']>(null);
  useEffect(() => {
    setPlace(null);
    if (!childId) return;
    const abort = new AbortController();
    fetchClass(view.id, abort.signal, childId)
      .then((read) => setPlace(read.you))
      .catch(() => {});
    return () => abort.abort();
  }, [view, childId]);
  return place;
}

function StudentActions({ view, verified, userId }: { view: ClassView; verified: boolean; userId: string }) {
  const { t } = useLingui();
  const payments = usePaymentsConfig();
  const acting = useApiAction();
  const [lacking, setLacking] = useState<Amount | null>(null);
  const [leaving, setLeaving] = useState(false);
  const leaveButton = useRef<HTMLButtonElement>(null);
  // One enrolment's key: the same if it is sent again, a new one once it went through.
  const [key, setKey] = useState(newIdempotencyKey);
  const you = view.you;
  const open = view.status === 'scheduled' || view.status === 'held';
  const ahead = sessionsAhead(view);
  const full = view.seatsTaken >= view.seats;
  const totalCents = view.price.amountCents * ahead.length;
  const total = formatAmount(totalCents, view.price.currency, { minor: 'always' });
  const count = ahead.length;
  const position = you?.position ?? 0;

  const join = () =>
    acting.run(() => enrol(view.id, key), {
      onDone: () => {
        setKey(newIdempotencyKey());
        setLacking(null);
        void refreshWalletSummary(userId);
      },
      onFailure: (error) => {
        const missing = shortfallOf(error, { amountCents: totalCents, currency: view.price.currency });
        if (missing) setLacking(missing);
        return missing !== null;
      },
    });
  const leave = () =>
    acting.run(() => leaveClass(view.id), {
      onDone: () => {
        setLeaving(false);
        void refreshWalletSummary(userId);
      },
    });
  const keep = () => {
    setLeaving(false);
    leaveButton.current?.focus();
  };

  return (
    <div className={`${boxClass} space-y-3`}>
      {you?.status === 'enrolled' ? (
        <StatusMessage>
          <Trans>You are enrolled.</Trans>
        </StatusMessage>
      ) : null}
      {you?.status === 'waitlisted' ? (
        <StatusMessage tone="info">
          <Trans>You are number {position} on the waitlist.</Trans>{' '}
          <Trans>If a seat frees up and your balance covers it, you are enrolled and we mail you.</Trans>
        </StatusMessage>
      ) : null}
      {!you?.status && open && count > 0 ? (
        <>
          {full ? (
            <p className="text-sm text-slate-700">
              <Trans>Every seat is taken. Join the waitlist: nothing is paid until a seat is yours.</Trans>
            </p>
          ) : payments.on && totalCents > 0 ? (
            <p className="text-sm text-slate-700">
              <Trans>
                Enrolling holds <strong className="font-semibold text-slate-900">{total}</strong> from your
                balance for the {count} sessions ahead, paid to the tutor session by session once each takes
                place.
              </Trans>
            </p>
          ) : null}
          {verified ? (
            <Button
              className="w-full"
              size="lg"
              onClick={join}
              busy={acting.busy}
              aria-disabled={acting.busy || undefined}
            >
              {full ? <Trans>Join the waitlist</Trans> : <Trans>Enrol</Trans>}
            </Button>
          ) : (
            <p className="text-sm text-slate-700">
              <Trans>Verify your email address to enrol.</Trans>{' '}
              <Link to={paths.verifyEmail} className="font-semibold text-brand-700 underline">
                <Trans>Verify your email</Trans>
              </Link>
            </p>
          )}
        </>
      ) : null}
      <Shortfall lacking={lacking} />
      {acting.problem ? <ErrorMessage>{acting.problem}</ErrorMessage> : null}
      {you?.status && open ? (
        <Button ref={leaveButton} variant="secondary" className="w-full" onClick={() => setLeaving(true)}>
          {you.status === 'waitlisted' ? <Trans>Leave the waitlist</Trans> : <Trans>Leave class</Trans>}
        </Button>
      ) : null}
      <Dialog
        open={leaving}
        onClose={keep}
        alert
        title={you?.status === 'waitlisted' ? t`Leave the waitlist?` : t`Leave the class?`}
        description={
          you?.status === 'waitlisted'
            ? t`You lose your place on the waitlist.`
            : totalCents === 0 || !payments.on
              ? t`Your seat goes to the next student on the waitlist.`
              : t`Your seat goes to the next student on the waitlist. The sessions after the next one are given back to your balance in full; if the next session starts within the tutor's cancellation window, its fee may be kept as the tutor's cancellation policy says.`
        }
      >
        {acting.problem ? (
          <div className="mt-3">
            <ErrorMessage>{acting.problem}</ErrorMessage>
          </div>
        ) : null}
        <div className="mt-4 flex flex-col gap-2 sm:flex-row-reverse">
          <Button
            variant="danger"
            onClick={leave}
            busy={acting.busy}
            aria-disabled={acting.busy || undefined}
          >
            {you?.status === 'waitlisted' ? <Trans>Leave the waitlist</Trans> : <Trans>Leave class</Trans>}
          </Button>
          <Button variant="secondary" onClick={keep}>
            {you?.status === 'waitlisted' ? <Trans>Keep my place</Trans> : <Trans>Stay enrolled</Trans>}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

function TutorActions({ view }: { view: ClassView }) {
  const { t } = useLingui();
  const acting = useApiAction();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const close = () => {
    setAsking(false);
    setMissing(false);
    acting.setProblem(null);
    cancelButton.current?.focus();
  };
  const cancel = () => {
    if (!reason.trim()) {
      setMissing(true);
      return;
    }
    void acting.run(() => cancelClass(view.id, reason.trim()), { onDone: () => setAsking(false) });
  };
  return (
    <div className={`${boxClass} space-y-3`}>
      <p className="text-sm text-slate-700">
        <Trans>You teach this class.</Trans>
      </p>
      <Button ref={cancelButton} variant="secondary" className="w-full" onClick={() => setAsking(true)}>
        <Trans>Cancel the class</Trans>
      </Button>
      <Dialog
        open={asking}
        onClose={close}
        alert
        title={t`Cancel the class?`}
        description={t`Every student and everyone waiting is told why, and every payment held is given back in full. This cannot be undone.`}
      >
        <div className="mt-4 space-y-3">
          <TextArea
            label={t`Why are you cancelling it?`}
            name="reason"
            rows={3}
            limit={500}
            value={reason}
            problem={missing ? t`Please say why` : null}
            onChange={(event) => {
              setReason(event.target.value);
              setMissing(false);
            }}
          />
          {acting.problem ? <ErrorMessage>{acting.problem}</ErrorMessage> : null}
          <div className="flex flex-col gap-2 sm:flex-row-reverse">
            <Button
              variant="danger"
              onClick={cancel}
              busy={acting.busy}
              aria-disabled={acting.busy || undefined}
            >
              <Trans>Cancel the class</Trans>
            </Button>
            <Button variant="secondary" onClick={close}>
              <Trans>Keep the class</Trans>
            </Button>
          </div>
        </div>
      </Dialog>
    </div>
  );
}
