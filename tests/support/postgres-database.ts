/**
 * A database of its own on the local PostgreSQL (127.0.0.1:5432, user postgres, trust auth),
 * created for a test and dropped after it. Reports "unavailable" only when nothing answers on
 * that port; a PostgreSQL that answers but refuses is an error.
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import pg from 'pg';

export const POSTGRES = { host: '127.0.0.1', port: 5432 };
const ADMIN_URL = `postgres://postgres@${POSTGRES.host}:${POSTGRES.port}/postgres`;

export interface PostgresDatabase {
  name: string;
  drop(): Promise<void>;
}

function answers(timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(POSTGRES.port, POSTGRES.host);
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function asAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Undefined when no PostgreSQL answers on 127.0.0.1:5432. */
export async function createPostgresDatabase(prefix: string): Promise<PostgresDatabase | undefined> {
  if (!(await answers())) return undefined;
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await asAdmin(`CREATE DATABASE ${name}`);
  return { name, drop: () => asAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
