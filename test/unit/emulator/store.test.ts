/**
 * emulator/store.ts: the store's shape comes from the registered kinds' lists (kinds.ts), a state
 * file older than a list still loads, and a state file written before the registry of kinds loads
 * whole and saves again to the same bytes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { emptyLists } from "../../../emulator/kinds";
import { Store } from "../../../emulator/store";

/**
 * A state file as the emulator wrote it before the kinds' lists moved to their route modules
 * (one record in each list it had, and a DNS entry): every later emulator must load it.
 */
const BEFORE_REGISTRY = path.join(__dirname, "fixtures", "state-before-registry.json");

describe("the store's lists", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "store-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("start empty, each of the registered kinds' lists, and a state file written before a list existed loads it empty", () => {
    expect(Object.keys(new Store(emptyLists).data).sort()).toEqual([...Object.keys(emptyLists()), "dnsMx"].sort());
    const file = path.join(dir, "old-state.json");
    writeFileSync(file, JSON.stringify({ contexts: [{ _id: "c1" }], dnsMx: { "a.com": "mx" } }));
    const store = new Store(emptyLists, file);
    expect(store.data.contexts).toEqual([{ _id: "c1" }]);
    expect(store.data.domains).toEqual([]);
    expect(store.data.dnsMx).toEqual({ "a.com": "mx" });
  });

  it("are all emptied by a reset", () => {
    const store = new Store(emptyLists);
    store.data.contexts.push({ _id: "c1" } as (typeof store.data.contexts)[number]);
    store.data.dnsMx["a.com"] = "mx";
    store.reset();
    expect(store.data).toEqual({ ...emptyLists(), dnsMx: {} });
  });
});

describe("a state file written before the registry of kinds", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "store-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const written = readFileSync(BEFORE_REGISTRY, "utf8");
  const old = JSON.parse(written) as Record<string, unknown>;

  it("names only lists the store still has: no list was renamed or dropped", () => {
    expect(Object.keys(old).filter((name) => !(name in new Store(emptyLists).data))).toEqual([]);
  });

  it("loads every record of every list, and the lists it predates empty", () => {
    const file = path.join(dir, "state.json");
    writeFileSync(file, written);
    const data: Record<string, unknown> = { ...new Store(emptyLists, file).data };
    for (const [name, value] of Object.entries(old)) expect({ name, value: data[name] }).toEqual({ name, value });
    for (const name of Object.keys(data).filter((n) => !(n in old))) expect({ name, value: data[name] }).toEqual({ name, value: [] });
  });

  it("saves again to the same bytes, its own lists first and in its order (lists it predates follow, empty)", () => {
    const file = path.join(dir, "again.json");
    writeFileSync(file, written);
    new Store(emptyLists, file).save();
    const saved = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    expect(Object.keys(saved).slice(0, Object.keys(old).length)).toEqual(Object.keys(old));
    expect(JSON.stringify(Object.fromEntries(Object.keys(old).map((name) => [name, saved[name]])))).toBe(written);
  });
});
