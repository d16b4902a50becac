/**
 * The benchmark's resource mix (bench/programs.ts) holds every resource kind of RESOURCE_TABLES,
 * and the kinds that need another resource get it: each translation names a workflow of the same
 * mix (its output, so the engine makes the workflow first) whose translation is on, and each
 * domain's name carries the run's tag (a domain name is claimed once across the service).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type * as pulumiModule from "@pulumi/pulumi";
import { RESOURCE_TABLES, type ResourceKind } from "../../../provider/resources/index";
import { mixCounts, mixFloor, scaleProgram, RUN_TAG } from "../../../bench/programs";
import { nativeRequire } from "../../helpers/pulumi";
import { floorOf, readsOf } from "../../kinds/floor";
import { KINDS } from "../../kinds/index";

/** The @pulumi/pulumi the bench's programs register with (the package's own copy). */
const pulumi = nativeRequire("@pulumi/pulumi") as typeof pulumiModule;

describe("bench mix", () => {
  it.each([20, 200, 500])("N = %i: one count per resource kind of RESOURCE_TABLES, summing to N, no more translations than workflows", (n) => {
    const counts = mixCounts(n);
    expect(Object.keys(counts).sort()).toEqual(RESOURCE_TABLES.map((t) => t.name).sort());
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(n);
    expect(counts.Translation).toBeLessThanOrEqual(counts.Workflow);
  });

  it("N = 500 holds at least one of every kind", () => {
    expect(Object.entries(mixCounts(500)).filter(([, c]) => c < 1)).toEqual([]);
  });

  // The bench's update runs the mix again with each kind's `change` (test/kinds/<kind>.ts, floor),
  // and sets its requests against one update a resource.
  it.each(KINDS.map((k) => [k.kind, k] as const))("%s: the update changes one field of the bench's arguments, in place", (_kind, k) => {
    const args = k.bench.args(0, { counts: mixCounts(500), run: "tag0", output: () => "(a reference)" });
    const changed = k.floor.change(args);
    const differing = [...new Set([...Object.keys(args), ...Object.keys(changed)])].filter((f) => JSON.stringify(args[f]) !== JSON.stringify(changed[f]));
    expect(differing).toHaveLength(1);
    expect(k.replaceOnChange).not.toContain(differing[0]);
  });
});

describe("the floor's reads, one by one (the waiting baseline's)", () => {
  it("a kind read from a shared page after its first read: the first and the second read make a request, the rest none", () => {
    const listed = KINDS.find((k) => k.floor.listedRead && !k.floor.listing && k.floor.of(k.bench.args(0, { counts: mixCounts(500), run: "t", output: () => "x" })).read === 1)!;
    const inputs = listed.bench.args(0, { counts: mixCounts(500), run: "t", output: () => "x" });
    // The first its own read, the second the shared page (its own read taken from it), the third from that page.
    expect(readsOf([0, 1, 2].map(() => ({ kind: listed.kind, inputs })))).toEqual([1, 1, 0]);
  });

  it("a kind read from a listing: the first read pays for the page, once", () => {
    const kind = KINDS.find((k) => k.floor.listing)!;
    const inputs = kind.bench.args(0, { counts: mixCounts(500), run: "t", output: () => "x" });
    const own = kind.floor.of(inputs).read;
    expect(readsOf([{ kind: kind.kind, inputs }, { kind: kind.kind, inputs }])).toEqual([own + 1, own]);
  });
});

describe("bench program under the engine's mocks", () => {
  const FROM_OUTPUT = "~output";
  /** What the program registered: type token, name and inputs (Outputs resolved), in order. */
  const registered: { type: string; name: string; inputs: Record<string, any> }[] = [];

  beforeAll(async () => {
    await pulumi.runtime.setMocks({
      newResource: (r) => {
        registered.push({ type: r.type, name: r.name, inputs: r.inputs });
        // A workflow's workflowId output marked, so a translation shows whether it took the output.
        const state = r.type.endsWith("notify:Workflow") ? { ...r.inputs, workflowId: `${r.inputs.workflowId}${FROM_OUTPUT}` } : r.inputs;
        return { id: `${r.name}-id`, state };
      },
      call: () => ({}),
    }, "notify-bench", "mocks", false);
    await scaleProgram(200, { run: "tag0" })();
    // Registration is asynchronous, and a translation's waits for its workflow's outputs:
    // disconnect waits until every registration the program started is done.
    await pulumi.runtime.disconnect();
  });

  const ofKind = (kind: string) => registered.filter((r) => r.type.endsWith(`notify:${kind}`));

  it("registers N resources, each kind as often as mixCounts says", () => {
    const counts = mixCounts(200);
    for (const [kind, count] of Object.entries(counts)) expect(ofKind(kind), kind).toHaveLength(count);
  });

  it("has the request floor of the resources it registers (mixFloor)", () => {
    const kindOf = (type: string) => type.split(":").pop() as ResourceKind;
    expect(mixFloor(200)).toEqual(floorOf(registered.map((r) => ({ kind: kindOf(r.type), inputs: r.inputs }))));
  });

  it("each translation names a workflow of the mix that has translation on, through the workflow's output", () => {
    const translations = ofKind("Translation");
    expect(translations.length).toBeGreaterThan(0);
    const workflows = new Map(ofKind("Workflow").map((w) => [`${w.inputs.workflowId}${FROM_OUTPUT}`, w]));
    for (const t of translations) {
      expect(t.inputs).toMatchObject({ resourceType: "workflow", locale: "fr_FR" });
      const wf = workflows.get(t.inputs.resourceId);
      expect(wf, t.name).toBeDefined();
      expect(wf!.inputs.isTranslationEnabled).toBe(true);
      expect(registered.indexOf(wf!)).toBeLessThan(registered.indexOf(t));
    }
    // Translation is on only where a translation uses it.
    expect(ofKind("Workflow").filter((w) => w.inputs.isTranslationEnabled)).toHaveLength(translations.length);
  });

  it("each domain's name carries the run's tag, once per domain, with its routes", () => {
    const domains = ofKind("Domain");
    expect(domains.length).toBeGreaterThan(0);
    const names = domains.map((d) => d.inputs.name as string);
    expect(new Set(names).size).toBe(names.length);
    for (const d of domains) {
      expect(d.inputs.name).toMatch(/^bench-\d+-tag0\.example\.com$/);
      expect(Object.keys(d.inputs.routes).length).toBeGreaterThan(0);
    }
    // The default tag is the process's run tag.
    expect(RUN_TAG).toMatch(/^[0-9a-f]{8}$/);
  });
});
