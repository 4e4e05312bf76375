/**
 * A bound on how much of one costly kind of work runs at once in this process: at most
 * `slots` tasks run; up to `maxWaiting` more wait in line, each for at most `maxWaitMs`; anyone
 * beyond that, or who waited too long, is told the server is busy (a 503 the caller may retry).
 * Rate limits bound each user; this bounds everyone together, which is what memory cares about.
 * Without `maxWaiting` and `maxWaitMs` the line is unbounded and nobody is turned away: the bound
 * is then only on how much runs at once (password hashing, which every sign-in needs).
 */

export class ServerBusyError extends Error {
  /** When the caller may try again: the longest a place in line waits (1 s without a wait limit). */
  constructor(readonly retryAfterSeconds: number) {
    super('busy');
  }
}

export interface ConcurrencyLimitOptions {
  slots: number;
  maxWaiting?: number;
  maxWaitMs?: number;
}

export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly options: ConcurrencyLimitOptions) {}

  /** Runs the task in a free slot, waiting for one if need be; rejects with ServerBusyError. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Tasks running now (for tests and logs). */
  get active(): number {
    return this.running;
  }

  private acquire(): Promise<void> {
    if (this.running < this.options.slots) {
      this.running += 1;
      return Promise.resolve();
    }
    const { maxWaiting = Number.POSITIVE_INFINITY, maxWaitMs } = this.options;
    const busy = () => new ServerBusyError(Math.ceil((maxWaitMs ?? 1000) / 1000));
    if (this.waiting.length >= maxWaiting) return Promise.reject(busy());
    return new Promise((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        this.running += 1;
        resolve();
      };
      const timer =
        maxWaitMs === undefined
          ? undefined
          : setTimeout(() => {
              this.waiting.splice(this.waiting.indexOf(turn), 1);
              reject(busy());
            }, maxWaitMs);
      this.waiting.push(turn);
    });
  }

  private release(): void {
    this.running -= 1;
    this.waiting.shift()?.();
  }
}
