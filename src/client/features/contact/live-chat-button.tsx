/**
 * "Start Live Chat": opens the visitor's conversation with the school's support in their messages
 * (made on first use). Signed out, it goes through sign-in, which leads on to the conversation;
 * signed in but unverified, to /verify-email, as every action for verified users does. An admin
 * answers support rather than asks it, and is told where support conversations are.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths, supportChatPath } from '../../../shared/routes';
import { Button } from '../../components/button';
import { ErrorMessage, StatusMessage } from '../../components/messages';
import { ApiError, api, request } from '../../lib/api';
import { useApiAction } from '../../lib/api-action';
import { translated } from '../../lib/i18n';
import { useAuth } from '../auth';

export function LiveChatButton({ className = '' }: { className?: string }) {
  const { t } = useLingui();
  const auth = useAuth();
  const navigate = useNavigate();
  const { busy, problem, run } = useApiAction(t`We could not open the chat. Please try again.`);
  const [answersSupport, setAnswersSupport] = useState<string | null>(null);

  async function start() {
    if (busy) return;
    if (auth.status !== 'signed-in') {
      navigate(`${paths.login}?redirectTo=${encodeURIComponent(supportChatPath)}`);
      return;
    }
    if (!auth.user.emailVerified) {
      navigate(paths.verifyEmail);
      return;
    }
    await run(() => request(api.support.conversation.$post()), {
      reload: false,
      // Busy until the conversation replaces this page; the writing starts in its box.
      leavesPage: true,
      onDone: ({ conversationId }) =>
        navigate(`${paths.messages}/${encodeURIComponent(conversationId)}`, { state: { composing: true } }),
      onFailure: (error) => {
        if (!(error instanceof ApiError && error.code === 'IS_ADMIN')) return false;
        setAnswersSupport(translated(error.message));
        return true;
      },
    });
  }

  return (
    <div className={className}>
      <Button
        variant="secondary"
        className="w-full"
        busy={busy}
        aria-disabled={busy || undefined}
        onClick={() => void start()}
      >
        <Trans>Start Live Chat</Trans>
      </Button>
      {problem ? (
        <div className="mt-3">
          <ErrorMessage>{problem}</ErrorMessage>
        </div>
      ) : null}
      {answersSupport ? (
        <div className="mt-3">
          <StatusMessage tone="info">
            {answersSupport}{' '}
            <Link to={paths.messages} className="font-semibold underline">
              <Trans>Open your messages</Trans>
            </Link>
          </StatusMessage>
        </div>
      ) : null}
    </div>
  );
}
