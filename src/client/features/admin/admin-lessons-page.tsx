/**
 * /admin/lessons: the planned lessons still to come, found by a tutor's or student's name or email
 * (?search=), each with how often its tutor cancelled late, and an admin's two ways to step in:
 * cancel it (the student gets what they paid back in full) or move it, each for a reason both
 * people read in their mail.
 */

import { type FormEvent, useId, useState } from 'react';
import { Form, Link, type LoaderFunctionArgs, useLoaderData, useNavigation } from 'react-router';
import { formatAmount } from '../../../shared/amounts';
import { paths } from '../../../shared/routes';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { PaymentBadge, StatusBadge, ZoneNote } from '../../components/lesson-parts';
import { DoneNotice, ErrorMessage, useDoneNotice } from '../../components/messages';
import { Spinner } from '../../components/spinner';
import { TextArea, TextField } from '../../components/text-field';
import { ApiError, failureMessage } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { lessonTimeLabel } from '../../lib/time-labels';
import { browserTimeZone, describeTimeZone } from '../../lib/time-zones';
import { type AdminLesson, cancelLesson, fetchLessons, moveLesson } from './admin-data';
import { AdminLayout, EmptyState } from './admin-layout';

const SEARCH_LIMIT = 200;
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
  count === 0
    ? 'No late cancellations'
    : `${count.toLocaleString('en-US')} late ${count === 1 ? 'cancellation' : 'cancellations'}`;

/** "Algebra with Tess Tutor and Sam Student, Tue, Dec 1, 17:00 – 18:00": a lesson as a sentence names it. */
const lessonName = (lesson: AdminLesson, timeZone: string) =>
  `${lesson.subject} with ${lesson.tutor.displayName} and ${lesson.student.displayName}, ${lessonTimeLabel(
    Date.parse(lesson.start),
    Date.parse(lesson.end),
    timeZone,
  )}`;

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
  return (
    <AdminLayout
      title="Lessons"
      intro="Every planned lesson still to come. Cancel one or move it to another time when its people cannot sort it out themselves: both are told, with your reason."
    >
      <div className="space-y-5">
        {/* Searching is a navigation (?search=), so the address can be shared and Back works. */}
        <Form
          method="get"
          role="search"
          aria-label="Lessons"
          className="flex flex-wrap items-end gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
        >
          <TextField
            key={search}
            label="Tutor or student"
            hint="Part of a name or an email address."
            type="search"
            name="search"
            defaultValue={search}
            maxLength={SEARCH_LIMIT}
            autoComplete="off"
            className="min-w-0 flex-1 basis-60"
          />
          <div className="flex gap-2 pb-7">
            <Button type="submit" busy={searching} aria-disabled={searching || undefined}>
              Search
            </Button>
            {search ? (
              <Link
                to={paths.adminLessons}
                className="inline-flex items-center px-2 text-sm font-semibold text-brand-700 underline-offset-2 hover:underline"
              >
                Show all
              </Link>
            ) : null}
          </div>
        </Form>

        <div className="flex flex-wrap items-center justify-between gap-2">
          <p aria-live="polite" className="flex min-h-6 items-center gap-2 font-medium text-slate-800">
            {searching ? (
              <>
                <Spinner /> Searching…
              </>
            ) : error ? null : (
              `${count === 0 ? 'No' : count.toLocaleString('en-US')} upcoming ${count === 1 ? 'lesson' : 'lessons'}${
                search ? ` for “${search}”` : ''
              }`
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
              ? `No upcoming lesson has a tutor or student matching “${search}”.`
              : 'No lessons are planned from now on.'}
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
  const late = lesson.tutor.lateCancellations;
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
              {lesson.subject} · {lesson.minutes} minutes
            </span>
          </h2>
          <div className="flex flex-wrap gap-1.5">
            <StatusBadge status={lesson.status} />
            <PaymentBadge payment={lesson.payment} reader="student" />
          </div>
        </div>
        <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-2">
          <div className="min-w-0">
            <dt className="font-medium text-slate-600">Tutor</dt>
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
            <dt className="font-medium text-slate-600">Student</dt>
            <dd className="text-slate-900">{lesson.student.displayName}</dd>
            <dd className="break-all text-slate-700">{lesson.student.email}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">Price</dt>
            <dd className="tabular-nums text-slate-900">
              {formatAmount(lesson.price.amountCents, lesson.price.currency, { minor: 'always' })}
              {lesson.payment.status === 'none' ? (
                <span className="text-slate-700"> · not paid through Tutorlane</span>
              ) : null}
            </dd>
          </div>
        </dl>
        <div className="mt-4 flex flex-wrap gap-2 border-t border-slate-100 pt-4 sm:mt-auto">
          <Button variant="secondary" onClick={onMove} aria-haspopup="dialog">
            Move
          </Button>
          <Button variant="danger" onClick={onCancel} aria-haspopup="dialog">
            Cancel
          </Button>
        </div>
      </article>
    </li>
  );
}

/** What the student gets back when an admin cancels: all they paid, whatever the tutor's policy. */
function refundSentence(lesson: AdminLesson) {
  const { student, payment } = lesson;
  if (payment.status !== 'held') return `Nothing was paid through Tutorlane for it, so no money moves.`;
  return `${student.displayName} gets the price, ${formatAmount(payment.amountCents, payment.currency, { minor: 'always' })}, back in full, whatever the tutor’s cancellation policy.`;
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
  const name = lessonName(lesson, timeZone);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) {
      setProblem('Please give a reason: both of them read it in their mail.');
      return;
    }
    setProblem(null);
    await cancelling.run(() => cancelLesson(lesson.id, reason.trim()), {
      onDone: () =>
        onClose(
          lesson.payment.status === 'held'
            ? `Cancelled: ${name}. ${lesson.student.displayName} got ${formatAmount(lesson.payment.amountCents, lesson.payment.currency, { minor: 'always' })} back; both were mailed your reason.`
            : `Cancelled: ${name}. Both were mailed your reason.`,
        ),
    });
  }
  return (
    <Dialog
      open
      onClose={() => onClose()}
      title="Cancel this lesson?"
      description={`${name}. ${refundSentence(lesson)}`}
    >
      <form onSubmit={submit} className="mt-3 space-y-4" noValidate>
        {cancelling.problem ? <ErrorMessage>{cancelling.problem}</ErrorMessage> : null}
        <TextArea
          label="Reason (required)"
          hint={`${lesson.tutor.displayName} and ${lesson.student.displayName} read it in the cancellation mail.`}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          problem={problem}
          limit={REASON_LIMIT}
          required
          rows={3}
        />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => onClose()}>
            Keep the lesson
          </Button>
          <Button
            type="submit"
            variant="danger"
            busy={cancelling.busy}
            aria-disabled={cancelling.busy || undefined}
          >
            Cancel the lesson
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
  const name = lessonName(lesson, timeZone);
  async function submit(event: FormEvent) {
    event.preventDefault();
    // The field holds a wall-clock time without a zone: the browser reads it in its own, the admin's.
    const at = start ? new Date(start).getTime() : Number.NaN;
    const found = {
      ...(Number.isNaN(at) ? { start: 'Choose the day and time the lesson should start.' } : {}),
      ...(reason.trim() ? {} : { reason: 'Please give a reason: both of them read it in their mail.' }),
    };
    setProblems(found);
    if (found.start || found.reason) return;
    await moving.run(() => moveLesson(lesson.id, new Date(at).toISOString(), reason.trim()), {
      onDone: ({ lesson: moved }) =>
        onClose(
          `Moved: ${lesson.subject} with ${lesson.tutor.displayName} and ${lesson.student.displayName} now takes place ${lessonTimeLabel(
            Date.parse(moved.start),
            Date.parse(moved.end),
            timeZone,
          )}; both were mailed your reason.`,
        ),
    });
  }
  return (
    <Dialog
      open
      onClose={() => onClose()}
      title="Move this lesson?"
      description={`${name}. It keeps its length and price, at a time the tutor offers that is free for both of them.`}
    >
      <form onSubmit={submit} className="mt-3 space-y-4" noValidate>
        {moving.problem ? <ErrorMessage>{moving.problem}</ErrorMessage> : null}
        <TextField
          label="New start"
          hint={`In your time: ${describeTimeZone(timeZone)}.`}
          type="datetime-local"
          value={start}
          min={localFieldValue(Date.now())}
          onChange={(event) => setStart(event.target.value)}
          problem={problems.start ?? null}
          required
        />
        <TextArea
          label="Reason (required)"
          hint={`${lesson.tutor.displayName} and ${lesson.student.displayName} read it in the mail that moves it.`}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          problem={problems.reason ?? null}
          limit={REASON_LIMIT}
          required
          rows={3}
        />
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => onClose()}>
            Keep the time
          </Button>
          <Button type="submit" busy={moving.busy} aria-disabled={moving.busy || undefined}>
            Move the lesson
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
