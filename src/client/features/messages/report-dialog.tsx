/**
 * Reporting a message to the moderators, with a reason; they see the reason and a copy of the
 * message, and the sender is not told.
 */
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { MAX_REPORT_REASON_LENGTH } from '../../../shared/conversation-schemas';
import * as messages from '../../../shared/messages';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ErrorMessage } from '../../components/messages';
import { TextArea } from '../../components/text-field';
import { api, request } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { translated } from '../../lib/i18n';
import type { MessageView } from '../../lib/live';

export function ReportDialog({
  line,
  onClose,
}: {
  line: MessageView | null;
  onClose: (sent: boolean) => void;
}) {
  const { t } = useLingui();
  const limit = MAX_REPORT_REASON_LENGTH;
  const [reason, setReason] = useState('');
  const { busy, problem, setProblem, run } = useApiAction(translated(messages.unexpectedError));
  const lineId = line?.id;
  // Each report starts empty.
  useEffect(() => {
    if (lineId !== undefined) {
      setReason('');
      setProblem(null);
    }
  }, [lineId, setProblem]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!line) return;
    await run(
      () => request(api.messages[':id'].report.$post({ param: { id: String(line.id) }, json: { reason } })),
      { reload: false, onDone: () => onClose(true) },
    );
  }

  return (
    <Dialog open={line !== null} onClose={() => onClose(false)} title={t`Report this message`}>
      {line ? (
        <form onSubmit={submit} className="mt-3 space-y-4">
          <blockquote className="max-h-32 overflow-y-auto whitespace-pre-wrap break-words rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-800">
            {line.text}
          </blockquote>
          {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
          <TextArea
            label={t`What is wrong with it?`}
            hint={t`${plural(limit, { one: 'Up to # character. Moderators see your reason and a copy of the message.', other: 'Up to # characters. Moderators see your reason and a copy of the message.' })}`}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            maxLength={MAX_REPORT_REASON_LENGTH}
            rows={3}
            required
          />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => onClose(false)}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" variant="danger" busy={busy}>
              <Trans>Send report</Trans>
            </Button>
          </div>
        </form>
      ) : null}
    </Dialog>
  );
}
