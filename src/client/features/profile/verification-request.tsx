/**
 * A tutor's verification on /profile: where it stands, the last decision's note, and, once the
 * profile is public, the button that asks an administrator to review it. Approved profiles carry
 * the "Verified tutor" badge.
 */
import { Trans } from '@lingui/react/macro';
import type { InferResponseType } from 'hono/client';
import { type ReactNode, useEffect, useState } from 'react';
import * as messages from '../../../shared/messages';
import { VERIFIED_TUTOR_LABEL } from '../../../shared/verified-tutor';
import { Button } from '../../components/button';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { Spinner } from '../../components/spinner';
import { api, failureMessage, request } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { translated } from '../../lib/i18n';
import { dateLabel } from '../../lib/time-labels';
import { browserTimeZone } from '../../lib/time-zones';

type VerificationState = InferResponseType<typeof api.profile.verification.$get, 200>;

/** "December 1, 2026", in this browser's zone. */
const dateOf = (iso: string) => dateLabel(Date.parse(iso), browserTimeZone());

export function VerificationRequest({ published }: { published: boolean }) {
  const [state, setState] = useState<VerificationState | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const asking = useApiAction(translated(messages.unexpectedError));
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry: a new attempt loads again.
  useEffect(() => {
    const controller = new AbortController();
    setProblem(null);
    request(api.profile.verification.$get({}, { init: { signal: controller.signal } })).then(
      setState,
      (error: unknown) => {
        if ((error as Error).name !== 'AbortError') setProblem(failureMessage(error));
      },
    );
    return () => controller.abort();
  }, [attempt]);

  // The answer is this section's new state; the rest of the page has not changed.
  const ask = () =>
    asking.run(() => request(api.profile['verification-request'].$post()), {
      onDone: setState,
      reload: false,
    });

  const badge = translated(VERIFIED_TUTOR_LABEL);
  const approved = state?.approvedAt ? dateOf(state.approvedAt) : '';
  const requested = state?.requestedAt ? dateOf(state.requestedAt) : '';
  const note = state?.lastNote ?? '';
  let body: ReactNode;
  if (!state) {
    body = problem ? (
      <>
        <ErrorMessage>{problem}</ErrorMessage>
        <Button variant="secondary" className="mt-3" onClick={() => setAttempt((n) => n + 1)}>
          <Trans>Try loading your verification again</Trans>
        </Button>
      </>
    ) : (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-700">
        <Spinner /> <Trans>Loading your verification…</Trans>
      </p>
    );
  } else if (state.status === 'approved') {
    body = (
      <StatusMessage>
        {state.approvedAt ? (
          <Trans>
            Your profile is verified: it carries the “{badge}” badge since {approved}. Editing your profile
            keeps it.
          </Trans>
        ) : (
          <Trans>
            Your profile is verified: it carries the “{badge}” badge. Editing your profile keeps it.
          </Trans>
        )}
      </StatusMessage>
    );
  } else if (state.status === 'requested') {
    body = (
      <StatusMessage tone="info">
        {state.requestedAt ? (
          <Trans>You asked for review on {requested}. An administrator will answer by mail.</Trans>
        ) : (
          <Trans>You asked for review. An administrator will answer by mail.</Trans>
        )}
      </StatusMessage>
    );
  } else {
    body = (
      <>
        {state.status === 'declined' ? (
          <p className="text-sm text-slate-800">
            {state.lastNote ? (
              <Trans>
                Your last request was declined: “{note}” You can change your profile and ask again.
              </Trans>
            ) : (
              <Trans>Your last request was declined. You can change your profile and ask again.</Trans>
            )}
          </p>
        ) : (
          <p className="text-sm text-slate-800">
            <Trans>
              An administrator reviews your public profile; once approved, it carries the “{badge}” badge.
            </Trans>
          </p>
        )}
        {asking.problem ? (
          <div className="mt-3">
            <ErrorMessage>{asking.problem}</ErrorMessage>
          </div>
        ) : null}
        {published ? (
          <Button className="mt-3" onClick={ask} busy={asking.busy} aria-disabled={asking.busy || undefined}>
            <Trans>Ask for verification</Trans>
          </Button>
        ) : (
          <p className="mt-2 text-sm text-slate-700">
            <Trans>You can ask once your profile is public.</Trans>
          </p>
        )}
      </>
    );
  }

  return (
    <section
      aria-labelledby="verification-heading"
      className="rounded-2xl border border-slate-200 bg-white p-5"
    >
      <h2 id="verification-heading" className="font-semibold text-slate-900">
        <Trans>Verification</Trans>
      </h2>
      <div className="mt-2">{body}</div>
    </section>
  );
}
