/**
 * The finance page's transfers to match: top-ups students asked for, each confirmed (after a second
 * look at its amount and reference) or rejected with a note to the student.
 */

import { Trans, useLingui } from '@lingui/react/macro';
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
  const { t } = useLingui();
  return (
    <CardSection title={t`Transfers to match`}>
      <p className="-mt-2 mb-4 text-sm text-slate-700">
        <Trans>
          Top-ups students asked for, oldest first, each with the reference they were told to pay with.
          Confirm one once a payment of that amount with that reference shows in the school's bank account;
          reject it, with a note to the student, if it never came.
        </Trans>
      </p>
      {finance.pendingTopUps.length === 0 ? (
        <EmptyState>
          <Trans>No top-up is waiting for confirmation.</Trans>
        </EmptyState>
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

/** "$25.00 from Ana (TL-1234)": a top-up as the buttons and dialogs name it. */
function useTopUpName() {
  const { t } = useLingui();
  return (topUp: PendingTopUp) => {
    const amount = formatAmount(topUp.amountCents, topUp.currency, { minor: 'always' });
    const name = topUp.student.displayName;
    const reference = topUp.reference;
    return t`${amount} from ${name} (${reference})`;
  };
}

function PendingTopUpRow({
  topUp,
  onConfirm,
  onReject,
}: {
  topUp: PendingTopUp;
  onConfirm: () => void;
  onReject: () => void;
}) {
  const { t } = useLingui();
  const topUpName = useTopUpName();
  const reference = topUp.reference;
  const when = dateTimeLabel(topUp.createdAt);
  const name = topUpName(topUp);
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-3">
      <div className="min-w-0">
        <p className="font-semibold text-slate-900">
          {formatAmount(topUp.amountCents, topUp.currency, { minor: 'always' })}{' '}
          <span className="font-normal text-slate-700">
            {topUp.method === 'stripe' ? t`by card` : t`by transfer`}
          </span>
        </p>
        <p className="text-sm text-slate-700">
          <Trans>
            Reference <span className="font-mono font-semibold text-slate-900">{reference}</span> ·{' '}
            <time dateTime={topUp.createdAt}>{when}</time>
          </Trans>
        </p>
        <p className="break-all text-sm text-slate-700">
          {topUp.student.displayName} · {topUp.student.email}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Button aria-label={t`Confirm ${name}`} onClick={onConfirm}>
          <Trans>Confirm</Trans>
        </Button>
        <Button variant="secondary" aria-label={t`Reject ${name}`} onClick={onReject}>
          <Trans>Reject</Trans>
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
  const { t } = useLingui();
  const topUpName = useTopUpName();
  const reference = topUp.reference;
  const name = topUp.student.displayName;
  return (
    <Dialog
      open
      onClose={() => onClose()}
      title={t`Has this transfer arrived?`}
      description={t`Confirm only once the school's bank account shows ${amount} with the reference ${reference}. ${name}'s balance then grows by ${amount} at once, and they are told by mail.`}
    >
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-700">
          <Trans>Amount</Trans>
        </dt>
        <dd className="font-semibold tabular-nums text-slate-900">{amount}</dd>
        <dt className="text-slate-700">
          <Trans>Reference</Trans>
        </dt>
        <dd className="font-mono font-semibold text-slate-900">{topUp.reference}</dd>
        <dt className="text-slate-700">
          <Trans>From</Trans>
        </dt>
        <dd className="break-all text-slate-900">{topUp.student.displayName}</dd>
      </dl>
      {confirming.problem ? (
        <div className="mt-3">
          <ErrorMessage>{confirming.problem}</ErrorMessage>
        </div>
      ) : null}
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={() => onClose()}>
          <Trans>Cancel</Trans>
        </Button>
        <Button
          busy={confirming.busy}
          aria-disabled={confirming.busy || undefined}
          onClick={() =>
            void confirming.run(() => confirmTopUp(topUp.id), {
              onDone: () => {
                const confirmed = topUpName(topUp);
                onClose(t`Confirmed: ${confirmed} is in their balance now.`);
              },
            })
          }
        >
          {t`Confirm ${amount} received`}
        </Button>
      </div>
    </Dialog>
  );
}

function RejectDialog({ topUp, onClose }: { topUp: PendingTopUp; onClose: (done?: string) => void }) {
  const [note, setNote] = useState('');
  const rejecting = useApiAction();
  const { t } = useLingui();
  const topUpName = useTopUpName();
  const rejected = topUpName(topUp);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!note.trim()) {
      rejecting.setProblem(t`Write a note: the student needs to know why.`);
      return;
    }
    await rejecting.run(() => rejectTopUp(topUp.id, note.trim()), {
      onDone: () => onClose(t`Rejected: ${rejected}. The student sees your note.`),
    });
  }
  return (
    <Dialog
      open
      onClose={() => onClose()}
      title={t`Reject this top-up?`}
      description={t`${rejected}. Nothing is added to their balance.`}
    >
      <form onSubmit={submit} className="mt-3 space-y-4" noValidate>
        {rejecting.problem ? <ErrorMessage>{rejecting.problem}</ErrorMessage> : null}
        <TextArea
          label={t`Note to the student`}
          hint={t`Shown with the top-up in their wallet, such as “No transfer with this reference arrived.”`}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          maxLength={500}
          rows={3}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onClose()}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            type="submit"
            variant="danger"
            busy={rejecting.busy}
            aria-disabled={rejecting.busy || undefined}
          >
            <Trans>Reject top-up</Trans>
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
