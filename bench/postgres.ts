/**
 * A database of its own on the local PostgreSQL (127.0.0.1:5432, user postgres), created for the
 * run and dropped at the end (`{ unavailable }` when no PostgreSQL answers), and what the bench reads
 * from such a database.
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

/**
 * The password hash the server stored for an account, straight from its database: it carries the
 * server's own argon2id parameters, which the bare verifying server then verifies against.
 */
export async function storedPasswordHash(databaseUrl: string, email: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ password: string | null }>(
      `select a.password from accounts a join users u on u.id = a.user_id
        where u.email = $1 and a.password is not null`,
      [email],
    );
    const hash = rows[0]?.password;
    if (!hash) throw new Error(`no password hash stored for ${email}`);
    return hash;
  } finally {
    await client.end();
  }
}

/**
 * ANALYZE on a database just filled by a copy: what autovacuum does within a minute of the copy,
 * done at once so that the rows measure the planner's usual picture of the data, as after a seed.
 */
export async function analyzeDatabase(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}
