/** The dialog in which a signed-in visitor reports a review to the moderators, with a reason. */
import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ErrorMessage } from '../../components/messages';
import { TextArea } from '../../components/text-field';
import { api, request } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import type { Review } from './tutor-api';

export default function ReportDialog({
  review,
  onClose,
}: {
  review: Review;
  onClose: (sent: boolean) => void;
}) {
  const { t } = useLingui();
  const [reason, setReason] = useState('');
  const { problem, run } = useApiAction();
  async function submit(event: FormEvent) {
    event.preventDefault();
    await run(
      () => request(api.reviews[':id'].report.$post({ param: { id: review.id }, json: { reason } })),
      {
        reload: false,
        onDone: () => {
          setReason('');
          onClose(true);
        },
      },
    );
  }
  return (
    <Dialog open onClose={() => onClose(false)} title={t`Report this review`}>
      <form onSubmit={submit} className="mt-3 space-y-4">
        {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
        <TextArea
          label={t`What is wrong with it?`}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          maxLength={500}
          rows={3}
        />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onClose(false)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" variant="danger">
            <Trans>Send report</Trans>
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
