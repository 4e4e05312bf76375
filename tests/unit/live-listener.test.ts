/**
 * The live channel's listener when its connection is lost: PostgreSQL ending a connection reports
 * more than one error on it (its own message, then the socket's end), and the pool throws when a
 * client is released twice, outside any handler. The listener gives its client back once, listens
 * again on a new one a second later, and stopping gives the new one back once too.
 */
import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { afterEach, expect, it, vi } from 'vitest';
import type { DB } from '../../src/server/db/schema';
import { createLogger } from '../../src/server/logging/logger';
import { createLiveHub } from '../../src/server/messages/live';

/** A pool client as pg-pool hands it out: releasing it a second time throws, as pg-pool does. */
function fakeClient() {
  const client = Object.assign(new EventEmitter(), {
    queries: [] as string[],
    releases: 0,
    query: async (text: string) => {
      client.queries.push(text);
      return { rows: [] };
    },
    release: () => {
      client.releases += 1;
      if (client.releases > 1)
        throw new Error('Release called on client which has already been released to the pool.');
    },
  });
  return client;
}

afterEach(() => {
  vi.useRealTimers();
});

it('gives a lost connection back once, however many errors it reports, and listens again', async () => {
  vi.useFakeTimers();
  const clients: ReturnType<typeof fakeClient>[] = [];
  const pool = {
    connect: async () => {
      const client = fakeClient();
      clients.push(client);
      return client;
    },
  } as unknown as pg.Pool;
  const hub = createLiveHub({ db: {} as Kysely<DB>, pool, logger: createLogger({ level: 'silent' }) });
  await hub.start();
  const [first] = clients;
  expect(first?.queries).toEqual(['listen tutorlane_live']);

  const lost = new Error('terminating connection due to administrator command');
  expect(() => first?.emit('error', lost)).not.toThrow();
  expect(() => first?.emit('error', new Error('Connection terminated unexpectedly'))).not.toThrow();
  expect(first?.releases).toBe(1);

  // A second later, a new connection listens.
  await vi.advanceTimersByTimeAsync(1000);
  expect(clients).toHaveLength(2);
  const second = clients[1];
  expect(second?.queries).toEqual(['listen tutorlane_live']);

  await hub.stop();
  expect(second?.queries.at(-1)).toBe('unlisten tutorlane_live');
  expect(second?.releases).toBe(1);
  // An error the closing connection reports after the stop releases nothing twice, nor listens again.
  expect(() => second?.emit('error', lost)).not.toThrow();
  expect(second?.releases).toBe(1);
  await vi.advanceTimersByTimeAsync(5000);
  expect(clients).toHaveLength(2);
});
