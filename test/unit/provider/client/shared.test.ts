/** A listing the reads of one client share (provider/client/shared.ts), and the writes that drop it. */
import { describe, expect, it } from "vitest";
import { ListedReads, SharedListing } from "../../../../provider/client/shared";

describe("SharedListing", () => {
  it("serves every read from one listing until a write, and never one made while a write was in flight", async () => {
    let loads = 0;
    const listing = new SharedListing(async () => ++loads);
    expect([await listing.get(), await listing.get()]).toEqual([1, 1]);
    let finish = () => {};
    const write = listing.writing(() => new Promise<void>((resolve) => { finish = resolve; }));
    // A read while the write is in flight lists again, and may not see the write ...
    expect(await listing.get()).toBe(2);
    finish();
    await write;
    // ... so a read after it lists once more, and the reads after that share that listing.
    expect([await listing.get(), await listing.get()]).toEqual([3, 3]);
  });

  it("lists again after a failed listing", async () => {
    let loads = 0;
    const listing = new SharedListing(async () => { if (++loads === 1) throw new Error("down"); return loads; });
    await expect(listing.get()).rejects.toThrow("down");
    expect(await listing.get()).toBe(2);
  });
});

describe("ListedReads", () => {
  /** A kind of three objects, newest first, with a page of `pageSize` and a log of the requests. */
  const service = (pageSize = 100, listFails = false) => {
    const objects = ["c", "b", "a"].map((key) => ({ key, v: 1 }));
    const sent: string[] = [];
    const reads = new ListedReads(async () => {
      sent.push("list");
      if (listFails) throw new Error("listing refused");
      return objects.slice(0, pageSize).map((o) => ({ ...o }));
    }, (o) => o.key);
    const one = (key: string) => async () => {
      sent.push(`get ${key}`);
      const o = objects.find((x) => x.key === key);
      if (!o) throw new Error(`${key}: 404`);
      return { ...o };
    };
    return { objects, sent, reads, read: (key: string) => reads.read(key, one(key)) };
  };

  it("reads a lone object by itself, and the reads after it from one shared page", async () => {
    const s = service();
    expect(await s.read("a")).toEqual({ key: "a", v: 1 });
    expect(s.sent).toEqual(["get a"]);
    expect(await Promise.all([s.read("b"), s.read("c"), s.read("a")])).toEqual([{ key: "b", v: 1 }, { key: "c", v: 1 }, { key: "a", v: 1 }]);
    expect(s.sent).toEqual(["get a", "list"]);
  });

  it("asks for an object the page does not hold by itself: one beyond the page, or one that is gone", async () => {
    const s = service(1);
    await s.read("c");
    expect(await s.read("c")).toEqual({ key: "c", v: 1 });
    expect(await s.read("a")).toEqual({ key: "a", v: 1 });
    await expect(s.read("gone")).rejects.toThrow("gone: 404");
    expect(s.sent).toEqual(["get c", "list", "get a", "get gone"]);
  });

  it("reads afresh after a write: no read answers from a page taken before it", async () => {
    const s = service();
    await s.read("a");
    await s.read("b");
    await s.reads.writing(async () => { s.objects[0]!.v = 2; });
    expect(await s.read("c")).toEqual({ key: "c", v: 2 });
    expect(await s.read("c")).toEqual({ key: "c", v: 2 });
    expect(s.sent).toEqual(["get a", "list", "get c", "list"]);
  });

  it("reads one by one when the listing fails, and lists no more", async () => {
    const s = service(100, true);
    for (const k of ["a", "b", "c"]) expect(await s.read(k)).toEqual({ key: k, v: 1 });
    expect(s.sent).toEqual(["get a", "list", "get b", "get c"]);
  });
});
