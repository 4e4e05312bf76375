/**
 * The browser's auth state, kept outside React so route loaders (the guards) and components read
 * the same truth. React reads it through AuthProvider and useAuth().
 */
import type { Role } from '../../../shared/constants';
import { api } from '../../lib/api-client';
import { readPageData } from '../../lib/page-data';

export interface AuthUser {
  id: string;
  email: string;
  displayName: string;
  role: Role;
  emailVerified: boolean;
  createdAt: string;
}

export type AuthState =
  | { status: 'loading'; user: null }
  | { status: 'signed-out'; user: null }
  | { status: 'signed-in'; user: AuthUser };

export interface SignUpInput {
  fullName: string;
  email: string;
  password: string;
  confirmPassword: string;
  role: Role;
  captcha: string;
}

/** The session the server put in the page (static-site.ts), when it did: no request needed. */
function sessionFromPage(): AuthUser | null | undefined {
  return readPageData<{ user: AuthUser | null }>('tl-session')?.user;
}

export function createAuthStore(initial: AuthUser | null | undefined = undefined) {
  let state: AuthState =
    initial === undefined
      ? { status: 'loading', user: null }
      : initial
        ? { status: 'signed-in', user: initial }
        : { status: 'signed-out', user: null };
  const listeners = new Set<() => void>();
  let loading: Promise<AuthState> | null = null;

  const set = (user: AuthUser | null) => {
    state = user ? { status: 'signed-in', user } : { status: 'signed-out', user: null };
    for (const listener of listeners) listener();
    return state;
  };

  const load = async (): Promise<AuthState> => {
    try {
      const { user } = await api<{ user: AuthUser | null }>('/api/session');
      return set(user);
    } catch (error) {
      // The seed logs a profile fetch failure and carries on signed out.
      console.error('Could not load the session', error);
      return set(null);
    }
  };

  return {
    getState: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Resolves once the first auth status is known. */
    ready(): Promise<AuthState> {
      if (state.status !== 'loading') return Promise.resolve(state);
      loading ??= load();
      return loading;
    },
    refresh: load,
    async signIn(email: string, password: string) {
      const { user } = await api<{ user: AuthUser }>('/api/auth/sign-in/email', {
        method: 'POST',
        body: { email, password },
      });
      set(user);
      return user;
    },
    async signUp(input: SignUpInput) {
      const { user } = await api<{ user: AuthUser }>('/api/auth/sign-up/email', {
        method: 'POST',
        headers: { 'X-Captcha': input.captcha },
        body: {
          name: input.fullName,
          email: input.email,
          password: input.password,
          confirmPassword: input.confirmPassword,
          role: input.role,
        },
      });
      set(user);
      return user;
    },
    async signOut() {
      try {
        await api('/api/auth/sign-out', { method: 'POST', body: {} });
      } catch (error) {
        // The seed logs a logout failure; locally the user is signed out either way.
        console.error('Logout failed', error);
      }
      set(null);
    },
    /** Spends a verification link's token; true when this browser is signed in as that account. */
    async verifyEmail(token: string) {
      const result = await api<{ verified: boolean; signedIn: boolean }>('/api/account/verify-email', {
        method: 'POST',
        body: { token },
      });
      if (result.signedIn) await load();
      return result;
    },
    /** Sets a new password with a reset link's token. The server then ends every session of
     * that user, this browser's too, so the state is read again rather than kept. */
    async resetPassword(token: string, newPassword: string, confirmPassword: string) {
      await api('/api/auth/reset-password', {
        method: 'POST',
        body: { token, newPassword, confirmPassword },
      });
      await load();
    },
    async resendVerification(email: string) {
      await api('/api/auth/send-verification-email', { method: 'POST', body: { email } });
    },
    async updateDisplayName(displayName: string) {
      const profile = await api<{ displayName: string }>('/api/profile', {
        method: 'PATCH',
        body: { displayName },
      });
      if (state.status === 'signed-in') set({ ...state.user, displayName: profile.displayName });
      return profile;
    },
  };
}

export type AuthStore = ReturnType<typeof createAuthStore>;

/** The one store of this browser tab, starting from the session in the page when there is one. */
export const authStore = createAuthStore(sessionFromPage());
