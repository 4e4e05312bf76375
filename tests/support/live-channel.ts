/** A browser tab's live channel (GET /api/live) for API tests: the frames it gets, and a way to wait for one. */
import WebSocket from 'ws';
import type { CookieJar } from './accounts';
import { TEST_APP_URL } from './test-app';

export type Frame = { type: string; [key: string]: unknown };

/** Opens a channel as the jar's user; rejects with "HTTP <status>" when the server refuses. */
export async function openChannel(base: string, jar: CookieJar, origin = TEST_APP_URL) {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/api/live`, {
    headers: { cookie: jar.header(), origin, 'x-forwarded-for': '10.9.8.7' },
  });
  const frames: { type: string; [key: string]: unknown }[] = [];
  const listeners = new Set<() => void>();
  socket.on('message', (data) => {
    frames.push(JSON.parse(String(data)));
    for (const listener of listeners) listener();
  });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`HTTP ${response.statusCode}`)),
    );
    socket.once('error', reject);
  });
  return {
    socket,
    frames,
    closed,
    next(match: (frame: { type: string; [key: string]: unknown }) => boolean, timeoutMs = 5000) {
      return new Promise<{ type: string; [key: string]: unknown }>((resolve, reject) => {
        const check = () => {
          const found = frames.find(match);
          if (!found) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no matching frame; got ${JSON.stringify(frames)}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
  };
}
