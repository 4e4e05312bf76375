/**
 * What a page shows when it cannot be shown, inside the layout, in plain words, never a stack
 * trace. A page that does not exist (a 404) is the Not Found page, the same as an unknown path.
 * What may work a second time offers to do it again and says what it does: the page's data
 * loaded again ("Try loading the schedule again") when it could not be fetched or the server
 * failed, or the whole page reloaded when its own code could not be fetched (connection lost, or
 * a new version deployed). A refusal that would only repeat itself offers no retry.
 */
import { useEffect, useRef } from 'react';
import { isRouteErrorResponse, useLocation, useRevalidator, useRouteError } from 'react-router';
import * as messages from '../../shared/messages';
import { pageFor, paths } from '../../shared/routes';
import { Button, ButtonLink } from '../components/button';
import { NotFound } from '../components/not-found';
import { ApiError } from '../lib/api';

type Failure =
  | { kind: 'not-found' }
  | { kind: 'failed'; title: string; text: string; retry: 'load' | 'reload' | null };

function describe(error: unknown): Failure {
  if (isRouteErrorResponse(error) && error.status === 404) return { kind: 'not-found' };
  if (error instanceof ApiError && error.status === 404) return { kind: 'not-found' };
  if (error instanceof ApiError && error.status === 0) {
    return {
      kind: 'failed',
      title: 'We could not reach Tutorlane',
      text: messages.networkError,
      retry: 'load',
    };
  }
  if (error instanceof TypeError && /module|import/i.test(error.message)) {
    return {
      kind: 'failed',
      title: 'This page could not be loaded',
      text: messages.networkError,
      retry: 'reload',
    };
  }
  if (error instanceof ApiError && error.status < 500) {
    return { kind: 'failed', title: 'This page could not be shown', text: error.message, retry: null };
  }
  return { kind: 'failed', title: 'Something went wrong', text: messages.unexpectedError, retry: 'load' };
}

/** What each page's data is, for "Try loading … again"; the page table's patterns are the keys. */
const PAGE_DATA: Partial<Record<string, string>> = {
  [paths.home]: 'the home page',
  [paths.contact]: 'the contact page',
  [paths.dashboard]: 'your dashboard',
  [paths.schedule]: 'the schedule',
  [paths.availability]: 'your availability',
  [paths.messages]: 'your messages',
  [`${paths.messages}/:id`]: 'the conversation',
  [paths.profile]: 'your profile',
  [paths.tutors]: 'the tutors',
  [`${paths.tutors}/:id`]: 'the tutor’s page',
  [`${paths.tutors}/:id/lessons`]: 'the lessons',
  '/students/:id': 'the student’s page',
  '/lessons/:id/room': 'the lesson room',
  [paths.admin]: 'the overview',
  [paths.adminVerifications]: 'the verifications',
  [paths.adminReports]: 'the reports',
  [paths.adminAudit]: 'the audit log',
  [paths.adminContact]: 'the contact messages',
};

export function RouteError() {
  const error = useRouteError();
  const revalidator = useRevalidator();
  const { pathname } = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  const failure = describe(error);

  // The page changed under the reader: say so, from the top.
  useEffect(() => {
    console.error(error);
    heading.current?.focus();
  }, [error]);

  if (failure.kind === 'not-found') return <NotFound headingRef={heading} />;

  const { title, text, retry } = failure;
  const loading = revalidator.state === 'loading';
  const pattern = pageFor(pathname)?.path ?? '';
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <title>{`${title} · Tutorlane`}</title>
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
            {`Try loading ${PAGE_DATA[pattern] ?? 'the page'} again`}
          </Button>
        ) : retry === 'reload' ? (
          <Button onClick={() => window.location.reload()}>Reload the page</Button>
        ) : null}
        <ButtonLink to={paths.home} variant={retry ? 'secondary' : 'primary'}>
          Go to the home page
        </ButtonLink>
      </div>
    </div>
  );
}
