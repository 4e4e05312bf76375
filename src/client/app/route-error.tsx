/**
 * What a page shows when it cannot be shown: its data could not be loaded (offline, or the server
 * failed) or its code could not be fetched. Inside the layout, in plain words, with a way to try
 * again; never a stack trace.
 */
import { useEffect, useRef } from 'react';
import { isRouteErrorResponse, useNavigate, useRevalidator, useRouteError } from 'react-router';
import { messages } from '../../shared/messages';
import { paths } from '../../shared/routes';
import { Button, ButtonLink } from '../components/button';
import { ApiError } from '../lib/api';

function describe(error: unknown): { title: string; text: string; reload: boolean } {
  if (error instanceof ApiError && error.status === 0) {
    return { title: 'We could not reach Tutorlane', text: messages.networkError, reload: false };
  }
  // The page's own code could not be fetched: connection lost, or a new version was deployed.
  if (error instanceof TypeError && /module|import/i.test(error.message)) {
    return { title: 'This page could not be loaded', text: messages.networkError, reload: true };
  }
  if (isRouteErrorResponse(error) && error.status === 404) {
    return { title: 'Page not found', text: 'This page does not exist.', reload: false };
  }
  if (error instanceof ApiError && error.status < 500) {
    return { title: 'This page could not be shown', text: error.message, reload: false };
  }
  return { title: 'Something went wrong', text: messages.unexpectedError, reload: false };
}

export function RouteError() {
  const error = useRouteError();
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  const { title, text, reload } = describe(error);

  useEffect(() => {
    console.error(error);
    heading.current?.focus();
  }, [error]);

  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <title>{`${title} · Tutorlane`}</title>
      <h1 ref={heading} tabIndex={-1} className="text-3xl font-bold tracking-tight text-slate-900">
        {title}
      </h1>
      <p role="alert" className="mt-4 text-slate-700">
        {text}
      </p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <Button
          busy={revalidator.state === 'loading'}
          aria-disabled={revalidator.state === 'loading' || undefined}
          onClick={() => (reload ? navigate(0) : revalidator.revalidate())}
        >
          Try again
        </Button>
        <ButtonLink to={paths.home} variant="secondary">
          Go to the home page
        </ButtonLink>
      </div>
    </div>
  );
}
