/**
 * Group commit: writes that arrive while one transaction is being made durable are gathered into the
 * next, so concurrent attempts cost one fsync per group, not one each, and each caller still learns
 * the outcome of its own write only once it is durable. (PostgreSQL's commit_delay, done in the client.)
 */
export class GroupCommit<T, R> {
  readonly #write: (items: T[]) => Promise<R[]>;
  #queue: { item: T; done: (r: R) => void; fail: (e: unknown) => void }[] = [];
  #flushing = false;

  /** `write` commits a group in one transaction and answers each item, in order. */
  constructor(write: (items: T[]) => Promise<R[]>) {
    this.#write = write;
  }

  add(item: T): Promise<R> {
    return new Promise<R>((done, fail) => {
      this.#queue.push({ item, done, fail });
      // setImmediate: let the answers already waiting in this turn of the event loop join the group.
      if (!this.#flushing) {
        this.#flushing = true;
        setImmediate(() => void this.#flush());
      }
    });
  }

  async #flush(): Promise<void> {
    while (this.#queue.length > 0) {
      const group = this.#queue;
      this.#queue = [];
      try {
        const results = await this.#write(group.map((g) => g.item));
        for (const [i, g] of group.entries()) g.done(results[i] as R);
      } catch (e) {
        for (const g of group) g.fail(e);
      }
    }
    this.#flushing = false;
  }
}
