/**
 * PostgreSQL's own backup tools, for a server on DATABASE_URL: pg_dump in its custom format (-Fc)
 * and pg_restore. They are part of PostgreSQL's client package, not of Tutorlane; when they are
 * missing the commands say so plainly instead of failing somewhere deeper.
 */
import { spawn, spawnSync } from 'node:child_process';

export class MissingToolError extends Error {}

/** pg_dump's or pg_restore's version line, or a MissingToolError saying how to get it. */
export function requireTool(tool: 'pg_dump' | 'pg_restore'): string {
  const found = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new MissingToolError(
      `${tool} is not installed on this machine, so a PostgreSQL database cannot be ${tool === 'pg_dump' ? 'backed up' : 'restored'} from here. Install PostgreSQL's client tools in the version of your database server (on Debian or Ubuntu: apt-get install postgresql-client), or use your database provider's backups.`,
    );
  }
  return found.stdout.trim();
}

/** Runs a tool with the database URL passed in the environment, never on the command line. */
function run(tool: string, args: string[], url: string): Promise<{ code: number; stderr: string }> {
  const parsed = new URL(url);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PGHOST: decodeURIComponent(parsed.hostname),
    PGPORT: parsed.port || '5432',
    PGDATABASE: decodeURIComponent(parsed.pathname.slice(1)) || 'postgres',
    PGUSER: decodeURIComponent(parsed.username) || process.env.PGUSER,
    ...(parsed.password ? { PGPASSWORD: decodeURIComponent(parsed.password) } : {}),
    ...(parsed.searchParams.get('sslmode')
      ? { PGSSLMODE: parsed.searchParams.get('sslmode') ?? undefined }
      : {}),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stderr: stderr.trim() }));
  });
}

export async function pgDump(url: string, file: string): Promise<void> {
  requireTool('pg_dump');
  const { code, stderr } = await run('pg_dump', ['-Fc', '--no-owner', '-f', file], url);
  if (code !== 0) throw new Error(`pg_dump failed: ${stderr || `exit code ${code}`}`);
}

export async function pgRestore(url: string, file: string): Promise<void> {
  requireTool('pg_restore');
  const { code, stderr } = await run(
    'pg_restore',
    [
      '--clean',
      '--if-exists',
      '--no-owner',
      '--single-transaction',
      '--exit-on-error',
      '-d',
      new URL(url).pathname.slice(1) || 'postgres',
      file,
    ],
    url,
  );
  if (code !== 0) throw new Error(`pg_restore failed: ${stderr || `exit code ${code}`}`);
}
