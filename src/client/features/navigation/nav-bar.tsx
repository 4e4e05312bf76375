/**
 * The top navigation: logo, Home, Find Tutors, Classes, Schedule, Contact Us; Login and Sign Up when signed out; the
 * display name, the role and Logout when signed in; Dashboard, Wallet (with a student's balance
 * while payments go through Tutorlane) and Messages with its unread count (kept live by this tab's
 * channel, which the bar opens and closes), only for a verified user; Family for a verified
 * parent or student (a parent's children, a student's parent);
 * Admin only for operators, who also carry an "Admin" badge beside their role. The links fold
 * behind a Toggle menu button (which closes when a link is followed, the current page's too, and
 * on Escape) below 1024 px signed out, and below 1280 px signed in: with the name, the role and up
 * to ten links, the bar leaves a name no room under that. A long name is cut only where the
 * space runs out, whole in its tooltip and for screen readers.
 */

import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { formatAmount } from '../../../shared/amounts';
import type { Role } from '../../../shared/constants';
import { formatLocale } from '../../../shared/format-locale';
import { paths } from '../../../shared/routes';
import { Button, buttonClass } from '../../components/button';
import { usePaymentsConfig } from '../../lib/payments-config';
import { forgetWalletSummary, useWalletSummary } from '../../lib/wallet-summary';
import { useAuth } from '../auth';
import { LanguageSelect } from './language-select';

/** The roles' names on the badge beside a signed-in person's name. */
const ROLE_NAMES = {
  student: msg`Student`,
  tutor: msg`Tutor`,
  parent: msg`Parent`,
} satisfies Record<Role, unknown>;

/**
 * Messages waiting unread, kept up to date by this tab's live channel, which is open while a
 * verified user is signed in and closed at sign-out. The channel's code is fetched only then: a
 * visitor who is not signed in never needs it.
 */
function useUnread(liveUser: string | null): number {
  const [unread, setUnread] = useState(0);
  useEffect(() => {
    if (!liveUser) return;
    let stop: (() => void) | undefined;
    let left = false;
    void import('../../lib/live').then(({ live }) => {
      if (left) return;
      live.connect(liveUser);
      const unsubscribe = live.subscribeUnread(() => setUnread(live.unread()));
      setUnread(live.unread());
      stop = () => {
        unsubscribe();
        live.disconnect();
      };
    });
    return () => {
      left = true;
      stop?.();
      setUnread(0);
    };
  }, [liveUser]);
  return unread;
}

/** "Messages", and how many wait unread, said in words too. */
function MessagesLabel({ unread }: { unread: number }) {
  const shown = new Intl.NumberFormat(formatLocale()).format(Math.min(unread, 99));
  return (
    <>
      <Trans>Messages</Trans>
      {unread > 0 ? ' ' : null}
      {unread > 0 ? (
        <span className="ms-1 inline-flex min-w-5 items-center justify-center rounded-full bg-brand-700 px-1.5 text-xs font-bold text-white">
          {unread > 99 ? `${shown}+` : shown}
          <span className="sr-only">
            {' '}
            <Plural value={unread} one="unread" other="unread" />
          </span>
        </span>
      ) : null}
    </>
  );
}

/**
 * "Wallet", and a student's balance while payments go through Tutorlane. In the wide bar the
 * balance sits under the word, so the link is no wider than "Wallet": the bar has no room left
 * for an operator's name and badges otherwise.
 */
function WalletLabel({ balance, stacked }: { balance: string | null; stacked: boolean }) {
  if (!balance) return <Trans>Wallet</Trans>;
  return (
    <span className={stacked ? 'flex flex-col items-center leading-tight' : undefined}>
      <Trans>Wallet</Trans>{' '}
      <span
        className={`text-xs font-semibold tabular-nums text-emerald-800 ${stacked ? '' : 'ms-1 rounded-full bg-emerald-50 px-1.5'}`}
      >
        {balance}
      </span>
    </span>
  );
}

const desktopLink = ({ isActive }: { isActive: boolean }) =>
  `whitespace-nowrap rounded-md px-1 py-2 text-sm font-medium transition-colors ${
    isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'
  }`;
const mobileLink = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-3 text-base font-medium ${isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-800 hover:bg-slate-100'}`;

function Logo({ onClick }: { onClick: () => void }) {
  return (
    <Link
      to={paths.home}
      onClick={onClick}
      className="flex shrink-0 items-center gap-2 rounded-md text-lg font-bold text-slate-900"
    >
      <svg viewBox="0 0 64 64" className="size-8" aria-hidden="true">
        <rect width="64" height="64" rx="14" fill="#4338ca" />
        <path d="M18 22h28v6H35v20h-6V28H18z" fill="#fff" />
        <circle cx="46" cy="44" r="5" fill="#fbbf24" />
      </svg>
      <span>Tutorlane</span>
    </Link>
  );
}

export function NavBar() {
  const { t } = useLingui();
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu whenever the page changes (a link elsewhere on the page, a redirect).
  useEffect(() => {
    setOpen(false);
  }, [location.pathname]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        toggleRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const user = auth.status === 'signed-in' ? auth.user : null;
  // One live channel per tab while a verified user is signed in; closed at sign-out.
  const liveUser = user?.emailVerified ? user.id : null;
  const unread = useUnread(liveUser);
  const payments = usePaymentsConfig();
  // Read again as pages change (once it is a few seconds old), so a confirmed top-up shows up.
  const wallet = useWalletSummary(liveUser, { enabled: payments.on, freshness: location.pathname });
  const balance =
    payments.on && wallet?.payments === 'on' && wallet.balance
      ? formatAmount(wallet.balance, { minor: 'always' })
      : null;
  const signOut = async () => {
    if (signingOut) return;
    setSigningOut(true);
    await auth.actions.signOut();
    forgetWalletSummary();
    setSigningOut(false);
    setOpen(false);
    navigate(paths.home);
  };

  // Following a link closes the menu, even the current page's link, which changes no path.
  const closeMenu = () => setOpen(false);
  const pageLinks = (className: typeof desktopLink, wide: boolean) => (
    <>
      <NavLink to={paths.home} end className={className} onClick={closeMenu}>
        <Trans>Home</Trans>
      </NavLink>
      {user?.emailVerified ? (
        <NavLink to={paths.dashboard} className={className} onClick={closeMenu}>
          <Trans>Dashboard</Trans>
        </NavLink>
      ) : null}
      <NavLink to={paths.tutors} className={className} onClick={closeMenu}>
        <Trans>Find Tutors</Trans>
      </NavLink>
      <NavLink to={paths.classes} className={className} onClick={closeMenu}>
        <Trans>Classes</Trans>
      </NavLink>
      <NavLink to={paths.schedule} className={className} onClick={closeMenu}>
        <Trans>Schedule</Trans>
      </NavLink>
      {user?.emailVerified ? (
        <NavLink to={paths.wallet} className={className} onClick={closeMenu}>
          <WalletLabel balance={balance} stacked={wide} />
        </NavLink>
      ) : null}
      {user?.emailVerified ? (
        <NavLink to={paths.messages} className={className} onClick={closeMenu}>
          <MessagesLabel unread={unread} />
        </NavLink>
      ) : null}
      {/* A parent's children; a student's parent, or the way to invite one. */}
      {user?.emailVerified && user.role !== 'tutor' ? (
        <NavLink to={paths.family} className={className} onClick={closeMenu}>
          <Trans>Family</Trans>
        </NavLink>
      ) : null}
      <NavLink to={paths.contact} className={className} onClick={closeMenu}>
        <Trans>Contact Us</Trans>
      </NavLink>
      {user ? (
        <NavLink to={paths.profile} className={className} onClick={closeMenu}>
          <Trans>Profile</Trans>
        </NavLink>
      ) : null}
      {user?.isAdmin ? (
        <NavLink to={paths.admin} className={className} onClick={closeMenu}>
          <Trans>Admin</Trans>
        </NavLink>
      ) : null}
    </>
  );

  // The name, then the role and (for operators) Admin. min-w-0 lets the name shrink inside its
  // row only once the row is full; the text stays whole for screen readers and in the tooltip.
  const name = user ? (
    <span className="block min-w-0 max-w-full truncate font-medium text-slate-900" title={user.displayName}>
      {user.displayName}
    </span>
  ) : null;
  const badges = user ? (
    <span className="flex shrink-0 items-center gap-1.5">
      <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">
        {t(ROLE_NAMES[user.role])}
      </span>
      {user.isAdmin ? (
        <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
          <Trans>Admin</Trans>
        </span>
      ) : null}
    </span>
  ) : null;

  // aria-disabled rather than disabled while signing out, so the focused button keeps focus.
  const logout = (
    <Button
      variant="secondary"
      className="shrink-0"
      onClick={signOut}
      busy={signingOut}
      aria-disabled={signingOut || undefined}
    >
      <Trans>Logout</Trans>
    </Button>
  );

  // Whole class names, so Tailwind finds them: where the bar stops folding.
  const unfolded = user ? 'xl:flex' : 'lg:flex';
  const foldedOnly = user ? 'xl:hidden' : 'lg:hidden';

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <nav aria-label={t`Main`} className="mx-auto max-w-6xl px-4">
        <div className="flex h-16 items-center gap-3">
          <Logo onClick={closeMenu} />
          <div className={`hidden shrink-0 items-center gap-0 ${unfolded}`}>
            {pageLinks(desktopLink, true)}
          </div>
          <div className={`ms-auto hidden min-w-0 items-center justify-end gap-3 ${unfolded}`}>
            {user ? (
              <>
                {/* Stacked, so the name has the whole width the badges would have taken. */}
                <span className="flex min-w-0 flex-col items-end gap-0.5 text-sm">
                  {name}
                  {badges}
                </span>
                {logout}
              </>
            ) : (
              <>
                <NavLink to={paths.login} className={desktopLink}>
                  <Trans>Login</Trans>
                </NavLink>
                <NavLink
                  to={paths.signup}
                  className={buttonClass('primary', 'md', 'shrink-0 whitespace-nowrap')}
                >
                  <Trans>Sign Up</Trans>
                </NavLink>
              </>
            )}
          </div>
          <button
            ref={toggleRef}
            type="button"
            className={`ms-auto inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 ${foldedOnly}`}
            aria-expanded={open}
            aria-controls={menuId}
            aria-label={t`Toggle menu`}
            onClick={() => setOpen((value) => !value)}
          >
            <svg
              viewBox="0 0 24 24"
              className="size-6"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              aria-hidden="true"
            >
              {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
            </svg>
          </button>
        </div>
        <div id={menuId} hidden={!open} className={`border-t border-slate-200 pb-4 pt-2 ${foldedOnly}`}>
          {open ? (
            <>
              <div className="flex flex-col gap-1">{pageLinks(mobileLink, false)}</div>
              <div className="mt-3 border-t border-slate-200 pt-3">
                {user ? (
                  <div className="px-3">
                    <span className="flex min-w-0 text-sm">{name}</span>
                    <div className="mt-2 flex items-center justify-between gap-3 text-sm">
                      {badges}
                      {logout}
                    </div>
                  </div>
                ) : (
                  <div className="flex flex-col gap-1">
                    <NavLink to={paths.login} className={mobileLink} onClick={closeMenu}>
                      <Trans>Login</Trans>
                    </NavLink>
                    <NavLink to={paths.signup} className={mobileLink} onClick={closeMenu}>
                      <Trans>Sign Up</Trans>
                    </NavLink>
                  </div>
                )}
              </div>
              <LanguageSelect className="mt-3 border-t border-slate-200 px-3 pt-3" />
            </>
          ) : null}
        </div>
      </nav>
    </header>
  );
}
