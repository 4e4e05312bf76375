/**
 * What can be done with one upcoming lesson, and why not when it cannot: the tutor accepts or
 * declines a request; either side cancels, and the student moves it to another free time, while
 * more than 24 hours remain. After each change the page's data is loaded again.
 */
import { useId, useState } from 'react';
import { useRevalidator } from 'react-router';
import { instantLabel, lessonTimeLabel } from '../../../shared/lessons/lesson-times';
import { Button } from '../../components/button';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { TextArea } from '../../components/text-field';
import { ApiError, api, request } from '../../lib/api';
import { type Slot, SlotPicker } from '../lessons/slot-picker';
import type { Lesson } from './schedule-data';

type Panel = 'none' | 'cancel' | 'reschedule';

export function LessonActions({
  lesson,
  role,
  timeZone,
}: {
  lesson: Lesson;
  role: 'student' | 'tutor';
  timeZone: string;
}) {
  const revalidator = useRevalidator();
  const [panel, setPanel] = useState<Panel>('none');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [slot, setSlot] = useState<Slot | null>(null);
  const panelId = useId();

  const changeable =
    (lesson.status === 'pending' || lesson.status === 'confirmed') &&
    lesson.changeableUntil !== null &&
    Date.now() < Date.parse(lesson.changeableUntil);
  const id = { param: { id: lesson.id } };

  async function run(work: () => Promise<unknown>, success: string) {
    setBusy(true);
    setProblem(null);
    try {
      await work();
      setDone(success);
      setPanel('none');
      revalidator.revalidate();
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : 'That did not work. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mt-3 space-y-3">
      {done ? <StatusMessage>{done}</StatusMessage> : null}
      {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
      {(role === 'tutor' && lesson.status === 'pending') || changeable ? (
        <div className="flex flex-wrap gap-2">
          {role === 'tutor' && lesson.status === 'pending' ? (
            <>
              <Button
                busy={busy}
                disabled={busy}
                onClick={() => run(() => request(api.lessons[':id'].accept.$post(id)), 'Request accepted.')}
              >
                Accept
              </Button>
              <Button
                variant="secondary"
                disabled={busy}
                onClick={() => run(() => request(api.lessons[':id'].decline.$post(id)), 'Request declined.')}
              >
                Decline
              </Button>
            </>
          ) : null}
          {changeable && role === 'student' ? (
            <Button
              variant="secondary"
              aria-expanded={panel === 'reschedule'}
              aria-controls={panelId}
              onClick={() => setPanel(panel === 'reschedule' ? 'none' : 'reschedule')}
            >
              Reschedule
            </Button>
          ) : null}
          {changeable ? (
            <Button
              variant="secondary"
              aria-expanded={panel === 'cancel'}
              aria-controls={panelId}
              onClick={() => setPanel(panel === 'cancel' ? 'none' : 'cancel')}
            >
              Cancel lesson
            </Button>
          ) : null}
        </div>
      ) : null}
      {!changeable && (lesson.status === 'pending' || lesson.status === 'confirmed') ? (
        <p className="text-sm text-slate-600">
          Less than 24 hours to go: this lesson can no longer be cancelled or rescheduled.
        </p>
      ) : null}
      {changeable ? (
        <p className="text-sm text-slate-600">
          Free to cancel{role === 'student' ? ' or move' : ''} until{' '}
          {instantLabel(Date.parse(lesson.changeableUntil ?? lesson.start), timeZone)}.
        </p>
      ) : null}

      <div id={panelId}>
        {panel === 'cancel' ? (
          <div className="space-y-3 rounded-xl border border-slate-200 bg-slate-50 p-4">
            <TextArea
              label="Reason (optional)"
              rows={2}
              maxLength={500}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              hint={`${role === 'tutor' ? lesson.student.displayName : lesson.tutor.displayName} will see it in the cancellation mail.`}
            />
            <div className="flex flex-wrap gap-2">
              <Button
                variant="danger"
                busy={busy}
                disabled={busy}
                onClick={() =>
                  run(
                    () =>
                      request(
                        api.lessons[':id'].cancel.$post({
                          ...id,
                          json: reason.trim() ? { reason: reason.trim() } : {},
                        }),
                      ),
                    'Lesson cancelled. You will both get a mail.',
                  )
                }
              >
                Confirm cancellation
              </Button>
              <Button variant="ghost" onClick={() => setPanel('none')}>
                Keep the lesson
              </Button>
            </div>
          </div>
        ) : null}
        {panel === 'reschedule' ? (
          <div className="space-y-3 rounded-xl border border-slate-200 bg-slate-50 p-4">
            <p className="text-sm font-medium text-slate-900">Choose a new time</p>
            <SlotPicker
              tutorId={lesson.tutor.id}
              minutes={lesson.minutes}
              timeZone={timeZone}
              selected={slot?.start ?? null}
              onSelect={setSlot}
            >
              {(chosen) => (
                <Button
                  className="mt-3 w-full sm:w-auto"
                  busy={busy}
                  disabled={busy}
                  onClick={() =>
                    run(
                      () =>
                        request(
                          api.lessons[':id'].reschedule.$post({ ...id, json: { start: chosen.start } }),
                        ),
                      `Lesson moved to ${lessonTimeLabel(Date.parse(chosen.start), Date.parse(chosen.end), timeZone)}.`,
                    )
                  }
                >
                  Move the lesson to{' '}
                  {lessonTimeLabel(Date.parse(chosen.start), Date.parse(chosen.end), timeZone)}
                </Button>
              )}
            </SlotPicker>
          </div>
        ) : null}
      </div>
    </div>
  );
}
