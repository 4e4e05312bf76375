/**
 * The frame of every console page: its title, and the console's sections as a second navigation
 * (a row of links that wraps on a phone, so none hides off screen), the current one marked for
 * screen readers.
 */
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Form, Link, NavLink } from 'react-router';
import { paths } from '../../../shared/routes';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';

const sections = [
  { to: paths.admin, label: msg`Overview`, end: true },
  { to: paths.adminVerifications, label: msg`Verifications`, end: false },
  { to: paths.adminLessons, label: msg`Lessons`, end: false },
  { to: paths.adminClasses, label: msg`Classes`, end: false },
  { to: paths.adminFamilies, label: msg`Families`, end: false },
  { to: paths.adminReports, label: msg`Reports`, end: false },
  { to: paths.adminAudit, label: msg`Audit log`, end: false },
  { to: paths.adminContact, label: msg`Contact messages`, end: false },
  { to: paths.adminFinance, label: msg`Finance`, end: false },
  { to: paths.adminSettings, label: msg`Site settings`, end: false },
] as const;

export function AdminLayout({
  title,
  intro,
  children,
}: {
  title: string;
  intro: string;
  children: ReactNode;
}) {
  const { t } = useLingui();
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:py-10">
      <title>{t`${title} · Admin · Tutorlane`}</title>
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">
        <Trans>Admin</Trans>
      </p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-2 max-w-3xl text-slate-700">{intro}</p>
      <nav aria-label={t`Admin sections`} className="mt-6">
        <ul className="flex flex-wrap gap-x-1 border-b border-slate-200">
          {sections.map((section) => (
            <li key={section.to}>
              <NavLink
                to={section.to}
                end={section.end}
                className={({ isActive }) =>
                  `block whitespace-nowrap border-b-2 px-3 py-2.5 text-sm font-medium ${
                    isActive
                      ? 'border-brand-700 text-brand-800'
                      : 'border-transparent text-slate-700 hover:border-slate-300 hover:text-slate-900'
                  }`
                }
              >
                {t(section.label)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-6">{children}</div>
    </div>
  );
}

/** What a list shows when it has nothing: said plainly, as a status a screen reader hears. */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <p
      role="status"
      className="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700"
    >
      {children}
    </p>
  );
}

/** As the console's searches take it (the routes' `search`, up to 200 characters). */
const SEARCH_LIMIT = 200;

/**
 * A console list's search by a name or an address. Searching is a navigation (?search=), so the
 * address can be shared and Back works; "Show all" goes back to `allPath`.
 */
export function AdminSearch({
  name,
  label,
  search,
  searching,
  allPath,
}: {
  /** The search's accessible name: the list it searches. */
  name: string;
  label: string;
  search: string;
  searching: boolean;
  allPath: string;
}) {
  const { t } = useLingui();
  return (
    <Form
      method="get"
      role="search"
      aria-label={name}
      className="flex flex-wrap items-end gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <TextField
        key={search}
        label={label}
        hint={t`Part of a name or an email address.`}
        type="search"
        name="search"
        defaultValue={search}
        maxLength={SEARCH_LIMIT}
        autoComplete="off"
        className="min-w-0 flex-1 basis-60"
      />
      <div className="flex gap-2 pb-7">
        <Button type="submit" busy={searching} aria-disabled={searching || undefined}>
          <Trans>Search</Trans>
        </Button>
        {search ? (
          <Link
            to={allPath}
            className="inline-flex items-center px-2 text-sm font-semibold text-brand-700 underline-offset-2 hover:underline"
          >
            <Trans>Show all</Trans>
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
