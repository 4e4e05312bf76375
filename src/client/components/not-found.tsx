/**
 * What a page that does not exist shows, whatever the reason: an unknown path, a page whose data
 * is not there (a route's 404), a tutor who is no longer listed. One design; a page may say it in
 * its own words and offer its own way on (by default, back home). Nothing here can be retried.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode, Ref } from 'react';
import { paths } from '../../shared/routes';
import { translated } from '../lib/i18n';
import { ButtonLink } from './button';

/** Marked for the catalogue; shown through translated(). */
export const NOT_FOUND_TITLE = /*i18n*/ 'Page not found';

export function NotFound({
  title: givenTitle,
  text: givenText,
  headingRef,
  children,
}: {
  title?: string;
  text?: string;
  /** For a page that moves the focus to its heading (after a navigation that failed). */
  headingRef?: Ref<HTMLHeadingElement>;
  /** The ways on; by default a link home. */
  children?: ReactNode;
}) {
  const { t } = useLingui();
  const title = givenTitle ?? translated(NOT_FOUND_TITLE);
  const text = givenText ?? t`The page you are looking for does not exist or has moved.`;
  return (
    <section className="mx-auto max-w-xl px-4 py-16 text-center sm:py-20">
      <title>{t`${title} · Tutorlane`}</title>
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">404</p>
      {/* Focused by script only, to be read out: no outline drawn around a heading. */}
      <h1
        ref={headingRef}
        tabIndex={headingRef ? -1 : undefined}
        className="mt-2 text-3xl font-bold tracking-tight text-slate-900 focus:outline-none"
      >
        {title}
      </h1>
      <p className="mt-4 text-slate-700">{text}</p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        {children ?? (
          <ButtonLink to={paths.home}>
            <Trans>Back to home</Trans>
          </ButtonLink>
        )}
      </div>
    </section>
  );
}
