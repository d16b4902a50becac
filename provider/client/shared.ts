/**
 * A listing that the reads of one client share: the service has no read-one route for some
 * objects (integrations, environments), so a refresh of N of them lists once rather than N times.
 */
export class SharedListing<T> {
  /**
   * How long a listing may serve reads, in ms. A provider process lives for one operation and every
   * write drops the listing, so this only bounds how long a refresh may go on reading one
   * snapshot: long enough that a refresh of any size lists once (its requests and bytes grow
   * linearly in N, not with N times the number of listings).
   */
  static readonly REUSE_MS = 60_000;

  private cached?: { at: number; promise: Promise<T> };

  /** `load` makes the listing. */
  constructor(private readonly load: () => Promise<T>, private readonly reuseMs = SharedListing.REUSE_MS) {}

  /** The listing, made now unless one made within `reuseMs` and after the last write is at hand. */
  get(): Promise<T> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > this.reuseMs) {
      const promise = this.load();
      this.cached = { at: now, promise };
      promise.catch(() => { if (this.cached?.promise === promise) this.cached = undefined; });
    }
    return this.cached.promise;
  }

  /** Drops the listing, so that the next read lists again. */
  invalidate(): void {
    this.cached = undefined;
  }

  /**
   * Runs a write, dropping the listing as it starts and again as it ends: a listing made while the
   * write was in flight may not show it, and a read after the write must.
   */
  async writing<R>(write: () => Promise<R>): Promise<R> {
    this.invalidate();
    try {
      return await write();
    } finally {
      this.invalidate();
    }
  }
}
