/**
 * A true rolling one-minute window per credential: a request is admitted when fewer than `limit`
 * requests were admitted in the 60 seconds before it. Refused requests are not recorded, so they
 * consume nothing. Hand-written because the usual plugins count fixed buckets, which admit up to
 * twice the limit across a bucket boundary.
 */
const WINDOW_MS = 60_000;

export class RollingWindow {
  private readonly admitted = new Map<string, number[]>();

  /** Admit (and record) a request at `now`, or return the whole seconds until the window admits one. */
  take(key: string, limit: number, now: number): { ok: true } | { ok: false; retryAfter: number } {
    const times = this.admitted.get(key) ?? [];
    let drop = 0;
    while (drop < times.length && (times[drop] as number) <= now - WINDOW_MS) drop++;
    if (drop > 0) times.splice(0, drop);
    if (times.length >= limit) {
      const oldest = times[0] ?? now;
      return { ok: false, retryAfter: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)) };
    }
    times.push(now);
    this.admitted.set(key, times);
    return { ok: true };
  }
}
