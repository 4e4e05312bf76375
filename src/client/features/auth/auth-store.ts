/**
 * The browser's auth state, kept outside React so route loaders (the guards), actions and
 * components read the same truth. React reads it through AuthProvider and useAuth(). Every call
 * goes through the API's typed client.
 */
import type { Role } from '../../../shared/constants';
import { type Language, PSEUDO_LANGUAGE } from '../../../shared/languages';
import type { SessionUser } from '../../../shared/session-user';
import { api, request } from '../../lib/api';
import { pageLanguage } from '../../lib/i18n';
import { readPageData } from '../../lib/page-data';

export type AuthUser = SessionUser;

export type AuthState =
  | { status: 'loading'; user: null }
  | { status: 'signed-out'; user: null }
  | { status: 'signed-in'; user: AuthUser };

export interface SignUpInput {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
  role: Role;
  captcha: string;
}

/** The session the server put in the page (src/server/http/static-site.ts), when it did. */
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
      const { user } = await request(api.session.$get());
      return set(user);
    } catch (error) {
      // A session that cannot be read is logged, and the visitor carries on signed out.
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
    /**
     * Signs in with the password; null when the account has two-factor on and the sign-in waits
     * for its code (verifyTwoFactor), with no session until then.
     */
    async signIn(email: string, password: string): Promise<AuthUser | null> {
      const answer = await request(api.auth['sign-in'].email.$post({ json: { email, password } }));
      if ('twoFactorRedirect' in answer) return null;
      set(answer.user);
      return answer.user;
    },
    /** Finishes a sign-in that waits for its code: from the authenticator app, or a backup code. */
    async verifyTwoFactor(method: 'totp' | 'backup', code: string, trustDevice: boolean) {
      const json = { code, trustDevice };
      const { user } = await request(
        method === 'totp'
          ? api.auth['two-factor']['verify-totp'].$post({ json })
          : api.auth['two-factor']['verify-backup-code'].$post({ json }),
      );
      set(user);
      return user;
    },
    /** The new account speaks the page's language: its verification mail is written in it. */
    async signUp({ captcha, ...form }: SignUpInput) {
      const language = pageLanguage();
      const json = language === PSEUDO_LANGUAGE ? form : { ...form, language };
      const { user } = await request(
        api.auth['sign-up'].email.$post({ json }, { headers: { 'X-Captcha': captcha } }),
      );
      set(user);
      return user;
    },
    async signOut() {
      try {
        await request(api.auth['sign-out'].$post());
      } catch (error) {
        // A failed logout is logged; locally the user is signed out either way.
        console.error('Logout failed', error);
      }
      set(null);
    },
    /** Spends a verification link's token; says whether this browser is signed in as that account. */
    async verifyEmail(token: string) {
      const result = await request(api.account['verify-email'].$post({ json: { token } }));
      if (result.signedIn) await load();
      return result;
    },
    /**
     * Sets a new password with a reset link's token. The server then ends every session of that
     * user, this browser's too, so the state is read again rather than kept.
     */
    async resetPassword(token: string, newPassword: string, confirmPassword: string) {
      await request(api.auth['reset-password'].$post({ json: { token, newPassword, confirmPassword } }));
      await load();
    },
    async resendVerification(email: string) {
      await request(api.auth['send-verification-email'].$post({ json: { email } }));
    },
    /** The zone now saved on the profile, as the server answered it. */
    noteTimeZone(timeZone: string | null) {
      if (state.status === 'signed-in' && state.user.timeZone !== timeZone) set({ ...state.user, timeZone });
    },
    async updateDisplayName(displayName: string) {
      const profile = await request(api.profile.$patch({ json: { displayName } }));
      if (state.status === 'signed-in') set({ ...state.user, displayName: profile.displayName });
      return profile;
    },
    /** Saves the language chosen in the switcher on the profile: its mails and pages speak it. */
    async updateLanguage(language: Language) {
      await request(api.profile.$patch({ json: { language } }));
    },
  };
}

export type AuthStore = ReturnType<typeof createAuthStore>;

/** The one store of this browser tab, starting from the session in the page when there is one. */
export const authStore = createAuthStore(sessionFromPage());
