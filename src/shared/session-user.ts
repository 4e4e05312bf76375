/** The signed-in user as the browser knows it: what GET /api/session and every page carry. */
import type { Role } from './constants';
import type { Language } from './languages';

export interface SessionUser {
  id: string;
  email: string;
  displayName: string;
  role: Role;
  emailVerified: boolean;
  /** An operator: sees the admin console. Never chosen at sign-up. */
  isAdmin: boolean;
  /** Whether signing in asks for an authenticator or backup code after the password. */
  twoFactorEnabled: boolean;
  /** ISO 8601. */
  createdAt: string;
  /**
   * The IANA zone saved on the profile, or null while none is: the browser then reports its own
   * once (POST /api/profile/time-zone).
   */
  timeZone: string | null;
  /** The language they chose (pages, mails, errors), or null while they never chose one. */
  language: Language | null;
}
