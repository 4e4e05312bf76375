/**
 * Who may open a page (src/shared/routes.ts's `access`), as loaders that run before the page
 * renders, so the wrong page never flashes. The server enforces the same rules on the data; these
 * only spare the visitor a detour.
 */
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { type PageAccess, paths } from '../../../shared/routes';
import { getPublicConfig } from '../../lib/public-config';
import { authStore } from './auth-store';

/** Sign in, then come back here (the dashboard is where signing in leads anyway). */
function toSignIn(request: Request): never {
  const url = new URL(request.url);
  const here = `${url.pathname}${url.search}`;
  throw redirect(
    here === paths.dashboard ? paths.login : `${paths.login}?redirectTo=${encodeURIComponent(here)}`,
  );
}

export const guards: Record<PageAccess, ((args: LoaderFunctionArgs) => Promise<void>) | undefined> = {
  public: undefined,
  /** Sign-in and sign-up: a signed-in verified user goes on to the dashboard. */
  async guest() {
    const state = await authStore.ready();
    if (state.status === 'signed-in' && state.user.emailVerified) throw redirect(paths.dashboard);
  },
  /**
   * /verify-email: like the guest pages, except when opened from the mailed link (?token=…): the
   * link is spent whoever is signed in here, and the page then says where to go.
   */
  async verify(args) {
    if (new URL(args.request.url).searchParams.has('token')) {
      await authStore.ready();
      return;
    }
    return guards.guest?.(args);
  },
  /** Signed out goes to sign in (and back here after), unverified to /verify-email. */
  async verified({ request }) {
    const state = await authStore.ready();
    if (state.status !== 'signed-in') toSignIn(request);
    if (!state.user.emailVerified) throw redirect(paths.verifyEmail);
  },
  async 'signed-in'({ request }) {
    const state = await authStore.ready();
    if (state.status !== 'signed-in') toSignIn(request);
  },
  /**
   * The console: signed out goes to sign in, anyone but an admin to the dashboard. Where admins
   * must have two-factor on (ADMIN_TWO_FACTOR=required), an admin without it sees only the page
   * that sets it up; once it is on, that page leads on to the console.
   */
  async admin({ request }) {
    const state = await authStore.ready();
    if (state.status !== 'signed-in') toSignIn(request);
    if (!state.user.isAdmin) throw redirect(paths.dashboard);
    const setupPage = new URL(request.url).pathname === paths.adminTwoFactor;
    if (state.user.twoFactorEnabled || setupPage) return;
    if ((await getPublicConfig()).adminTwoFactor === 'required') throw redirect(paths.adminTwoFactor);
  },
};
