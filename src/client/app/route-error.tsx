/**
 * What a page shows when it cannot be shown, inside the layout, in plain words, never a stack
 * trace. A page that does not exist (a 404) is the Not Found page, the same as an unknown path.
 * What may work a second time offers to do it again and says what it does: the page's data
 * loaded again ("Try loading the schedule again") when it could not be fetched or the server
 * failed, or the whole page reloaded when its own code could not be fetched (connection lost, or
 * a new version deployed). A refusal that would only repeat itself offers no retry.
 */
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { isRouteErrorResponse, useLocation, useRevalidator, useRouteError } from 'react-router';
import * as messages from '../../shared/messages';
import { pageFor, paths } from '../../shared/routes';
import { Button, ButtonLink } from '../components/button';
import { NotFound } from '../components/not-found';
import { ApiError } from '../lib/api';
import { translated } from '../lib/i18n';

type Failure =
  | { kind: 'not-found' }
  | { kind: 'failed'; title: MessageDescriptor; text: string; retry: 'load' | 'reload' | null };

function describe(error: unknown): Failure {
  if (isRouteErrorResponse(error) && error.status === 404) return { kind: 'not-found' };
  if (error instanceof ApiError && error.status === 404) return { kind: 'not-found' };
  if (error instanceof ApiError && error.status === 0) {
    return {
      kind: 'failed',
      title: msg`We could not reach Tutorlane`,
      text: messages.networkError,
      retry: 'load',
    };
  }
  if (error instanceof TypeError && /module|import/i.test(error.message)) {
    return {
      kind: 'failed',
      title: msg`This page could not be loaded`,
      text: messages.networkError,
      retry: 'reload',
    };
  }
  if (error instanceof ApiError && error.status < 500) {
    return {
      kind: 'failed',
      title: msg`This page could not be shown`,
      text: error.message,
      retry: null,
    };
  }
  return {
    kind: 'failed',
    title: msg`Something went wrong`,
    text: messages.unexpectedError,
    retry: 'load',
  };
}

/** "Try loading … again", for each page's data; the page table's patterns are the keys. */
const RETRY_LABELS: Partial<Record<string, MessageDescriptor>> = {
  [paths.home]: msg`Try loading the home page again`,
  [paths.contact]: msg`Try loading the contact page again`,
  [paths.dashboard]: msg`Try loading your dashboard again`,
  [paths.schedule]: msg`Try loading the schedule again`,
  [paths.availability]: msg`Try loading your availability again`,
  [paths.messages]: msg`Try loading your messages again`,
  [`${paths.messages}/:id`]: msg`Try loading the conversation again`,
  [paths.profile]: msg`Try loading your profile again`,
  [paths.tutors]: msg`Try loading the tutors again`,
  [`${paths.tutors}/:id`]: msg`Try loading the tutor’s page again`,
  [`${paths.tutors}/:id/lessons`]: msg`Try loading the lessons again`,
  '/students/:id': msg`Try loading the student’s page again`,
  '/lessons/:id/room': msg`Try loading the lesson room again`,
  [paths.admin]: msg`Try loading the overview again`,
  [paths.adminVerifications]: msg`Try loading the verifications again`,
  [paths.adminReports]: msg`Try loading the reports again`,
  [paths.adminAudit]: msg`Try loading the audit log again`,
  [paths.adminContact]: msg`Try loading the contact messages again`,
};

export function RouteError() {
  const error = useRouteError();
  const revalidator = useRevalidator();
  const { pathname } = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  const failure = describe(error);
  const { t } = useLingui();

  // The page changed under the reader: say so, from the top.
  useEffect(() => {
    console.error(error);
    heading.current?.focus();
  }, [error]);

  if (failure.kind === 'not-found') return <NotFound headingRef={heading} />;

  const pattern = pageFor(pathname)?.path ?? '';
  const title = t(failure.title);
  const text = translated(failure.text);
  const { retry } = failure;
  const retryLabel = RETRY_LABELS[pattern];
  const loading = revalidator.state === 'loading';
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <title>{t`${title} · Tutorlane`}</title>
      {/* Focused by script only, to be read out: no outline drawn around a heading. */}
      <h1
        ref={heading}
        tabIndex={-1}
        className="text-3xl font-bold tracking-tight text-slate-900 focus:outline-none"
      >
        {title}
      </h1>
      <p role="alert" className="mt-4 text-slate-700">
        {text}
      </p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        {retry === 'load' ? (
          <Button
            busy={loading}
            aria-disabled={loading || undefined}
            onClick={() => {
              if (!loading) void revalidator.revalidate();
            }}
          >
            {retryLabel ? t(retryLabel) : t`Try loading the page again`}
          </Button>
        ) : retry === 'reload' ? (
          <Button onClick={() => window.location.reload()}>
            <Trans>Reload the page</Trans>
          </Button>
        ) : null}
        <ButtonLink to={paths.home} variant={retry ? 'secondary' : 'primary'}>
          <Trans>Go to the home page</Trans>
        </ButtonLink>
      </div>
    </div>
  );
}
