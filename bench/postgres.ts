/**
 * A database of its own on the local PostgreSQL (127.0.0.1:5432, user postgres), created for the
 * run and dropped at the end. Undefined when no PostgreSQL answers.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { onCleanup } from './processes';

const SERVER_URL = 'postgres://postgres@127.0.0.1:5432';

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

async function withAdminClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: `${SERVER_URL}/postgres`, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** `label` names what the database is for: tutorlane_bench_<label>_<random>. */
export async function createBenchDatabase(label?: string): Promise<BenchDatabase | { unavailable: string }> {
  const name = `tutorlane_bench_${label ? `${label}_` : ''}${randomBytes(4).toString('hex')}`;
  try {
    await withAdminClient((client) => client.query(`CREATE DATABASE ${name}`));
  } catch (error) {
    return { unavailable: `no PostgreSQL at 127.0.0.1:5432 (${(error as Error).message})` };
  }
  const drop = onCleanup(async () => {
    await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });
  return { url: `${SERVER_URL}/${name}`, drop };
}
