/**
 * /admin/lessons: the planned lessons still to come, found by a tutor's or student's name or email
 * (?search=), each with how often its tutor cancelled late, and an admin's two ways to step in:
 * cancel it (the student gets what they paid back in full) or move it, each for a reason both
 * people read in their mail.
 */

import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useId, useState } from 'react';
import { type LoaderFunctionArgs, useLoaderData, useNavigation } from 'react-router';
import { formatAmount } from '../../../shared/amounts';
import { paths } from '../../../shared/routes';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { PaymentBadge, StatusBadge } from '../../components/lesson-parts';
import { DoneNotice, ErrorMessage, useDoneNotice } from '../../components/messages';
import { Spinner } from '../../components/spinner';
import { TextArea, TextField } from '../../components/text-field';
import { ZoneNote } from '../../components/zone-note';
import { ApiError, failureMessage } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { i18n } from '../../lib/i18n';
import { lessonTimeLabel } from '../../lib/time-labels';
import { browserTimeZone, describeTimeZone } from '../../lib/time-zones';
import { type AdminLesson, cancelLesson, fetchLessons, moveLesson } from './admin-data';
import { AdminLayout, AdminSearch, EmptyState } from './admin-layout';

const REASON_LIMIT = 1000;

export async function loader({ request }: LoaderFunctionArgs) {
  const search = (new URL(request.url).searchParams.get('search') ?? '').trim();
  try {
    return { search, lessons: (await fetchLessons(search, request.signal)).lessons, error: null };
  } catch (error) {
    // A search the server refuses (too long, say) is said above the list, not as a broken page.
    if (error instanceof ApiError && error.status === 400)
      return { search, lessons: [] as AdminLesson[], error: failureMessage(error) };
    throw error;
  }
}

const lateCancellationsLabel = (count: number) =>
  i18n._(
    msg`${plural(count, { 0: 'No late cancellations', one: '# late cancellation', other: '# late cancellations' })}`,
  );

/** "Algebra with Tess Tutor and Sam Student, Tue, Dec 1, 17:00 – 18:00": a lesson as a sentence names it. */
const lessonName = (lesson: AdminLesson, timeZone: string) => {
  const subject = lesson.subject;
  const tutor = lesson.tutor.displayName;
  const student = lesson.student.displayName;
  const time = lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), timeZone);
  return i18n._(msg`${subject} with ${tutor} and ${student}, ${time}`);
};

export function Component() {
  const { search, lessons, error } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const searching = navigation.state === 'loading' && navigation.location?.pathname === paths.adminLessons;
  const timeZone = browserTimeZone();
  const { done, tell } = useDoneNotice();
  const [changing, setChanging] = useState<{ lesson: AdminLesson; change: 'cancel' | 'move' } | null>(null);
  /** A dialog closed, with what it did when it did something. */
  const closeChange = (text?: string) => {
    setChanging(null);
    if (text) tell(text);
  };
  const count = lessons.length;
  const { t } = useLingui();
  return (
    <AdminLayout
      title={t`Lessons`}
      intro={t`Every planned lesson still to come. Cancel one or move it to another time when its people cannot sort it out themselves: both are told, with your reason.`}
    >
      <div className="space-y-5">
        <AdminSearch
          name={t`Lessons`}
          label={t`Tutor or student`}
          search={search}
          searching={searching}
          allPath={paths.adminLessons}
        />

        <div className="flex flex-wrap items-center justify-between gap-2">
          <p aria-live="polite" className="flex min-h-6 items-center gap-2 font-medium text-slate-800">
            {searching ? (
              <>
                <Spinner /> <Trans>Searching…</Trans>
              </>
            ) : error ? null : search ? (
              t`${plural(count, {
                0: `No upcoming lessons for “${search}”`,
                one: `# upcoming lesson for “${search}”`,
                other: `# upcoming lessons for “${search}”`,
              })}`
            ) : (
              t`${plural(count, { 0: 'No upcoming lessons', one: '# upcoming lesson', other: '# upcoming lessons' })}`
            )}
          </p>
          <ZoneNote timeZone={timeZone} />
        </div>

        <DoneNotice done={done} />

        {error ? (
          <ErrorMessage>{error}</ErrorMessage>
        ) : count === 0 ? (
          <EmptyState>
            {search
              ? t`No upcoming lesson has a tutor or student matching “${search}”.`
              : t`No lessons are planned from now on.`}
          </EmptyState>
        ) : (
          <ul className="grid gap-4 lg:grid-cols-2">
            {lessons.map((lesson) => (
              <LessonCard
                key={lesson.id}
                lesson={lesson}
                timeZone={timeZone}
                onCancel={() => setChanging({ lesson, change: 'cancel' })}
                onMove={() => setChanging({ lesson, change: 'move' })}
              />
            ))}
          </ul>
        )}
      </div>
      {changing?.change === 'cancel' ? (
        <CancelDialog lesson={changing.lesson} timeZone={timeZone} onClose={closeChange} />
      ) : null}
      {changing?.change === 'move' ? (
        <MoveDialog lesson={changing.lesson} timeZone={timeZone} onClose={closeChange} />
      ) : null}
    </AdminLayout>
  );
}

function LessonCard({
  lesson,
  timeZone,
  onCancel,
  onMove,
}: {
  lesson: AdminLesson;
  timeZone: string;
  onCancel: () => void;
  onMove: () => void;
}) {
  const headingId = useId();
  const { t } = useLingui();
  const late = lesson.tutor.lateCancellations;
  const subject = lesson.subject;
  const minutes = lesson.minutes;
  const duration = t`${plural(minutes, { one: '# minute', other: '# minutes' })}`;
  return (
    <li>
      <article
        aria-labelledby={headingId}
        className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      >
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h2 id={headingId} className="font-semibold text-slate-900">
            <time dateTime={lesson.start}>
              {lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), timeZone)}
            </time>
            <span className="block font-normal text-slate-700">
              {subject} · {duration}
            </span>
          </h2>
          <div className="flex flex-wrap gap-1.5">
            <StatusBadge status={lesson.status} />
            <PaymentBadge payment={lesson.payment} reader="student" />
          </div>
        </div>
        <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-2">
          <div className="min-w-0">
            <dt className="font-medium text-slate-600">
              <Trans>Tutor</Trans>
            </dt>
            <dd className="text-slate-900">{lesson.tutor.displayName}</dd>
            <dd className="break-all text-slate-700">{lesson.tutor.email}</dd>
            <dd className="mt-1">
              <span
                className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${
                  late > 0 ? 'bg-amber-100 text-amber-900' : 'bg-slate-100 text-slate-700'
                }`}
              >
                {lateCancellationsLabel(late)}
              </span>
            </dd>
          </div>
          <div className="min-w-0">
            <dt className="font-medium text-slate-600">
              <Trans>Student</Trans>
            </dt>
            <dd className="text-slate-900">{lesson.student.displayName}</dd>
            <dd className="break-all text-slate-700">{lesson.student.email}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">
              <Trans>Price</Trans>
            </dt>
            <dd className="tabular-nums text-slate-900">
              {formatAmount(lesson.price.amountCents, lesson.price.currency, { minor: 'always' })}
              {lesson.payment.status === 'none' ? (
                <span className="text-slate-700">
                  {' · '}
                  <Trans>not paid through Tutorlane</Trans>
                </span>
              ) : null}
            </dd>
          </div>
        </dl>
        <div className="mt-4 flex flex-wrap gap-2 border-t border-slate-100 pt-4 sm:mt-auto">
          <Button variant="secondary" onClick={onMove} aria-haspopup="dialog">
            <Trans>Move</Trans>
          </Button>
          <Button variant="danger" onClick={onCancel} aria-haspopup="dialog">
            <Trans>Cancel</Trans>
          </Button>
        </div>
      </article>
    </li>
  );
}

/** What the student gets back when an admin cancels: all they paid, whatever the tutor's policy. */
function refundSentence(lesson: AdminLesson) {
  const { student, payment } = lesson;
  if (payment.status !== 'held')
    return i18n._(msg`Nothing was paid through Tutorlane for it, so no money moves.`);
  const name = student.displayName;
  const price = formatAmount(payment.amountCents, payment.currency, { minor: 'always' });
  return i18n._(
    msg`${name} gets the price, ${price}, back in full, whatever the tutor’s cancellation policy.`,
  );
}

function CancelDialog({
  lesson,
  timeZone,
  onClose,
}: {
  lesson: AdminLesson;
  timeZone: string;
  onClose: (done?: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const cancelling = useApiAction();
  const { t } = useLingui();
  const name = lessonName(lesson, timeZone);
  const tutor = lesson.tutor.displayName;
  const student = lesson.student.displayName;
  const refund = refundSentence(lesson);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) {
      setProblem(t`Please give a reason: both of them read it in their mail.`);
      return;
    }
    setProblem(null);
    await cancelling.run(() => cancelLesson(lesson.id, reason.trim()), {
      onDone: () => {
        const price = formatAmount(lesson.payment.amountCents, lesson.payment.currency, { minor: 'always' });
        onClose(
          lesson.payment.status === 'held'
            ? t`Cancelled: ${name}. ${student} got ${price} back; both were mailed your reason.`
            : t`Cancelled: ${name}. Both were mailed your reason.`,
        );
      },
    });
  }
  return (
    <Dialog open onClose={() => onClose()} title={t`Cancel this lesson?`} description={t`${name}. ${refund}`}>
      <form onSubmit={submit} className="mt-3 space-y-4" noValidate>
        {cancelling.problem ? <ErrorMessage>{cancelling.problem}</ErrorMessage> : null}
        <TextArea
          label={t`Reason (required)`}
          hint={t`${tutor} and ${student} read it in the cancellation mail.`}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          problem={problem}
          limit={REASON_LIMIT}
          required
          rows={3}
        />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => onClose()}>
            <Trans>Keep the lesson</Trans>
          </Button>
          <Button
            type="submit"
            variant="danger"
            busy={cancelling.busy}
            aria-disabled={cancelling.busy || undefined}
          >
            <Trans>Cancel the lesson</Trans>
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** "2026-12-01T17:00": a moment as a date-time field holds it, in this browser's zone. */
function localFieldValue(at: number) {
  const date = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function MoveDialog({
  lesson,
  timeZone,
  onClose,
}: {
  lesson: AdminLesson;
  timeZone: string;
  onClose: (done?: string) => void;
}) {
  const [start, setStart] = useState(() => localFieldValue(Date.parse(lesson.start)));
  const [reason, setReason] = useState('');
  const [problems, setProblems] = useState<{ start?: string; reason?: string }>({});
  const moving = useApiAction();
  const { t } = useLingui();
  const name = lessonName(lesson, timeZone);
  const subject = lesson.subject;
  const tutor = lesson.tutor.displayName;
  const student = lesson.student.displayName;
  const zone = describeTimeZone(timeZone);
  async function submit(event: FormEvent) {
    event.preventDefault();
    // The field holds a wall-clock time without a zone: the browser reads it in its own, the admin's.
    const at = start ? new Date(start).getTime() : Number.NaN;
    const found = {
      ...(Number.isNaN(at) ? { start: t`Choose the day and time the lesson should start.` } : {}),
      ...(reason.trim() ? {} : { reason: t`Please give a reason: both of them read it in their mail.` }),
    };
    setProblems(found);
    if (found.start || found.reason) return;
    await moving.run(() => moveLesson(lesson.id, new Date(at).toISOString(), reason.trim()), {
      onDone: ({ lesson: moved }) => {
        const time = lessonTimeLabel(Date.parse(moved.start), Date.parse(moved.end), timeZone);
        onClose(
          t`Moved: ${subject} with ${tutor} and ${student} now takes place ${time}; both were mailed your reason.`,
        );
      },
    });
  }
  return (
    <Dialog
      open
      onClose={() => onClose()}
      title={t`Move this lesson?`}
      description={t`${name}. It keeps its length and price, at a time the tutor offers that is free for both of them.`}
    >
      <form onSubmit={submit} className="mt-3 space-y-4" noValidate>
        {moving.problem ? <ErrorMessage>{moving.problem}</ErrorMessage> : null}
        <TextField
          label={t`New start`}
          hint={t`In your time: ${zone}.`}
          type="datetime-local"
          value={start}
          min={localFieldValue(Date.now())}
          onChange={(event) => setStart(event.target.value)}
          problem={problems.start ?? null}
          required
        />
        <TextArea
          label={t`Reason (required)`}
          hint={t`${tutor} and ${student} read it in the mail that moves it.`}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          problem={problems.reason ?? null}
          limit={REASON_LIMIT}
          required
          rows={3}
        />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => onClose()}>
            <Trans>Keep the time</Trans>
          </Button>
          <Button type="submit" busy={moving.busy} aria-disabled={moving.busy || undefined}>
            <Trans>Move the lesson</Trans>
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
