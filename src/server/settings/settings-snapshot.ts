/**
 * The site settings in effect, held in memory for the paths that carry them on every request:
 * every page's `tl-config` block and GET /api/config.
 *
 * Why a snapshot and not a read per request: reading the settings row and the catalogue costs about
 * two milliseconds on either store (twice a one-row select), while a signed-out visitor's page is
 * otherwise served without the database at all. A read per page would also make the first pages after start-up wait for the database to
 * open. So:
 * - a change made on this server is read back at once (`reload`, after the change committed);
 * - another server sharing the PostgreSQL database sees it a few seconds later: a snapshot older
 *   than MAX_AGE_MS is read again in the background while the old one is still served. A notification
 *   (LISTEN/NOTIFY, as src/server/messages/live.ts uses) would be quicker, but it needs a
 *   connection held open and a fallback for notifications lost while that connection was down;
 *   a settings change is rare and a few seconds' delay on other servers harms nobody.
 */
import type { Logger } from '../logging/logger';
import type { SettingsDefaults, SiteSettings } from './site-settings';

/** How long a snapshot is served before it is read again (in the background). */
export const MAX_AGE_MS = 5_000;

export interface SettingsSnapshot {
  /** The settings held, or undefined before the first read; an old snapshot starts a new read. */
  peek(): SiteSettings | undefined;
  /** The settings in effect, waiting for the first read if there is none yet. */
  get(): Promise<SiteSettings>;
  /**
   * For a page: the settings held; before the first read, the read once the database is open, or
   * undefined while it is still opening (or cannot be read), so a page never waits for it to open.
   */
  forPage(): SiteSettings | Promise<SiteSettings | undefined> | undefined;
  /** Reads the settings now: after a change on this server, so it shows at once. */
  reload(): Promise<SiteSettings>;
  /** The configuration's defaults the settings fall back on. */
  readonly defaults: SettingsDefaults;
}

export function createSettingsSnapshot(options: {
  /** Reads the settings in effect from the database (readSiteSettings). */
  read: () => Promise<SiteSettings>;
  /** Resolves once the database is open and migrated. */
  ready: Promise<void>;
  defaults: SettingsDefaults;
  logger: Pick<Logger, 'warn'>;
  maxAgeMs?: number | undefined;
}): SettingsSnapshot {
  const { ready, defaults, logger, maxAgeMs = MAX_AGE_MS } = options;
  let value: SiteSettings | undefined;
  let readAt = 0;
  // Reads may overlap (a background refresh, then a reload after a change): each is numbered, and
  // an older one that finishes last never replaces what a newer one read.
  let started = 0;
  let applied = 0;
  let first: Promise<SiteSettings> | undefined;
  let refreshing = false;
  let open = false;
  ready.then(
    () => {
      open = true;
    },
    () => {},
  );

  async function read(): Promise<SiteSettings> {
    const number = ++started;
    await ready;
    const settings = await options.read();
    if (number > applied) {
      applied = number;
      value = settings;
      readAt = Date.now();
    }
    return value ?? settings;
  }

  function refreshInBackground() {
    if (refreshing) return;
    refreshing = true;
    read()
      .catch((error: unknown) =>
        logger.warn(
          { err: (error as Error).message },
          'could not read the site settings; serving the last ones',
        ),
      )
      .finally(() => {
        refreshing = false;
      });
  }

  const snapshot: SettingsSnapshot = {
    defaults,
    peek() {
      if (value === undefined || Date.now() - readAt > maxAgeMs) {
        if (value === undefined) void snapshot.get().catch(() => {});
        else refreshInBackground();
      }
      return value;
    },
    async get() {
      if (value !== undefined) return snapshot.peek() ?? value;
      first ??= read().finally(() => {
        first = undefined;
      });
      return first;
    },
    forPage() {
      const held = snapshot.peek();
      if (held !== undefined || !open) return held;
      return snapshot.get().catch(() => undefined);
    },
    reload: read,
  };
  // Read as soon as the database is open, so the first pages already carry the settings.
  ready.then(() => snapshot.get()).catch(() => {});
  return snapshot;
}
