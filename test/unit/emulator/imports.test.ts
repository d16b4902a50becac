/**
 * The emulator's modules import in one direction: no import circle among them, and the control
 * plane (control.ts) uses no route file. What route files share lives in emulator/shared.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/pulumi";

const DIR = path.join(ROOT, "emulator");

/** Every emulator module (path relative to emulator/, no extension) and the emulator modules it imports or re-exports (types included). */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(DIR, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const from = f.replace(/\.ts$/, "");
    const text = readFileSync(path.join(DIR, f), "utf8");
    const targets = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+"(\.{1,2}\/[^"]+)"/gms)].map((m) => path.normalize(path.join(path.dirname(from), m[1]!)));
    graph.set(from, targets.filter((t) => !t.startsWith("..")));
  }
  return graph;
}

/** The circles of `graph`, each as the path that closes it. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (node: string, trail: string[]) => {
    if (state.get(node) === "done") return;
    if (state.get(node) === "open") return void found.push([...trail.slice(trail.indexOf(node)), node]);
    state.set(node, "open");
    for (const next of graph.get(node) ?? []) visit(next, [...trail, node]);
    state.set(node, "done");
  };
  for (const node of graph.keys()) visit(node, []);
  return found;
}

describe("emulator imports", () => {
  const graph = importGraph();

  it("reads the graph (the route files, their registry and the server among it)", () => {
    expect(graph.get("routes/index")).toEqual(expect.arrayContaining(["routes/workflows", "routes/layouts"]));
    expect(graph.get("server")).toEqual(expect.arrayContaining(["kinds", "control"]));
  });

  it("has no import circle", () => {
    expect(circles(graph)).toEqual([]);
  });

  it("control.ts imports no route file", () => {
    expect(graph.get("control")!.filter((t) => t.startsWith("routes/"))).toEqual([]);
  });
});
