/**
 * Reports this browser's time zone for a signed-in person whose profile has none saved, once per
 * person and tab, so their mails and pages use their zone from the first visit rather than UTC.
 * The server keeps it only while no zone is saved (a zone chosen on /profile always wins), so a
 * report that crosses another tab's, or a choice, changes nothing.
 */
import { api, request } from '../../lib/api';
import type { AuthStore } from './auth-store';

/** The browser's zone, or null when it tells nothing about where the person is. */
export function reportableTimeZone(zone = Intl.DateTimeFormat().resolvedOptions().timeZone): string | null {
  // Browsers that hide where their user is (Tor Browser, Firefox resisting fingerprinting) all
  // say UTC. Saved, it would pass for a choice and stop /schedule asking the person to save theirs.
  if (!zone || zone === 'UTC' || zone === 'Etc/UTC') return null;
  return zone;
}

const sendReport = async (timeZone: string) =>
  (await request(api.profile['time-zone'].$post({ json: { timeZone } }))).timeZone;

export function reportTimeZoneOnce(
  store: Pick<AuthStore, 'getState' | 'subscribe' | 'noteTimeZone'>,
  options: { zone?: string | null; send?: (timeZone: string) => Promise<string> } = {},
): () => void {
  const zone = options.zone === undefined ? reportableTimeZone() : options.zone;
  const send = options.send ?? sendReport;
  const reported = new Set<string>();
  const check = () => {
    const { user } = store.getState();
    if (!zone || !user || user.timeZone !== null || reported.has(user.id)) return;
    reported.add(user.id);
    send(zone)
      .then((saved) => store.noteTimeZone(saved))
      // Not reported this time (offline, a zone this server's data does not know): the person
      // still chooses one on /profile, and the next tab tries again.
      .catch((error) => console.warn('Could not report the time zone', error));
  };
  check();
  return store.subscribe(check);
}
