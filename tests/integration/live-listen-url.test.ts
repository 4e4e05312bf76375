/**
 * The live channel's listener on a connection of its own (DATABASE_LISTEN_URL), as behind a
 * pooler in transaction mode: one server publishes an event through its pool, another hears it
 * through its listener's URL, here a proxy that can be cut. Cutting it loses the listener alone:
 * the server tells its tabs to catch up once the listener is back, and hears the next event.
 * Needs PostgreSQL at 127.0.0.1:5432, as CI has it.
 */
import { tmpdir } from 'node:os';
import type { WSContext } from 'hono/ws';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/database';
import { createLogger } from '../../src/server/logging/logger';
import { createLiveHub, type LiveHub } from '../../src/server/messages/live';
import { createPostgresDatabase, POSTGRES, type PostgresDatabase } from '../support/postgres-database';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

let created: PostgresDatabase;
let first: Database;
let second: Database;
let proxy: TcpProxy;
let publisher: LiveHub;
let listener: LiveHub;
const logger = createLogger({ level: 'silent' });

beforeAll(async () => {
  const database = await createPostgresDatabase('tutorlane_listen');
  if (!database) throw new Error('This test needs PostgreSQL at 127.0.0.1:5432 (user postgres, trust auth)');
  created = database;
  const url = `postgres://postgres@${POSTGRES.host}:${POSTGRES.port}/${created.name}`;
  first = await openDatabase({ databaseUrl: url, dataDir: tmpdir(), poolSize: 2 });
  second = await openDatabase({ databaseUrl: url, dataDir: tmpdir(), poolSize: 2 });
  proxy = await startTcpProxy(POSTGRES);
  publisher = createLiveHub({ db: first.db, pool: first.pool, logger });
  listener = createLiveHub({
    db: second.db,
    pool: second.pool,
    listenUrl: `postgres://postgres@127.0.0.1:${proxy.port}/${created.name}`,
    logger,
  });
  await publisher.start();
  await listener.start();
});

afterAll(async () => {
  await listener?.stop();
  await publisher?.stop();
  await proxy?.close();
  await second?.close();
  await first?.close();
  await created?.drop();
});

it('hears other servers through its own URL, and catches its tabs up after losing it', async () => {
  const received: { type: string; conversationId?: string; unreadTotal?: number }[] = [];
  const tab = {
    send: (raw: string) => received.push(JSON.parse(raw)),
    close: () => {},
    raw: {},
  } as unknown as WSContext;
  listener.attach('reader', 'session-of-reader', tab);
  expect(received).toEqual([{ type: 'ready' }]);

  await publisher.conversationRead('reader', 'conversation-1', 3);
  await vi.waitFor(() =>
    expect(received).toContainEqual({ type: 'read', conversationId: 'conversation-1', unreadTotal: 3 }),
  );

  // The listener's connection goes; the queries' pool never went through the proxy.
  proxy.down();
  await vi.waitFor(async () => {
    await publisher.conversationRead('reader', 'conversation-2', 5);
    expect(await second.pool?.query('select 1 as up')).toMatchObject({ rows: [{ up: 1 }] });
  });
  proxy.up();
  // Back, it tells the tab to catch up on what it could not hear...
  await vi.waitFor(() => expect(received.filter((m) => m.type === 'ready')).toHaveLength(2), {
    timeout: 10_000,
  });
  // ...and hears what comes next.
  await publisher.conversationRead('reader', 'conversation-3', 7);
  await vi.waitFor(() =>
    expect(received).toContainEqual({ type: 'read', conversationId: 'conversation-3', unreadTotal: 7 }),
  );
});
