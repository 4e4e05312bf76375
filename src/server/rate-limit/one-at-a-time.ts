/**
 * Runs the tasks given under one key one after another, in the order they came, while tasks under
 * other keys run alongside. A limit that takes its point before the work and gives it back after
 * (failed sign-ins: a point per attempt until the password proves right) would otherwise count
 * every attempt still in flight as spent: twenty right passwords at once would find the ten
 * points taken and be refused. In turn, each attempt finds the ones before it settled. Per
 * process: servers sharing a database each keep their own turns.
 */
export class OneAtATime {
  /** The last task queued under each key, settled either way, while any is queued. */
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(task);
    const settled = result.then(
      () => {},
      () => {},
    );
    this.tails.set(key, settled);
    try {
      return await result;
    } finally {
      if (this.tails.get(key) === settled) this.tails.delete(key);
    }
  }

  /** Keys with a task queued or running (for tests). */
  get size(): number {
    return this.tails.size;
  }
}
