/**
 * What a server's shutdown relies on: a job's stop waits for its pass in progress (the database
 * closes after it), and a line logged after the log is closed goes nowhere instead of throwing.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SonicBoom from 'sonic-boom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeLogs, createLogger } from '../../src/server/logging/logger';
import { startMinuteJob } from '../../src/server/platform/minute-job';

afterEach(() => {
  vi.useRealTimers();
});

const silentLogger = () => createLogger({ level: 'silent' });

describe('a minute job', () => {
  it('stops only after the pass in progress has finished', async () => {
    vi.useFakeTimers();
    let finishPass = () => {};
    const events: string[] = [];
    const stop = startMinuteJob(
      {
        run: () =>
          new Promise<void>((resolve) => {
            events.push('pass started');
            finishPass = () => {
              events.push('pass finished');
              resolve();
            };
          }),
        done: () => {},
        failure: 'test job failed',
        name: 'test',
      },
      silentLogger(),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(events).toEqual(['pass started']);

    const stopped = stop().then(() => events.push('stopped'));
    await vi.advanceTimersByTimeAsync(10);
    expect(events).toEqual(['pass started']);
    finishPass();
    await stopped;
    expect(events).toEqual(['pass started', 'pass finished', 'stopped']);

    // No pass starts once stopped.
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(events).toHaveLength(3);
  });

  it('stops at once when no pass is running', async () => {
    vi.useFakeTimers();
    const run = vi.fn(async () => {});
    const stop = startMinuteJob({ run, done: () => {}, failure: 'f', name: 'test' }, silentLogger());
    await stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(run).not.toHaveBeenCalled();
  });
});

describe('the log after closeLogs', () => {
  it('takes a late line without throwing, and keeps what was written before', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'tutorlane-log-')), 'out.log');
    const destination = new SonicBoom({ dest: file, sync: false, mkdir: true });
    await new Promise((resolve) => destination.once('ready', resolve));
    const logger = createLogger({ level: 'info', destination });
    logger.info('database closed; bye');
    await closeLogs(logger);
    // The stream itself is closed: a write straight into it throws.
    expect(() => destination.write('late\n')).toThrow('SonicBoom destroyed');
    expect(() => logger.warn('lesson job failed')).not.toThrow();
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.map((line) => JSON.parse(line).msg)).toEqual(['database closed; bye']);
  });
});
