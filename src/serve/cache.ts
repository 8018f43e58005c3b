/**
 * Payload bytes of successful operations, keyed by the route and the canonical request (with the
 * date a request left out resolved). A payload is a function of the release and the request alone and
 * the release never changes under a process, so a hit is byte-identical to recomputing. Bounded by
 * total bytes; the least recently used entry goes first. Refusals are never cached.
 */
import canonicalize from "canonicalize";

export class PayloadCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;
  private readonly capacity: number;
  hits = 0;
  misses = 0;

  constructor(capacityBytes: number) {
    this.capacity = capacityBytes;
  }

  /**
   * The payload as UTF-8 bytes, encoded once: a hit is written to the socket as is, at once; a miss waits
   * for `produce` (the first engine free, src/serve/engines.ts).
   */
  async get(
    route: string,
    request: unknown,
    defaultAsOf: string,
    produce: () => Promise<string>,
  ): Promise<Buffer> {
    if (this.capacity === 0) return Buffer.from(await produce());
    const key = `${route}\n${defaultAsOf}\n${canonicalize(request)}`;
    const found = this.entries.get(key);
    if (found !== undefined) {
      this.hits++;
      this.entries.delete(key);
      this.entries.set(key, found);
      return found;
    }
    this.misses++;
    const bytes = Buffer.from(await produce());
    if (bytes.length > this.capacity) return bytes;
    // The same request may have been answered while this one waited for its turn: keep one entry.
    const earlier = this.entries.get(key);
    if (earlier !== undefined) this.bytes -= earlier.length;
    this.entries.delete(key);
    this.entries.set(key, bytes);
    this.bytes += bytes.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.capacity) break;
      this.entries.delete(k);
      this.bytes -= v.length;
    }
    return bytes;
  }
}
