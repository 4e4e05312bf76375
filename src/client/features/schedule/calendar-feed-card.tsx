/**
 * The user's private calendar address: calendar apps subscribe to it and keep their lessons up to
 * date. Anyone with the address can read the lessons, so it can be replaced (the old one stops
 * working) or switched off.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Button } from '../../components/button';
import { CardSection } from '../../components/card';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { api, request } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';

export function CalendarFeedCard({ url }: { url: string | null }) {
  const { t } = useLingui();
  const action = useApiAction();
  const { busy, problem } = action;
  const [note, setNote] = useState<string | null>(null);

  function run(work: () => Promise<unknown>, success: string) {
    setNote(null);
    return action.run(work, { onDone: () => setNote(success) });
  }

  async function copy() {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setNote(t`Address copied. Paste it where your calendar app asks for a calendar by URL.`);
    } catch {
      setNote(t`Select the address and copy it yourself: this browser did not allow copying.`);
    }
  }

  return (
    <CardSection title={t`Calendar feed`}>
      <p className="text-sm text-slate-700">
        <Trans>
          Subscribe from Google Calendar, Apple Calendar or Outlook, and your lessons stay in step there.
        </Trans>
      </p>
      <div className="mt-4 space-y-3">
        {url ? (
          <>
            <TextField
              label={t`Your calendar address`}
              value={url}
              readOnly
              onFocus={(event) => event.target.select()}
            />
            <div className="flex flex-wrap gap-2">
              <Button onClick={copy}>
                <Trans>Copy address</Trans>
              </Button>
              <Button
                variant="secondary"
                disabled={busy}
                onClick={() =>
                  run(
                    () => request(api['calendar-feed'].$post()),
                    t`New address made. The old one no longer works.`,
                  )
                }
              >
                <Trans>Make a new address</Trans>
              </Button>
              <Button
                variant="ghost"
                disabled={busy}
                onClick={() =>
                  run(() => request(api['calendar-feed'].$delete()), t`Calendar address switched off.`)
                }
              >
                <Trans>Switch off</Trans>
              </Button>
            </div>
          </>
        ) : (
          <Button
            busy={busy}
            disabled={busy}
            onClick={() =>
              run(() => request(api['calendar-feed'].$post()), t`Your calendar address is ready.`)
            }
          >
            <Trans>Create calendar address</Trans>
          </Button>
        )}
        {note ? <StatusMessage>{note}</StatusMessage> : null}
        {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
      </div>
    </CardSection>
  );
}
