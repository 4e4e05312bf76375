/**
 * A bound on how much of one costly kind of work runs at once in this process (issue #5): at most
 * `slots` tasks run; up to `maxWaiting` more wait in line, each for at most `maxWaitMs`; anyone
 * beyond that, or who waited too long, is told the server is busy (a 503 the caller may retry).
 * Rate limits bound each user; this bounds everyone together, which is what memory cares about.
 */

export class ServerBusyError extends Error {
  constructor() {
    super('busy');
  }
}

export interface ConcurrencyLimitOptions {
  slots: number;
  maxWaiting: number;
  maxWaitMs: number;
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
    if (this.waiting.length >= this.options.maxWaiting) return Promise.reject(new ServerBusyError());
    return new Promise((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        this.running += 1;
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(turn), 1);
        reject(new ServerBusyError());
      }, this.options.maxWaitMs);
      this.waiting.push(turn);
    });
  }

  private release(): void {
    this.running -= 1;
    this.waiting.shift()?.();
  }
}
