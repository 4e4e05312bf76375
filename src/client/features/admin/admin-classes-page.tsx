/**
 * /admin/classes: the group classes, the latest made first, each with its sessions, seats and
 * students (enrolled, and waiting in line), and an admin's two ways to step in: cancel the class
 * (every hold given back, everyone told) or remove one student (their holds given back, the first
 * on the waitlist moving up), each for a reason the people concerned read in their mail.
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useId, useState } from 'react';
import { useLoaderData } from 'react-router';
import { formatAmount } from '../../../shared/amounts';
import type { ClassStatus } from '../../../shared/classes/class-schemas';
import { Button } from '../../components/button';
import { ClassTitleLink } from '../../components/class-session-parts';
import { Dialog } from '../../components/dialog';
import { DoneNotice, ErrorMessage, useDoneNotice } from '../../components/messages';
import { TextArea } from '../../components/text-field';
import { ZoneNote } from '../../components/zone-note';
import { useApiAction } from '../../lib/api-action';
import { i18n } from '../../lib/i18n';
import { lessonTimeLabel } from '../../lib/time-labels';
import { browserTimeZone } from '../../lib/time-zones';
import {
  type AdminClass,
  type AdminClassStudent,
  cancelClass,
  fetchClasses,
  removeClassStudent,
} from './admin-data';
import { AdminLayout, EmptyState } from './admin-layout';

/** As the server takes it (reasonSchema in src/shared/classes/class-schemas.ts). */
const REASON_LIMIT = 500;

export async function loader({ request }: { request: Request }) {
  return { classes: (await fetchClasses(request.signal)).classes };
}

const STATUS: Record<ClassStatus, { label: MessageDescriptor; className: string }> = {
  scheduled: { label: msg`Waiting for students`, className: 'bg-amber-100 text-amber-900' },
  held: { label: msg`Going ahead`, className: 'bg-emerald-100 text-emerald-900' },
  cancelled: { label: msg`Cancelled`, className: 'bg-red-100 text-red-900' },
  ended: { label: msg`Ended`, className: 'bg-slate-200 text-slate-800' },
};

type Change =
  | { kind: 'cancel'; item: AdminClass }
  | { kind: 'remove'; item: AdminClass; student: AdminClassStudent };

export function Component() {
  const { classes } = useLoaderData<typeof loader>();
  const { t } = useLingui();
  const timeZone = browserTimeZone();
  const { done, tell } = useDoneNotice();
  const [changing, setChanging] = useState<Change | null>(null);
  const close = (text?: string) => {
    setChanging(null);
    if (text) tell(text);
  };
  const count = classes.length;
  return (
    <AdminLayout
      title={t`Classes`}
      intro={t`Group classes, the latest made first, with their students. Cancel a class, or remove a student from one, when it cannot go on as it is: the people concerned are told, with your reason.`}
    >
      <div className="space-y-5">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="font-medium text-slate-800">
            {t`${plural(count, { 0: 'No classes', one: '# class', other: '# classes' })}`}
          </p>
          <ZoneNote timeZone={timeZone} />
        </div>
        <DoneNotice done={done} />
        {count === 0 ? (
          <EmptyState>{t`No tutor has made a class yet.`}</EmptyState>
        ) : (
          <ul className="grid gap-4 lg:grid-cols-2">
            {classes.map((item) => (
              <ClassCard
                key={item.id}
                item={item}
                timeZone={timeZone}
                onCancel={() => setChanging({ kind: 'cancel', item })}
                onRemove={(student) => setChanging({ kind: 'remove', item, student })}
              />
            ))}
          </ul>
        )}
      </div>
      {changing?.kind === 'cancel' ? <CancelClassDialog item={changing.item} onClose={close} /> : null}
      {changing?.kind === 'remove' ? (
        <RemoveStudentDialog item={changing.item} student={changing.student} onClose={close} />
      ) : null}
    </AdminLayout>
  );
}

function ClassCard({
  item,
  timeZone,
  onCancel,
  onRemove,
}: {
  item: AdminClass;
  timeZone: string;
  onCancel: () => void;
  onRemove: (student: AdminClassStudent) => void;
}) {
  const headingId = useId();
  const { t } = useLingui();
  const status = STATUS[item.status];
  const live = item.sessions.filter((session) => session.status !== 'cancelled');
  const first = live[0] ?? item.sessions[0];
  const sessions = item.sessions.length;
  const { seatsTaken, seats, waitlist, minStudents } = item;
  const open = item.status === 'scheduled' || item.status === 'held';
  const firstTime = first ? lessonTimeLabel(Date.parse(first.start), Date.parse(first.end), timeZone) : '';
  return (
    <li>
      <article
        aria-labelledby={headingId}
        className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
      >
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h2 id={headingId} className="min-w-0 wrap-break-word">
            <ClassTitleLink classId={item.id} title={item.title} />
            <span className="block text-sm font-normal text-slate-700">
              {item.subject} · {item.language} · {item.tutor.displayName}
            </span>
          </h2>
          <span
            className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${status.className}`}
          >
            {i18n._(status.label)}
          </span>
        </div>
        <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="font-medium text-slate-600">
              <Trans>Sessions</Trans>
            </dt>
            <dd className="text-slate-900">
              {t`${plural(sessions, { one: '# session', other: '# sessions' })}`}
              {first ? (
                <span className="block text-slate-700">
                  <Trans>
                    first <time dateTime={first.start}>{firstTime}</time>
                  </Trans>
                </span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">
              <Trans>Seats</Trans>
            </dt>
            <dd className="text-slate-900">
              <Trans>
                {seatsTaken} of {seats} taken, at least {minStudents}
              </Trans>
            </dd>
            <dd className="text-slate-700">
              {t`${plural(waitlist, { 0: 'Nobody waiting', one: '# waiting', other: '# waiting' })}`}
            </dd>
          </div>
          <div>
            <dt className="font-medium text-slate-600">
              <Trans>Price a session</Trans>
            </dt>
            <dd className="tabular-nums text-slate-900">
              {formatAmount(item.price.amountCents, item.price.currency, { minor: 'always' })}
            </dd>
          </div>
          {item.cancelReason ? (
            <div>
              <dt className="font-medium text-slate-600">
                <Trans>Reason</Trans>
              </dt>
              <dd className="wrap-break-word text-slate-900">{item.cancelReason}</dd>
            </div>
          ) : null}
        </dl>
        <h3 className="mt-4 text-sm font-semibold text-slate-900">
          <Trans>Students</Trans>
        </h3>
        {item.students.length === 0 ? (
          <p className="mt-1 text-sm text-slate-700">
            <Trans>Nobody has enrolled yet.</Trans>
          </p>
        ) : (
          <ul className="mt-1 divide-y divide-slate-100 text-sm">
            {item.students.map((student) => (
              <StudentRow key={student.id} student={student} open={open} onRemove={() => onRemove(student)} />
            ))}
          </ul>
        )}
        {open ? (
          <div className="mt-4 flex flex-wrap gap-2 border-t border-slate-100 pt-4 sm:mt-auto">
            <Button variant="danger" onClick={onCancel} aria-haspopup="dialog">
              <Trans>Cancel class</Trans>
            </Button>
          </div>
        ) : null}
      </article>
    </li>
  );
}

function StudentRow({
  student,
  open,
  onRemove,
}: {
  student: AdminClassStudent;
  open: boolean;
  onRemove: () => void;
}) {
  const { t } = useLingui();
  const name = student.displayName;
  const position = student.position ?? 0;
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-2">
      <div className="min-w-0">
        <p className="text-slate-900">
          {name}{' '}
          <span className="text-slate-700">
            {student.status === 'waitlisted' ? t`waiting, number ${position}` : t`enrolled`}
          </span>
        </p>
        <p className="break-all text-slate-700">{student.email}</p>
      </div>
      {open ? (
        <Button variant="secondary" onClick={onRemove} aria-haspopup="dialog" aria-label={t`Remove ${name}`}>
          <Trans>Remove</Trans>
        </Button>
      ) : null}
    </li>
  );
}

/** A reason, required, and the dialog's two buttons: the form both changes share. */
function ReasonForm({
  hint,
  keep,
  confirm,
  onClose,
  onConfirm,
}: {
  hint: string;
  keep: string;
  confirm: string;
  onClose: (done?: string) => void;
  onConfirm: (reason: string) => { call: () => Promise<unknown>; done: string };
}) {
  const { t } = useLingui();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const action = useApiAction();
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) {
      setProblem(t`Please give a reason: they read it in their mail.`);
      return;
    }
    setProblem(null);
    const { call, done } = onConfirm(reason.trim());
    await action.run(call, { onDone: () => onClose(done) });
  }
  return (
    <form onSubmit={submit} className="mt-3 space-y-4" noValidate>
      {action.problem ? <ErrorMessage>{action.problem}</ErrorMessage> : null}
      <TextArea
        label={t`Reason (required)`}
        hint={hint}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        problem={problem}
        limit={REASON_LIMIT}
        required
        rows={3}
      />
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={() => onClose()}>
          {keep}
        </Button>
        <Button type="submit" variant="danger" busy={action.busy} aria-disabled={action.busy || undefined}>
          {confirm}
        </Button>
      </div>
    </form>
  );
}

function CancelClassDialog({ item, onClose }: { item: AdminClass; onClose: (done?: string) => void }) {
  const { t } = useLingui();
  const title = item.title;
  const tutor = item.tutor.displayName;
  return (
    <Dialog
      open
      onClose={() => onClose()}
      title={t`Cancel ${title}?`}
      description={t`Its sessions ahead are called off: each student gets back in full what is held for them, and ${tutor}, the students and those waiting are mailed your reason.`}
    >
      <ReasonForm
        hint={t`${tutor} and everyone enrolled or waiting read it in their mail.`}
        keep={t`Keep the class`}
        confirm={t`Cancel the class`}
        onClose={onClose}
        onConfirm={(reason) => ({
          call: () => cancelClass(item.id, reason),
          done: t`Cancelled: ${title}. Everyone was mailed your reason.`,
        })}
      />
    </Dialog>
  );
}

function RemoveStudentDialog({
  item,
  student,
  onClose,
}: {
  item: AdminClass;
  student: AdminClassStudent;
  onClose: (done?: string) => void;
}) {
  const { t } = useLingui();
  const title = item.title;
  const name = student.displayName;
  return (
    <Dialog
      open
      onClose={() => onClose()}
      title={t`Remove ${name} from ${title}?`}
      description={t`${name} gets back in full what is held for the sessions ahead and is mailed your reason; the first student waiting who can pay takes the seat.`}
    >
      <ReasonForm
        hint={t`${name} reads it in their mail.`}
        keep={t`Keep ${name}`}
        confirm={t`Remove the student`}
        onClose={onClose}
        onConfirm={(reason) => ({
          call: () => removeClassStudent(item.id, student.id, reason),
          done: t`Removed ${name} from ${title}; they were mailed your reason.`,
        })}
      />
    </Dialog>
  );
}
