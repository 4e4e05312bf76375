/** The bound on costly work in one process: two at a time, a short line, then busy. */
import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit, ServerBusyError } from '../../src/server/rate-limit/concurrency-limit';

/** A task that runs until the test lets it finish. */
function heldTask() {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { task: () => done, finish };
}

describe('concurrency limit', () => {
  it('runs at most `slots` tasks at once and starts the next as soon as one ends', async () => {
    const limit = new ConcurrencyLimit({ slots: 2, maxWaiting: 10, maxWaitMs: 5000 });
    let running = 0;
    let most = 0;
    const task = async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running -= 1;
      return 'done';
    };
    const results = await Promise.all(Array.from({ length: 8 }, () => limit.run(task)));
    expect(results).toEqual(Array(8).fill('done'));
    expect(most).toBe(2);
    expect(limit.active).toBe(0);
  });

  it('lets a waiting task in when a slot frees within its wait', async () => {
    const limit = new ConcurrencyLimit({ slots: 1, maxWaiting: 1, maxWaitMs: 2000 });
    const held = heldTask();
    const first = limit.run(held.task);
    const second = limit.run(async () => 'second');
    setTimeout(held.finish, 50);
    await first;
    expect(await second).toBe('second');
  });

  it('says busy after the wait, and at once when the line is full', async () => {
    const limit = new ConcurrencyLimit({ slots: 1, maxWaiting: 1, maxWaitMs: 100 });
    const held = heldTask();
    const first = limit.run(held.task);
    const started = Date.now();
    const waiting = limit.run(async () => 'never');
    await expect(limit.run(async () => 'never')).rejects.toBeInstanceOf(ServerBusyError);
    expect(Date.now() - started).toBeLessThan(50);
    await expect(waiting).rejects.toBeInstanceOf(ServerBusyError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    held.finish();
    await first;
    // The slot given back, and no one left in line: the next task runs at once.
    expect(await limit.run(async () => 'next')).toBe('next');
  });

  it('gives the slot back when a task fails', async () => {
    const limit = new ConcurrencyLimit({ slots: 1, maxWaiting: 0, maxWaitMs: 100 });
    await expect(limit.run(() => Promise.reject(new Error('decode failed')))).rejects.toThrow(
      'decode failed',
    );
    expect(await limit.run(async () => 'after')).toBe('after');
  });

  it('without a line limit or a wait limit, makes everyone wait their turn and turns no one away', async () => {
    const limit = new ConcurrencyLimit({ slots: 1 });
    const held = heldTask();
    const first = limit.run(held.task);
    const order: number[] = [];
    const waiting = Array.from({ length: 50 }, (_, i) =>
      limit.run(async () => {
        order.push(i);
        return i;
      }),
    );
    // Longer than any wait limit the photo uploads use would allow, and still in line.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(order).toEqual([]);
    held.finish();
    await first;
    expect(await Promise.all(waiting)).toEqual(order);
    expect(order).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });
});
