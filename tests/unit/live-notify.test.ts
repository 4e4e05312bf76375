/**
 * How a server tells the others of live events: those sent while a statement is out go together
 * in the next one, in their order, on the listener's connection; a pooled connection only when
 * the listener has none or loses it under the statement.
 */
import type pg from 'pg';
import { expect, it } from 'vitest';
import { notifierOn } from '../../src/server/messages/live-notify';

/** A connection that records each statement's payloads and answers when told to. */
function fakeConnection(fails = false) {
  const statements: string[][] = [];
  const answers: (() => void)[] = [];
  const connection = {
    statements,
    answerAll: () => {
      for (const answer of answers.splice(0)) answer();
    },
    query: (_text: string, values: [string, string[]]) => {
      statements.push(values[1]);
      if (fails) return Promise.reject(new Error('Connection terminated unexpectedly'));
      return new Promise<void>((resolve) => answers.push(resolve));
    },
  };
  return connection;
}

it('sends the events that come while a statement is out together in the next one, in order', async () => {
  const listener = fakeConnection();
  const pool = fakeConnection();
  const notifier = notifierOn('live', pool as unknown as pg.Pool, () => listener as unknown as pg.PoolClient);
  const first = notifier.send('e1');
  const burst = Array.from({ length: 30 }, (_, n) => notifier.send(`e${n + 2}`));
  expect(listener.statements).toEqual([['e1']]);
  listener.answerAll();
  await first;
  await expect.poll(() => listener.statements.length).toBe(2);
  expect(listener.statements[1]).toEqual(Array.from({ length: 30 }, (_, n) => `e${n + 2}`));
  listener.answerAll();
  await Promise.all(burst);
  expect(pool.statements).toEqual([]);
});

it('uses a pooled connection when the listener has none, or loses it under the statement', async () => {
  const pool = fakeConnection();
  let listener: ReturnType<typeof fakeConnection> | undefined;
  const notifier = notifierOn(
    'live',
    pool as unknown as pg.Pool,
    () => listener as unknown as pg.PoolClient | undefined,
  );
  const reconnecting = notifier.send('while reconnecting');
  pool.answerAll();
  await reconnecting;
  listener = fakeConnection(true);
  const lost = notifier.send('while lost');
  await expect.poll(() => pool.statements.length).toBe(2);
  pool.answerAll();
  await lost;
  expect(listener.statements).toEqual([['while lost']]);
  expect(pool.statements).toEqual([['while reconnecting'], ['while lost']]);
});
