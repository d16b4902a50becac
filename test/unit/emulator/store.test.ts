/** emulator/store.ts: the store's shape comes from records.ts's lists, and a state file older than a list still loads. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { emptyLists } from "../../../emulator/records";
import { Store } from "../../../emulator/store";

describe("the store's lists", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "store-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("start empty, each of records.ts's lists, and a state file written before a list existed loads it empty", () => {
    expect(Object.keys(new Store().data).sort()).toEqual([...Object.keys(emptyLists()), "dnsMx"].sort());
    const file = path.join(dir, "old-state.json");
    writeFileSync(file, JSON.stringify({ contexts: [{ _id: "c1" }], dnsMx: { "a.com": "mx" } }));
    const store = new Store(file);
    expect(store.data.contexts).toEqual([{ _id: "c1" }]);
    expect(store.data.domains).toEqual([]);
    expect(store.data.dnsMx).toEqual({ "a.com": "mx" });
  });

  it("are all emptied by a reset", () => {
    const store = new Store();
    store.data.contexts.push({ _id: "c1" } as (typeof store.data.contexts)[number]);
    store.data.dnsMx["a.com"] = "mx";
    store.reset();
    expect(store.data).toEqual({ ...emptyLists(), dnsMx: {} });
  });
});
