/**
 * The finance page's transfers to match: top-ups students asked for, each confirmed (after a second
 * look at its amount and reference) or rejected with a note to the student.
 */

import { type FormEvent, useState } from 'react';
import { formatAmount } from '../../../shared/amounts';
import { Button } from '../../components/button';
import { CardSection } from '../../components/card';
import { Dialog } from '../../components/dialog';
import { ErrorMessage } from '../../components/messages';
import { TextArea } from '../../components/text-field';
import { useApiAction } from '../../lib/api-action';
import { confirmTopUp, dateTimeLabel, type Finance, rejectTopUp } from './admin-data';
import { EmptyState } from './admin-layout';

type PendingTopUp = Finance['pendingTopUps'][number];

export function PendingTopUps({ finance, onDone }: { finance: Finance; onDone: (text: string) => void }) {
  const [rejecting, setRejecting] = useState<PendingTopUp | null>(null);
  const [confirming, setConfirming] = useState<PendingTopUp | null>(null);
  return (
    <CardSection title="Transfers to match">
      <p className="-mt-2 mb-4 text-sm text-slate-700">
        Top-ups students asked for, oldest first, each with the reference they were told to pay with. Confirm
        one once a payment of that amount with that reference shows in the school's bank account; reject it,
        with a note to the student, if it never came.
      </p>
      {finance.pendingTopUps.length === 0 ? (
        <EmptyState>No top-up is waiting for confirmation.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100">
          {finance.pendingTopUps.map((topUp) => (
            <PendingTopUpRow
              key={topUp.id}
              topUp={topUp}
              onConfirm={() => setConfirming(topUp)}
              onReject={() => setRejecting(topUp)}
            />
          ))}
        </ul>
      )}
      {confirming ? (
        <ConfirmDialog
          topUp={confirming}
          onClose={(text) => {
            setConfirming(null);
            if (text) onDone(text);
          }}
        />
      ) : null}
      {rejecting ? (
        <RejectDialog
          topUp={rejecting}
          onClose={(text) => {
            setRejecting(null);
            if (text) onDone(text);
          }}
        />
      ) : null}
    </CardSection>
  );
}

const topUpName = (topUp: PendingTopUp) =>
  `${formatAmount(topUp.amountCents, topUp.currency, { minor: 'always' })} from ${topUp.student.displayName} (${topUp.reference})`;

function PendingTopUpRow({
  topUp,
  onConfirm,
  onReject,
}: {
  topUp: PendingTopUp;
  onConfirm: () => void;
  onReject: () => void;
}) {
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-3">
      <div className="min-w-0">
        <p className="font-semibold text-slate-900">
          {formatAmount(topUp.amountCents, topUp.currency, { minor: 'always' })}{' '}
          <span className="font-normal text-slate-700">
            {topUp.method === 'stripe' ? 'by card' : 'by transfer'}
          </span>
        </p>
        <p className="text-sm text-slate-700">
          Reference <span className="font-mono font-semibold text-slate-900">{topUp.reference}</span> ·{' '}
          <time dateTime={topUp.createdAt}>{dateTimeLabel(topUp.createdAt)}</time>
        </p>
        <p className="break-all text-sm text-slate-700">
          {topUp.student.displayName} · {topUp.student.email}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button aria-label={`Confirm ${topUpName(topUp)}`} onClick={onConfirm}>
          Confirm
        </Button>
        <Button variant="secondary" aria-label={`Reject ${topUpName(topUp)}`} onClick={onReject}>
          Reject
        </Button>
      </div>
    </li>
  );
}

/**
 * Confirming credits the student at once and cannot be undone, so the amount and the reference are
 * put before the admin once more, to check against the bank's line.
 */
function ConfirmDialog({ topUp, onClose }: { topUp: PendingTopUp; onClose: (done?: string) => void }) {
  const confirming = useApiAction();
  const amount = formatAmount(topUp.amountCents, topUp.currency, { minor: 'always' });
  return (
    <Dialog
      open
      onClose={() => onClose()}
      title="Has this transfer arrived?"
      description={`Confirm only once the school's bank account shows ${amount} with the reference ${topUp.reference}. ${topUp.student.displayName}'s balance then grows by ${amount} at once, and they are told by mail.`}
    >
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-700">Amount</dt>
        <dd className="font-semibold tabular-nums text-slate-900">{amount}</dd>
        <dt className="text-slate-700">Reference</dt>
        <dd className="font-mono font-semibold text-slate-900">{topUp.reference}</dd>
        <dt className="text-slate-700">From</dt>
        <dd className="break-all text-slate-900">{topUp.student.displayName}</dd>
      </dl>
      {confirming.problem ? (
        <div className="mt-3">
          <ErrorMessage>{confirming.problem}</ErrorMessage>
        </div>
      ) : null}
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={() => onClose()}>
          Cancel
        </Button>
        <Button
          busy={confirming.busy}
          aria-disabled={confirming.busy || undefined}
          onClick={() =>
            void confirming.run(() => confirmTopUp(topUp.id), {
              onDone: () => onClose(`Confirmed: ${topUpName(topUp)} is in their balance now.`),
            })
          }
        >
          {`Confirm ${amount} received`}
        </Button>
      </div>
    </Dialog>
  );
}

function RejectDialog({ topUp, onClose }: { topUp: PendingTopUp; onClose: (done?: string) => void }) {
  const [note, setNote] = useState('');
  const rejecting = useApiAction();
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!note.trim()) {
      rejecting.setProblem('Write a note: the student needs to know why.');
      return;
    }
    await rejecting.run(() => rejectTopUp(topUp.id, note.trim()), {
      onDone: () => onClose(`Rejected: ${topUpName(topUp)}. The student sees your note.`),
    });
  }
  return (
    <Dialog
      open
      onClose={() => onClose()}
      title="Reject this top-up?"
      description={`${topUpName(topUp)}. Nothing is added to their balance.`}
    >
      <form onSubmit={submit} className="mt-3 space-y-4" noValidate>
        {rejecting.problem ? <ErrorMessage>{rejecting.problem}</ErrorMessage> : null}
        <TextArea
          label="Note to the student"
          hint="Shown with the top-up in their wallet, such as “No transfer with this reference arrived.”"
          value={note}
          onChange={(event) => setNote(event.target.value)}
          maxLength={500}
          rows={3}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onClose()}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="danger"
            busy={rejecting.busy}
            aria-disabled={rejecting.busy || undefined}
          >
            Reject top-up
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
