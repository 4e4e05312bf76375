/**
 * What can be done with one upcoming lesson, and why not when it cannot: the tutor accepts or
 * declines a request; the student cancels their request or moves it; either side cancels a
 * planned lesson until it starts, and the student moves it to another free time until free
 * changes end (the lesson's cancellation window). Inside the window the student is told what
 * cancelling costs before they confirm, and the tutor must give a reason. The tutor may propose a
 * new time for a planned lesson until it starts; the student accepts or declines it. Cancelling
 * asks first. Each change is told once, by the page
 * (`onChanged`), since the lesson it was about may leave this list; the page's data is then
 * loaded again.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef, useState } from 'react';
import { formatAmount } from '../../../shared/amounts';
import { MAX_PROPOSAL_NOTE_LENGTH } from '../../../shared/lessons/lesson-schemas';
import { isPlanned, isRequest as isRequestStatus } from '../../../shared/lessons/lesson-states';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/messages';
import { type Slot, SlotPicker } from '../../components/slot-picker';
import { TextArea } from '../../components/text-field';
import { api, request } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { clockLabel, dayLabel, instantLabel, lessonTimeLabel } from '../../lib/time-labels';
import { CancelConfirmation } from './cancel-confirmation';
import type { Lesson } from './schedule-data';

type Panel = 'none' | 'cancel' | 'reschedule' | 'propose';

/** "14:32" for a moment later today in the viewer's zone, the day too for one on another day. */
function untilLabel(at: number, timeZone: string) {
  return dayLabel(at, timeZone) === dayLabel(Date.now(), timeZone)
    ? clockLabel(at, timeZone)
    : instantLabel(at, timeZone);
}

export function LessonActions({
  lesson,
  role,
  timeZone,
  onChanged,
}: {
  lesson: Lesson;
  role: 'student' | 'tutor';
  timeZone: string;
  /** Tells the page what just changed, in a sentence. */
  onChanged: (notice: string) => void;
}) {
  const { t } = useLingui();
  const { busy, problem, run } = useApiAction();
  const [panel, setPanel] = useState<Panel>('none');
  const [reason, setReason] = useState('');
  const [slot, setSlot] = useState<Slot | null>(null);
  const [proposalNote, setProposalNote] = useState('');
  const panelId = useId();
  const cancelToggle = useRef<HTMLButtonElement>(null);

  const isRequest = isRequestStatus(lesson.status);
  const planned = isPlanned(lesson.status);
  const beforeStart = planned && Date.now() < Date.parse(lesson.start);
  // Free changes end at the lesson's window; cancelling stays possible until the start.
  const changeable =
    beforeStart && lesson.changeableUntil !== null && Date.now() < Date.parse(lesson.changeableUntil);
  // A tutor answers a request; declining is how they say no to it.
  const answers = role === 'tutor' && isRequest;
  const mayCancel = beforeStart && !answers;
  const mayMove = changeable && role === 'student';
  // Inside the window: the student pays the fee, the tutor gives a reason and is counted. A lesson
  // booked inside it is free for a few minutes more: once they are over (the page open meanwhile),
  // the fee the server named applies.
  const lateFee = lesson.cancellation.lateFee;
  const feeNow = lateFee && Date.now() >= Date.parse(lateFee.from) ? lateFee.fee : lesson.cancellation.fee;
  const fee = role === 'student' && !changeable ? feeNow : null;
  const feeLabel = fee && fee.amountCents > 0 ? formatAmount(fee.amountCents, fee.currency) : null;
  const tutorLate = role === 'tutor' && !changeable && !isRequest;
  // No window for a proposal: the student decides whether to take it, until the start.
  const mayPropose = beforeStart && role === 'tutor';
  const proposal = lesson.proposal;
  const proposedWhen = proposal
    ? lessonTimeLabel(Date.parse(proposal.start), Date.parse(proposal.end), timeZone)
    : '';
  const other = role === 'tutor' ? lesson.student.displayName : lesson.tutor.displayName;
  const when = lessonTimeLabel(Date.parse(lesson.start), Date.parse(lesson.end), timeZone);
  const subject = lesson.subject;
  const what = t`${subject} with ${other}`;
  const thing = isRequest ? 'request' : 'lesson';
  const proposalNoteText = proposal?.note ?? '';
  const freeUntil = instantLabel(Date.parse(lesson.changeableUntil ?? lesson.start), timeZone);
  const freeChangesEnded = instantLabel(Date.parse(lesson.cancellation.freeUntil), timeZone);
  const feePercent = lesson.cancellation.feePercent;
  const lateFrom = lateFee ? untilLabel(Date.parse(lateFee.from), timeZone) : '';
  const lateAmount = lateFee ? formatAmount(lateFee.fee.amountCents, lateFee.fee.currency) : '';
  const slotWhen = (chosen: Slot) =>
    lessonTimeLabel(Date.parse(chosen.start), Date.parse(chosen.end), timeZone);
  const id = { param: { id: lesson.id } };

  async function change(call: () => Promise<unknown>, notice: string) {
    if (await run(call)) {
      setPanel('none');
      onChanged(notice);
    }
  }

  function closeCancel() {
    setPanel('none');
    cancelToggle.current?.focus();
  }

  return (
    <div className="mt-3 space-y-3">
      {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
      {proposal ? (
        <section
          aria-label={t`Proposed new time`}
          className="space-y-2 rounded-xl border border-indigo-200 bg-indigo-50/60 p-4"
        >
          <p className="text-sm font-medium text-slate-900">
            {role === 'tutor'
              ? t`You proposed ${proposedWhen}. Waiting for ${other}'s answer.`
              : isRequest
                ? t`${other} proposes moving this request to ${proposedWhen}.`
                : t`${other} proposes moving this lesson to ${proposedWhen}.`}
          </p>
          {proposalNoteText ? (
            <p className="text-sm text-slate-700">
              {role === 'tutor' ? t`Your note: ${proposalNoteText}` : t`Their note: ${proposalNoteText}`}
            </p>
          ) : null}
          {role === 'student' ? (
            <div className="flex flex-wrap gap-2">
              <Button
                busy={busy}
                disabled={busy}
                onClick={() =>
                  change(
                    () => request(api.lessons[':id'].proposal.accept.$post(id)),
                    t`New time accepted: ${what} is now on ${proposedWhen}. You will both get a mail.`,
                  )
                }
              >
                <Trans>Accept new time</Trans>
              </Button>
              <Button
                variant="secondary"
                disabled={busy}
                onClick={() =>
                  change(
                    () => request(api.lessons[':id'].proposal.decline.$post(id)),
                    t`New time declined: ${what} stays on ${when}. ${other} will get a mail.`,
                  )
                }
              >
                <Trans>Decline</Trans>
              </Button>
            </div>
          ) : null}
        </section>
      ) : null}
      {answers || mayCancel || mayMove || mayPropose ? (
        <div className="flex flex-wrap gap-2">
          {answers ? (
            <>
              <Button
                busy={busy}
                disabled={busy}
                onClick={() =>
                  change(
                    () => request(api.lessons[':id'].accept.$post(id)),
                    t`Request accepted: ${what}, ${when}. You will both get a mail.`,
                  )
                }
              >
                <Trans>Accept</Trans>
              </Button>
              <Button
                variant="secondary"
                disabled={busy}
                onClick={() =>
                  change(
                    () => request(api.lessons[':id'].decline.$post(id)),
                    t`Request declined: ${what}, ${when}. ${other} will get a mail.`,
                  )
                }
              >
                <Trans>Decline</Trans>
              </Button>
            </>
          ) : null}
          {mayMove ? (
            <Button
              variant="secondary"
              aria-expanded={panel === 'reschedule'}
              aria-controls={panelId}
              onClick={() => setPanel(panel === 'reschedule' ? 'none' : 'reschedule')}
            >
              <Trans>Reschedule</Trans>
            </Button>
          ) : null}
          {mayPropose ? (
            <Button
              variant="secondary"
              aria-expanded={panel === 'propose'}
              aria-controls={panelId}
              onClick={() => setPanel(panel === 'propose' ? 'none' : 'propose')}
            >
              <Trans>Propose a new time</Trans>
            </Button>
          ) : null}
          {mayCancel ? (
            <Button
              ref={cancelToggle}
              variant="secondary"
              aria-expanded={panel === 'cancel'}
              aria-controls={panelId}
              onClick={() => setPanel(panel === 'cancel' ? 'none' : 'cancel')}
            >
              {isRequest ? t`Cancel request` : t`Cancel lesson`}
            </Button>
          ) : null}
        </div>
      ) : null}
      {mayCancel && changeable ? (
        <p className="text-sm text-slate-600">
          {mayMove ? (
            <Trans>Free to cancel or move until {freeUntil}.</Trans>
          ) : (
            <Trans>Free to cancel until {freeUntil}.</Trans>
          )}
        </p>
      ) : null}
      {mayCancel && !changeable && role === 'student' ? (
        <p className="text-sm text-slate-600">
          {isRequest
            ? t`Free changes ended on ${freeChangesEnded}: this request can no longer be moved.`
            : t`Free changes ended on ${freeChangesEnded}: this lesson can no longer be moved.`}{' '}
          {feeLabel
            ? t`Cancelling now costs ${feeLabel} (${feePercent}% of the price).`
            : lateFee
              ? t`Cancelling it is free until ${lateFrom}, then ${lateAmount}.`
              : isRequest
                ? t`Cancelling it is free while ${other} has not accepted it.`
                : t`Cancelling it is free until it starts.`}
        </p>
      ) : null}
      {mayCancel && tutorLate ? (
        <p className="text-sm text-slate-600">
          <Trans>
            Inside your cancellation window: cancelling now needs a reason, and counts as a late cancellation.
          </Trans>
        </p>
      ) : null}

      <div id={panelId}>
        {panel === 'cancel' ? (
          <CancelConfirmation
            thing={thing}
            what={what}
            when={when}
            other={other}
            invited={lesson.status === 'confirmed'}
            fee={feeLabel}
            reasonNeeded={tutorLate}
            reason={reason}
            onReason={setReason}
            busy={busy}
            onKeep={closeCancel}
            onConfirm={() =>
              change(
                () =>
                  request(
                    api.lessons[':id'].cancel.$post({
                      ...id,
                      json: reason.trim() ? { reason: reason.trim() } : {},
                    }),
                  ),
                isRequest
                  ? t`Request cancelled: ${what}, ${when}. You will both get a mail.`
                  : t`Lesson cancelled: ${what}, ${when}. You will both get a mail.`,
              )
            }
          />
        ) : null}
        {panel === 'propose' ? (
          <div className="space-y-3 rounded-xl border border-slate-200 bg-slate-50 p-4">
            <p className="text-sm font-medium text-slate-900">
              <Trans>Propose a new time to {other}</Trans>
            </p>
            <p className="text-sm text-slate-600">
              {isRequest
                ? t`The request stays at ${when} unless ${other} accepts.`
                : t`The lesson stays at ${when} unless ${other} accepts.`}
              {proposal ? ` ${t`This replaces the time you proposed before.`}` : ''}
            </p>
            <TextArea
              label={t`Note (optional)`}
              rows={2}
              maxLength={MAX_PROPOSAL_NOTE_LENGTH}
              value={proposalNote}
              onChange={(event) => setProposalNote(event.target.value)}
              hint={t`${other} will see it in the mail and on their schedule.`}
            />
            <SlotPicker
              tutorId={lesson.tutor.id}
              minutes={lesson.minutes}
              timeZone={timeZone}
              selected={slot?.start ?? null}
              onSelect={setSlot}
            >
              {(chosen) => {
                const newWhen = slotWhen(chosen);
                return (
                  <Button
                    className="mt-3 w-full sm:w-auto"
                    busy={busy}
                    disabled={busy}
                    onClick={() =>
                      change(
                        () =>
                          request(
                            api.lessons[':id'].propose.$post({
                              ...id,
                              json: {
                                start: chosen.start,
                                ...(proposalNote.trim() ? { note: proposalNote.trim() } : {}),
                              },
                            }),
                          ),
                        t`New time proposed: ${what}, ${newWhen}. ${other} will get a mail.`,
                      )
                    }
                  >
                    {t`Propose ${newWhen}`}
                  </Button>
                );
              }}
            </SlotPicker>
          </div>
        ) : null}
        {panel === 'reschedule' ? (
          <div className="space-y-3 rounded-xl border border-slate-200 bg-slate-50 p-4">
            <p className="text-sm font-medium text-slate-900">
              <Trans>Choose a new time</Trans>
            </p>
            <SlotPicker
              tutorId={lesson.tutor.id}
              minutes={lesson.minutes}
              timeZone={timeZone}
              selected={slot?.start ?? null}
              onSelect={setSlot}
            >
              {(chosen) => {
                const newWhen = slotWhen(chosen);
                return (
                  <Button
                    className="mt-3 w-full sm:w-auto"
                    busy={busy}
                    disabled={busy}
                    onClick={() =>
                      change(
                        () =>
                          request(
                            api.lessons[':id'].reschedule.$post({ ...id, json: { start: chosen.start } }),
                          ),
                        isRequest
                          ? t`Request moved: ${what} is now on ${newWhen}.`
                          : t`Lesson moved: ${what} is now on ${newWhen}.`,
                      )
                    }
                  >
                    {isRequest ? t`Move the request to ${newWhen}` : t`Move the lesson to ${newWhen}`}
                  </Button>
                );
              }}
            </SlotPicker>
          </div>
        ) : null}
      </div>
    </div>
  );
}
