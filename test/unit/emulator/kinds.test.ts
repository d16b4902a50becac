/**
 * The registry of the emulator's kinds (emulator/routes/index.ts) and what kinds.ts derives from
 * it: every route module is registered once, so a kind whose line was forgotten fails here by its
 * file name; no two kinds make the same store list; and no request can match operations of two
 * kinds, so the order of the kinds decides nothing.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KINDS, ROUTES, emptyLists } from "../../../emulator/kinds";
import * as registry from "../../../emulator/routes/index";
import type { Route } from "../../../emulator/types";
import { ROOT } from "../../helpers/pulumi";

const ROUTES_DIR = path.join(ROOT, "emulator", "routes");
const REGISTRY = "index.ts";

describe("the registry of kinds", () => {
  const text = readFileSync(path.join(ROUTES_DIR, REGISTRY), "utf8");
  const modules = readdirSync(ROUTES_DIR).filter((f) => f.endsWith(".ts") && f !== REGISTRY);

  it("reads the route modules", () => {
    expect(modules).toEqual(expect.arrayContaining(["workflows.ts", "topics.ts"]));
  });

  it("registers every route module under emulator/routes exactly once", () => {
    const lines = text.split("\n");
    const registrations = modules.map((f) => ({
      file: `emulator/routes/${f}`,
      registrations: lines.filter((l) => l.includes(`from "./${f.replace(/\.ts$/, "")}"`)).length,
    }));
    expect(registrations.filter((r) => r.registrations !== 1)).toEqual([]);
  });

  it("registers each module's `kind`, under the module's name", () => {
    const lines = text.split("\n").filter((l) => /^export\b/.test(l));
    const off = lines.filter((l) => {
      const m = /^export \{ kind as (\w+) \} from "\.\/(\w+)";$/.exec(l);
      return !m || m[1] !== m[2];
    });
    expect(off).toEqual([]);
    expect(Object.keys(registry).sort()).toEqual(modules.map((f) => f.replace(/\.ts$/, "")).sort());
  });

  it("serves every registered kind's operations, and only those", () => {
    expect(KINDS.length).toBe(Object.keys(registry).length);
    expect(ROUTES).toEqual(KINDS.flatMap((k) => k.routes));
  });
});

describe("the store's lists", () => {
  it("are each made by one kind", () => {
    const makers = new Map<string, string[]>();
    for (const [name, kind] of Object.entries(registry)) {
      for (const list of Object.keys(kind.lists())) makers.set(list, [...(makers.get(list) ?? []), name]);
    }
    expect([...makers].filter(([, kinds]) => kinds.length > 1)).toEqual([]);
    expect(Object.keys(emptyLists()).sort()).toEqual([...makers.keys()].sort());
  });

  it("are new and empty on every call", () => {
    const a = emptyLists(), b = emptyLists();
    for (const [name, list] of Object.entries(a)) {
      expect({ name, list }).toEqual({ name, list: [] });
      expect(list).not.toBe(b[name as keyof typeof b]);
    }
  });
});

/** Whether one request could match both path templates (a `{param}` matches any one segment). */
function overlap(a: Route, b: Route): boolean {
  const sa = a.path.split("/"), sb = b.path.split("/");
  const param = (s: string) => /^\{\w+\}$/.test(s);
  return a.method === b.method && sa.length === sb.length && sa.every((s, i) => s === sb[i] || param(s) || param(sb[i]!));
}

describe("the route table", () => {
  it("sees a clash where a parameter can take a literal segment's place", () => {
    const noop = () => ({ status: 204 });
    expect(overlap({ method: "GET", path: "/v1/a/{id}", handler: noop }, { method: "GET", path: "/v1/a/active", handler: noop })).toBe(true);
    expect(overlap({ method: "GET", path: "/v1/a/{id}", handler: noop }, { method: "PUT", path: "/v1/a/active", handler: noop })).toBe(false);
  });

  it("has no request that operations of two kinds could both match, so the kinds' order decides no match", () => {
    const kinds = Object.entries(registry);
    const clashes: string[] = [];
    kinds.forEach(([nameA, a], i) => {
      for (const [nameB, b] of kinds.slice(i + 1)) {
        for (const ra of a.routes) for (const rb of b.routes) {
          if (overlap(ra, rb)) clashes.push(`${nameA} ${ra.method} ${ra.path} / ${nameB} ${rb.path}`);
        }
      }
    });
    expect(clashes).toEqual([]);
  });
});
