/**
 * The seed's route table, as loaders that run before a page renders (so the wrong page never
 * flashes). The server enforces the same rules on the data; these only spare the user a detour.
 */
import { type LoaderFunctionArgs, redirect } from 'react-router';
import { paths } from '../../../shared/routes';
import { authStore } from './auth-store';

/** /login, /signup, /verify-email: a signed-in verified user goes to the dashboard. */
export async function guestOnly() {
  const state = await authStore.ready();
  if (state.status === 'signed-in' && state.user.emailVerified) throw redirect(paths.dashboard);
  return null;
}

/**
 * /verify-email: like the other guest pages, except when opened from the mailed link (?token=…):
 * the link is spent whoever is signed in here, and the page then says where to go.
 */
export async function verifyEmailGuard({ request }: LoaderFunctionArgs) {
  if (new URL(request.url).searchParams.has('token')) {
    await authStore.ready();
    return null;
  }
  return guestOnly();
}

/** /dashboard, /schedule: signed out goes to /login, unverified to /verify-email. */
export async function verifiedOnly() {
  const state = await authStore.ready();
  if (state.status !== 'signed-in') throw redirect(paths.login);
  if (!state.user.emailVerified) throw redirect(paths.verifyEmail);
  return null;
}

/** /profile: any signed-in user. */
export async function signedInOnly() {
  const state = await authStore.ready();
  if (state.status !== 'signed-in') throw redirect(paths.login);
  return null;
}
