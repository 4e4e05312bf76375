/** OneAtATime: tasks under one key in turn, in the order they came; other keys alongside; a failure frees the turn. */
import { describe, expect, it } from 'vitest';
import { OneAtATime } from '../../src/server/rate-limit/one-at-a-time';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('OneAtATime', () => {
  it('runs the tasks of one key one after another, in order, and other keys alongside', async () => {
    const turns = new OneAtATime();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const task = (name: string) => async () => {
      running += 1;
      most = Math.max(most, running);
      log.push(`${name} starts`);
      await tick();
      log.push(`${name} ends`);
      running -= 1;
      return name;
    };
    const same = await Promise.all(['a', 'b', 'c'].map((name) => turns.run('key', task(name))));
    expect(same).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a starts', 'a ends', 'b starts', 'b ends', 'c starts', 'c ends']);
    expect(most).toBe(1);

    most = 0;
    await Promise.all(['x', 'y'].map((name) => turns.run(name, task(name))));
    expect(most).toBe(2);
    expect(turns.size).toBe(0);
  });

  it('passes a failure to its caller and lets the next task run', async () => {
    const turns = new OneAtATime();
    const failing = turns.run('key', async () => {
      await tick();
      throw new Error('no');
    });
    const next = turns.run('key', async () => 'ran');
    await expect(failing).rejects.toThrow('no');
    await expect(next).resolves.toBe('ran');
    expect(turns.size).toBe(0);
  });
});
