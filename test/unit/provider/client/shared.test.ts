/** A listing the reads of one client share (provider/client/shared.ts), and the writes that drop it. */
import { describe, expect, it } from "vitest";
import { SharedListing } from "../../../../provider/client/shared";

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
