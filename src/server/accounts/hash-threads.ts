/**
 * Threads of our own for password hashes, one per core, each hashing one password at a time with
 * @node-rs/argon2's synchronous calls, at a lower scheduling priority than the rest of the server
 * (docs/decisions/0011-hash-threads-below-requests.md).
 *
 * A hash is 10-20 ms of CPU; a page, an asset or a session check is well under one. On libuv's
 * pool the hashes ran at the same priority as the request thread, so during a burst of sign-ins
 * every other request shared the cores with them and waited. Here the kernel runs the request
 * thread, the database thread and file reads first, and the hashes take the rest of the time.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

type HashJob =
  | { kind: 'hash'; password: string; params: object }
  | { kind: 'verify'; hash: string; password: string };

/** How far below the server's own priority the hash threads run (nice 0 becomes 10). */
export const HASH_THREAD_NICE_INCREMENT = 10;

// CommonJS source, evaluated in the thread: it needs nothing of ours, so it needs no bundle entry
// of its own and no TypeScript loader under Vitest. On Linux a nice value belongs to a thread, and
// os.setPriority() without a pid sets the calling thread's.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const os = require('node:os');
const { hashSync, verifySync } = require(workerData.argon2);
try {
  os.setPriority(Math.min(19, os.getPriority() + workerData.niceIncrement));
} catch {}
parentPort.on('message', ({ id, job }) => {
  try {
    const value = job.kind === 'hash' ? hashSync(job.password, job.params) : verifySync(job.hash, job.password);
    parentPort.postMessage({ id, value });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Reply {
  id: number;
  value?: string | boolean;
  error?: string;
}

interface HashThread {
  worker: Worker;
  /** Set by close(): the thread's end is asked for, not a fault to report. */
  closing?: boolean;
  /** The job this thread is working on, if any. */
  current?: { id: number; resolve: (value: string | boolean) => void; reject: (error: Error) => void };
}

/**
 * A fixed number of hash threads, started on first use. At most `size` jobs may be in flight (the
 * caller's ConcurrencyLimit sees to it); a thread that dies fails its job and is replaced by the
 * next job that needs one.
 */
export class HashThreads {
  private readonly threads = new Set<HashThread>();
  private readonly idle: HashThread[] = [];
  private nextId = 1;

  /** Told when a thread stops unasked (it could not load the hash library, say), to be logged. */
  onThreadLost: ((error: Error) => void) | undefined;

  /** `argon2` is the module the threads load: @node-rs/argon2, or another path in tests. */
  constructor(
    readonly size: number,
    private readonly argon2 = createRequire(import.meta.url).resolve('@node-rs/argon2'),
  ) {}

  /** A new argon2 hash of the password, as a PHC string. */
  async hash(password: string, params: object): Promise<string> {
    return String(await this.run({ kind: 'hash', password, params }));
  }

  /** Whether the password matches the stored hash; rejects if the stored hash is malformed. */
  async verify(hash: string, password: string): Promise<boolean> {
    return (await this.run({ kind: 'verify', hash, password })) === true;
  }

  private run(job: HashJob): Promise<string | boolean> {
    const thread = this.idle.pop() ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      thread.current = { id, resolve, reject };
      // A thread holds the process open only while it owes an answer, as the database thread does.
      thread.worker.ref();
      thread.worker.postMessage({ id, job });
    });
  }

  /** Threads running now, busy or idle (for tests). */
  get started(): number {
    return this.threads.size;
  }

  private start(): HashThread {
    if (this.threads.size >= this.size) throw new Error('More hash jobs in flight than hash threads');
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { argon2: this.argon2, niceIncrement: HASH_THREAD_NICE_INCREMENT },
    });
    const thread: HashThread = { worker };
    this.threads.add(thread);
    worker.on('message', (reply: Reply) => {
      const job = thread.current;
      if (!job || job.id !== reply.id) return;
      thread.current = undefined;
      worker.unref();
      this.idle.push(thread);
      if (reply.error !== undefined) job.reject(new Error(reply.error));
      else job.resolve(reply.value as string | boolean);
    });
    const lost = (error: Error) => {
      if (!this.threads.delete(thread)) return;
      const at = this.idle.indexOf(thread);
      if (at >= 0) this.idle.splice(at, 1);
      thread.current?.reject(error);
      thread.current = undefined;
      if (!thread.closing) this.onThreadLost?.(error);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`A password hash thread stopped (exit code ${code})`)));
    return thread;
  }

  /** Ends every thread; a job in flight fails. The next job starts new threads. */
  async close(): Promise<void> {
    const threads = [...this.threads];
    for (const thread of threads) thread.closing = true;
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }
}
