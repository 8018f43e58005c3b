/**
 * Engine work in the order it was asked for, one job per turn of the event loop.
 *
 * Node reads every socket that became readable in one poll and runs each request's handler before it
 * polls again. When the handler is a synchronous answer costing a millisecond or more, some connections
 * lose that race poll after poll: measured with a bare node:http server spinning 1.5 ms per request
 * at 64 connections, the p50 was 100 ms but the p99 1.3 s and the worst over 3 s (docs/benchmarks.md,
 * "Where the cold tail comes from"). Queueing the work and running one job per `setImmediate` lets the
 * loop poll between jobs, so every request waits behind at most the requests that arrived before it:
 * the same server's p99 fell to 158 ms at the same throughput.
 */
export class Turns {
  private readonly jobs: (() => void)[] = [];
  private scheduled = false;

  /** Requests whose work is queued and not yet started. */
  get waiting(): number {
    return this.jobs.length;
  }

  /** Runs `work` in its own turn, after every job queued before it; settles with its result or error. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.jobs.push(() => {
        try {
          resolve(work());
        } catch (e) {
          reject(e);
        }
      });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.next);
      }
    });
  }

  private readonly next = (): void => {
    const job = this.jobs.shift();
    job?.();
    if (this.jobs.length > 0) setImmediate(this.next);
    else this.scheduled = false;
  };
}
