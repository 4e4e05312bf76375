import { describe, expect, it, vi } from 'vitest';
import { type AuthUser, createAuthStore } from '../../src/client/features/auth/auth-store';
import { reportableTimeZone, reportTimeZoneOnce } from '../../src/client/features/auth/time-zone-report';

const person = (id: string, timeZone: string | null): AuthUser => ({
  id,
  email: `${id}@example.com`,
  displayName: id,
  role: 'student',
  emailVerified: true,
  isAdmin: false,
  twoFactorEnabled: false,
  language: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  timeZone,
});

/** A tab's auth state that the test signs in and out. */
function tab() {
  let user: AuthUser | null = null;
  const listeners = new Set<() => void>();
  return {
    getState: () =>
      user ? { status: 'signed-in' as const, user } : { status: 'signed-out' as const, user: null },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    noteTimeZone() {},
    signIn(who: AuthUser | null) {
      user = who;
      for (const listener of listeners) listener();
    },
  };
}

/** Lets the report's promise settle. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the browser’s time zone report', () => {
  it('reports once for a signed-in person without a zone, and keeps the zone the server saved', async () => {
    const store = createAuthStore(person('ana', null));
    // The server may answer another zone: one a second tab saved first.
    const send = vi.fn(async () => 'Europe/Lisbon');
    reportTimeZoneOnce(store, { zone: 'America/New_York', send });
    expect(send).toHaveBeenCalledExactlyOnceWith('America/New_York');
    await settled();
    expect(store.getState().user?.timeZone).toBe('Europe/Lisbon');
    // Later changes of the state (a name saved) report nothing more.
    store.noteTimeZone('Europe/Lisbon');
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('waits until someone signs in, and reports for each person once', () => {
    const store = tab();
    const send = vi.fn(async (zone: string) => zone);
    reportTimeZoneOnce(store, { zone: 'Asia/Kolkata', send });
    expect(send).not.toHaveBeenCalled();
    store.signIn(person('ben', null));
    store.signIn(null);
    store.signIn(person('ben', null));
    expect(send).toHaveBeenCalledTimes(1);
    store.signIn(person('cara', null));
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('says nothing for a person whose zone is saved, or signed out', () => {
    const send = vi.fn(async (zone: string) => zone);
    reportTimeZoneOnce(createAuthStore(person('cy', 'Asia/Tokyo')), { zone: 'America/Chicago', send });
    reportTimeZoneOnce(createAuthStore(null), { zone: 'America/Chicago', send });
    expect(send).not.toHaveBeenCalled();
  });

  it('does not take UTC for a choice: browsers that hide their zone say UTC', () => {
    expect(reportableTimeZone('UTC')).toBeNull();
    expect(reportableTimeZone('Etc/UTC')).toBeNull();
    expect(reportableTimeZone('')).toBeNull();
    expect(reportableTimeZone('Europe/Dublin')).toBe('Europe/Dublin');
    const send = vi.fn(async (zone: string) => zone);
    reportTimeZoneOnce(createAuthStore(person('dee', null)), { zone: reportableTimeZone('UTC'), send });
    expect(send).not.toHaveBeenCalled();
  });
});
