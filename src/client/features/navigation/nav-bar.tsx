/**
 * The top navigation: logo, Home, Schedule, Contact Us; Login and Sign Up when signed out; the
 * display name, the role and Logout when signed in; Dashboard only for a verified user. Below the
 * md breakpoint the links fold behind a Toggle menu button that closes on navigation and Escape.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { ROLE_LABELS } from '../../../shared/constants';
import { paths } from '../../../shared/routes';
import { buttonClass } from '../../components/button';
import { useAuth } from '../auth/auth-provider';

const desktopLink = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium transition-colors ${
    isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'
  }`;
const mobileLink = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-3 text-base font-medium ${isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-800 hover:bg-slate-100'}`;

function Logo() {
  return (
    <Link to={paths.home} className="flex items-center gap-2 rounded-md text-lg font-bold text-slate-900">
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
  const auth = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu whenever the page changes.
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
  const signOut = async () => {
    setSigningOut(true);
    await auth.actions.signOut();
    setSigningOut(false);
    setOpen(false);
    navigate(paths.home);
  };

  const pageLinks = (className: typeof desktopLink) => (
    <>
      <NavLink to={paths.home} end className={className}>
        Home
      </NavLink>
      {user?.emailVerified ? (
        <NavLink to={paths.dashboard} className={className}>
          Dashboard
        </NavLink>
      ) : null}
      <NavLink to={paths.tutors} className={className}>
        Find Tutors
      </NavLink>
      <NavLink to={paths.schedule} className={className}>
        Schedule
      </NavLink>
      <NavLink to={paths.contact} className={className}>
        Contact Us
      </NavLink>
    </>
  );

  const identity = user ? (
    <span className="flex min-w-0 items-center gap-2 text-sm">
      <span className="truncate font-medium text-slate-900">{user.displayName}</span>
      <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">
        {ROLE_LABELS[user.role]}
      </span>
    </span>
  ) : null;

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <nav aria-label="Main" className="mx-auto max-w-6xl px-4">
        <div className="flex h-16 items-center gap-4">
          <Logo />
          <div className="hidden items-center gap-1 md:flex">{pageLinks(desktopLink)}</div>
          <div className="ml-auto hidden items-center gap-3 md:flex">
            {user ? (
              <>
                {identity}
                <button
                  type="button"
                  onClick={signOut}
                  disabled={signingOut}
                  className={buttonClass('secondary', 'md')}
                >
                  Logout
                </button>
              </>
            ) : (
              <>
                <NavLink to={paths.login} className={desktopLink}>
                  Login
                </NavLink>
                <NavLink to={paths.signup} className={buttonClass('primary', 'md')}>
                  Sign Up
                </NavLink>
              </>
            )}
          </div>
          <button
            ref={toggleRef}
            type="button"
            className="ml-auto inline-flex size-11 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 md:hidden"
            aria-expanded={open}
            aria-controls={menuId}
            aria-label="Toggle menu"
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
        <div id={menuId} hidden={!open} className="border-t border-slate-200 pb-4 pt-2 md:hidden">
          {open ? (
            <>
              <div className="flex flex-col gap-1">{pageLinks(mobileLink)}</div>
              <div className="mt-3 border-t border-slate-200 pt-3">
                {user ? (
                  <div className="flex items-center justify-between gap-3 px-3">
                    {identity}
                    <button
                      type="button"
                      onClick={signOut}
                      disabled={signingOut}
                      className={buttonClass('secondary', 'md')}
                    >
                      Logout
                    </button>
                  </div>
                ) : (
                  <div className="flex flex-col gap-1">
                    <NavLink to={paths.login} className={mobileLink}>
                      Login
                    </NavLink>
                    <NavLink to={paths.signup} className={mobileLink}>
                      Sign Up
                    </NavLink>
                  </div>
                )}
              </div>
            </>
          ) : null}
        </div>
      </nav>
    </header>
  );
}
