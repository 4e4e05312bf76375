/**
 * The user's private calendar address: calendar apps subscribe to it and keep their lessons up to
 * date. Anyone with the address can read the lessons, so it can be replaced (the old one stops
 * working) or switched off.
 */
import { useState } from 'react';
import { Button } from '../../components/button';
import { CardSection } from '../../components/card';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { TextField } from '../../components/text-field';
import { api, request } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';

export function CalendarFeedCard({ url }: { url: string | null }) {
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
      setNote('Address copied. Paste it where your calendar app asks for a calendar by URL.');
    } catch {
      setNote('Select the address and copy it yourself: this browser did not allow copying.');
    }
  }

  return (
    <CardSection title="Calendar feed">
      <p className="text-sm text-slate-700">
        Subscribe from Google Calendar, Apple Calendar or Outlook, and your lessons stay in step there.
      </p>
      <div className="mt-4 space-y-3">
        {url ? (
          <>
            <TextField
              label="Your calendar address"
              value={url}
              readOnly
              onFocus={(event) => event.target.select()}
            />
            <div className="flex flex-wrap gap-2">
              <Button onClick={copy}>Copy address</Button>
              <Button
                variant="secondary"
                disabled={busy}
                onClick={() =>
                  run(
                    () => request(api['calendar-feed'].$post()),
                    'New address made. The old one no longer works.',
                  )
                }
              >
                Make a new address
              </Button>
              <Button
                variant="ghost"
                disabled={busy}
                onClick={() =>
                  run(() => request(api['calendar-feed'].$delete()), 'Calendar address switched off.')
                }
              >
                Switch off
              </Button>
            </div>
          </>
        ) : (
          <Button
            busy={busy}
            disabled={busy}
            onClick={() =>
              run(() => request(api['calendar-feed'].$post()), 'Your calendar address is ready.')
            }
          >
            Create calendar address
          </Button>
        )}
        {note ? <StatusMessage>{note}</StatusMessage> : null}
        {problem ? <ErrorMessage>{problem}</ErrorMessage> : null}
      </div>
    </CardSection>
  );
}
