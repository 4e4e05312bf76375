/**
 * Which Chromium the browser suite drives, and with which flags: Debian's, never a downloaded one
 * (these machines have no internet). Its headless shell, the headless browser Playwright itself
 * runs by default, is preferred: it renders the same pages with a third less work than the full
 * browser in headless mode (docs/decisions/0029-ci-in-passes.md). CHROMIUM_PATH chooses another.
 */
import { existsSync } from 'node:fs';

const candidates = process.env.CHROMIUM_PATH
  ? [process.env.CHROMIUM_PATH]
  : ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];

/** Undefined when none is installed. */
export const chromiumPath = candidates.find((path) => existsSync(path));

/**
 * The full browser, for the lesson room: the headless shell connects the call but counts no
 * decoded frame of the other side's video, which is what the room's test watches.
 */
export const fullChromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** As Playwright's own launch, plus what keeps Chromium off a closed network. */
export const chromiumFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
