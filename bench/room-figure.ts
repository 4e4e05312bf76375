/**
 * Row 9, the lesson room: time from both participants joined to the first remote video frame on
 * both sides, median of 5 rounds, and the signals it took. WebRTC media must never reach this
 * machine's network, so the measurement (server and browser) runs in a network namespace that has
 * only loopback, the one the browser tests use: the PostgreSQL of the other rows is not reachable
 * there, so it runs on the embedded store.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { benchRoot, projectRoot } from './processes';
import type { FigureResult } from './report';
import { median, spread } from './stats';

export async function measureRoomFigure(): Promise<FigureResult> {
  // Without the namespace the media could take the machine's network address: then no figure.
  if (spawnSync('unshare', ['--net', '--map-root-user', 'true']).status !== 0)
    throw new Error('no loopback-only network namespace can be made here (unshare --net)');
  const child = spawn(
    'sh',
    [join(projectRoot, 'scripts/loopback-only.sh'), process.execPath, '--import', 'tsx', 'room-child.ts'],
    { cwd: benchRoot, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    err = (err + chunk).slice(-4000);
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const last = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !last.startsWith('{'))
    throw new Error(`the room's rounds failed (exit ${code}):\n${err}`);
  const { seconds, signals } = JSON.parse(last) as { seconds: number[]; signals: number[] };
  const time = spread(seconds);
  return {
    rows: [
      {
        id: '9',
        figure: `lesson room: both joined to the first remote frame on both sides, ${seconds.length} rounds`,
        measured: `median ${median(seconds).toFixed(2)} s (${time.min.toFixed(2)}-${time.max.toFixed(2)}); signals sent: median ${median(signals)} (${Math.min(...signals)}-${Math.max(...signals)})`,
        reference: '',
        ratio: '',
        budget: 'reported',
        status: 'reported',
      },
    ],
    findings: [],
    details: { seconds, signals },
  };
}
