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

/**
 * Reads of one kind that has a read-one route and a listing whose items are the same answer (the
 * service maps both through one function): the first read of a process asks for its one object;
 * from the second on, reads share one listing page of the most recent objects (single-flight), and
 * an object not on it is asked for alone. A refresh of k objects of the kind thus costs 2 requests
 * rather than k while the environment's newest page holds them, and never more than one request
 * beyond k: a stack of one object reads it as before, and a page that misses costs one request per
 * operation. A write through the same client drops the page (see {@link SharedListing.writing}),
 * and so does any failure of the listing, after which reads ask one by one.
 */
export class ListedReads<T> {
  private readonly page: SharedListing<Map<string, T> | undefined>;
  private reads = 0;

  /** `firstPage` lists the newest objects, at most one page; `keyOf` gives each its read-one key. */
  constructor(firstPage: () => Promise<readonly T[]>, keyOf: (item: T) => string) {
    // A failed listing is no answer for any read: each then asks for its own object.
    this.page = new SharedListing(() => firstPage().then((items) => new Map(items.map((i) => [keyOf(i), i])), () => undefined));
  }

  /** The object of `key`: from the shared page when a read before it started one, else `one()`. */
  async read(key: string, one: () => Promise<T>): Promise<T> {
    if (this.reads++ === 0) return one();
    return (await this.page.get())?.get(key) ?? one();
  }

  /** Runs a write, dropping the page before and after it, and counting reads afresh. */
  writing<R>(write: () => Promise<R>): Promise<R> {
    this.reads = 0;
    return this.page.writing(write);
  }
}
