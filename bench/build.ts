/**
 * What the benchmark asks of the project itself, each through the project's own commands run as
 * child processes (nothing here imports the app's code): build the app when stale, fill a database
 * with demo data.
 */
import { type SpawnOptions, spawn } from 'node:child_process';
import { analyzeDatabase } from './postgres';
import { projectRoot } from './processes';

/** Runs a command to the end; rejects with the tail of its output when it fails. */
function run(
  command: string,
  args: string[],
  options: SpawnOptions & { onLine?: (line: string) => void; input?: NodeJS.ReadableStream },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const take = (chunk: Buffer) => {
      const text = String(chunk);
      output = (output + text).slice(-20_000);
      for (const line of text.split('\n')) if (line.trim()) options.onLine?.(line.trim());
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    if (options.input) options.input.pipe(child.stdin as NodeJS.WritableStream);
    else child.stdin?.end();
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve(output);
      else {
        const tail = output.trim().split('\n').slice(-8).join('\n');
        reject(new Error(`${command} ${args.join(' ')} failed (${code ?? signal}):\n${tail}`));
      }
    });
  });
}

/**
 * Builds the browser app, the server bundle and the database template when any is missing or older
 * than its sources: the rule `npm start` follows (scripts/ensure-built.mjs). Each step it takes is
 * passed to `say`; resolves with whether anything was built.
 */
export async function ensureAppBuilt(say: (line: string) => void): Promise<boolean> {
  let built = false;
  await run(process.execPath, ['scripts/ensure-built.mjs'], {
    cwd: projectRoot,
    onLine: (line) => {
      built = true;
      say(line);
    },
  });
  return built;
}

/** Where a server keeps its data: a data folder, and a PostgreSQL database when given. */
export interface Store {
  dataDir: string;
  databaseUrl?: string | undefined;
}

/**
 * `npm run seed:demo -- --tutors <n>` on an empty store: demo tutors with weekly hours, demo
 * students and lessons (scripts/seed-demo.ts), with the school taking payments; `more` are further
 * options of the seed (the benchmark's volume). Run before a server opens the store. Resolves with
 * what the seed printed: who to sign in as.
 */
export async function seedDemo(store: Store, tutors: number, more: string[] = []): Promise<string> {
  return run('npm', ['run', '--silent', 'seed:demo', '--', '--tutors', String(tutors), ...more], {
    cwd: projectRoot,
    env: {
      ...process.env,
      PAYMENTS: 'on',
      DATA_DIR: store.dataDir,
      ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
    },
  });
}

/** `npm run admin -- grant <email>` on a store no server has open (the embedded one is locked). */
export async function grantAdmin(store: Store, email: string): Promise<void> {
  await run('npm', ['run', '--silent', 'admin', '--', 'grant', email], {
    cwd: projectRoot,
    env: {
      ...process.env,
      DATA_DIR: store.dataDir,
      ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
    },
  });
}

/**
 * `npm run move-to-postgres -- <url>` from an embedded store no server has open into the empty
 * database at `databaseUrl`: the same people, sessions and data, so that a store made once (accounts
 * signed up through the captcha, a seed) serves the rows of both stores. Resolves with the
 * AUTH_SECRET the copied sessions are signed with, as the command prints it.
 */
export async function copyToPostgres(dataDir: string, databaseUrl: string): Promise<string> {
  const printed = await run('npm', ['run', '--silent', 'move-to-postgres', '--', databaseUrl], {
    cwd: projectRoot,
    env: { ...process.env, DATA_DIR: dataDir },
  });
  const secret = /AUTH_SECRET=(\S+)/.exec(printed)?.[1];
  if (!secret) throw new Error('move-to-postgres printed no AUTH_SECRET');
  await analyzeDatabase(databaseUrl);
  return secret;
}
