/**
 * The layers `npm test` runs (scripts/test-layers.ts over the projects of vitest.config.mts):
 * fastest first, and only the engine's layer sets up the pinned Pulumi CLI, the Node.js SDK and
 * the compile cache (test/helpers/globalSetup.ts).
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import config from "../../../vitest.config.mts";
import { layerOrder } from "../../../scripts/test-layers";
import { REPO_ROOT } from "../../../scripts/workspace";

interface Project { test: { name: string; include: string[]; sequence: { groupOrder: number }; globalSetup?: string[] } }
const projects = (config.test!.projects as Project[]).map((p) => p.test);
const layers = projects.map((p) => ({ name: p.name, config: { sequence: p.sequence } }));

describe("the test layers", () => {
  it("run unit, then component, then e2e", () => {
    expect(layerOrder(layers).map((l) => l.name)).toEqual(["unit", "component", "e2e"]);
    expect(layerOrder([...layers].reverse()).map((l) => l.name)).toEqual(["unit", "component", "e2e"]);
  });

  it("run the layers named, in their order, and refuse an unknown name, naming the layers", () => {
    expect(layerOrder(layers, ["e2e", "unit"]).map((l) => l.name)).toEqual(["unit", "e2e"]);
    expect(() => layerOrder(layers, ["units"])).toThrow('unknown layer "units"; allowed: unit, component, e2e');
  });

  it("set up the Pulumi CLI in the e2e layer only, and nothing before the unit layer", () => {
    expect(config.test!.globalSetup).toBeUndefined();
    expect(projects.filter((p) => p.globalSetup?.length).map((p) => p.name)).toEqual(["e2e"]);
    expect(projects.find((p) => p.name === "e2e")!.globalSetup).toEqual(["./test/helpers/globalSetup.ts"]);
  });

  it("hold every test file of test/, each in one layer", () => {
    const files = (dir: string): string[] => readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? files(`${dir}/${e.name}`) : e.name.endsWith(".test.ts") ? [`${dir}/${e.name}`] : []));
    const layersOf = (file: string) => projects.filter((p) => p.include.some((glob) => path.matchesGlob(file, glob))).map((p) => p.name);
    const all = files("test");
    expect(all.length).toBeGreaterThan(0);
    expect(all.filter((f) => layersOf(f).length !== 1).map((f) => `${f}: ${layersOf(f).join(", ") || "no layer"}`)).toEqual([]);
  });
});
