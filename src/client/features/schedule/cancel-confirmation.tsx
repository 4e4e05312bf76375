import { Trans, useLingui } from '@lingui/react/macro';
import { MAX_CANCEL_REASON_LENGTH } from '../../../shared/lessons/lesson-schemas';
import { Button } from '../../components/button';
import { ConfirmPanel } from '../../components/confirm-panel';
import { TextArea } from '../../components/text-field';

/**
 * The step before a cancellation: what will be cancelled, who is told, an optional reason, and
 * a button that says what it does. Opening it moves the focus to its question; Escape or "Keep"
 * closes it and gives the focus back to the button that opened it.
 */
export function CancelConfirmation({
  thing,
  what,
  when,
  other,
  invited,
  fee,
  reasonNeeded,
  reason,
  onReason,
  busy,
  onKeep,
  onConfirm,
}: {
  thing: 'lesson' | 'request';
  what: string;
  when: string;
  other: string;
  /** A confirmed lesson is in both calendars: the mail takes it out. */
  invited: boolean;
  /** What cancelling now costs the student ("$40.00"), or null when it is free. */
  fee: string | null;
  /** Inside the tutor's window a reason must be given. */
  reasonNeeded: boolean;
  reason: string;
  onReason: (reason: string) => void;
  busy: boolean;
  onKeep: () => void;
  onConfirm: () => void;
}) {
  const { t } = useLingui();
  const aRequest = thing === 'request';
  return (
    <ConfirmPanel question={aRequest ? t`Cancel this request?` : t`Cancel this lesson?`} onKeep={onKeep}>
      <p className="text-sm text-slate-700">
        {invited
          ? t`${what}, ${when}. ${other} will get a mail that takes it out of both your calendars.`
          : t`${what}, ${when}. ${other} will get a mail.`}
      </p>
      {fee ? (
        <p className="rounded-lg bg-white p-3 text-sm font-semibold text-red-800">
          <Trans>
            Cancelling now costs {fee}: it is inside {other}'s cancellation window. The rest of the price goes
            back to your wallet.
          </Trans>
        </p>
      ) : null}
      <TextArea
        label={reasonNeeded ? t`Reason (required)` : t`Reason (optional)`}
        required={reasonNeeded}
        rows={2}
        maxLength={MAX_CANCEL_REASON_LENGTH}
        value={reason}
        onChange={(event) => onReason(event.target.value)}
        hint={t`${other} will see it in the cancellation mail.`}
      />
      <div className="flex flex-wrap gap-2">
        <Button variant="danger" busy={busy} disabled={busy} onClick={onConfirm}>
          {fee
            ? t`Yes, cancel and pay ${fee}`
            : aRequest
              ? t`Yes, cancel the request`
              : t`Yes, cancel the lesson`}
        </Button>
        <Button variant="ghost" onClick={onKeep}>
          {aRequest ? t`Keep the request` : t`Keep the lesson`}
        </Button>
      </div>
    </ConfirmPanel>
  );
}
