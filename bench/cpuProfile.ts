/**
 * Reads a V8 CPU profile (`node --cpu-prof` writes one `.cpuprofile` per process) for where a
 * process's CPU went: by place (the package or the part of this one whose code was running), and
 * by what was under way (a frame on the stack: loading a module, converting the engine's protobuf
 * structs, ...). The bench's provider profile (bench/run.ts, BENCH_PROVIDER_PROFILE) prints it.
 */

/** The parts of a `.cpuprofile` read here. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** A frame as a test of {@link summarize} sees it. */
export interface Frame {
  functionName: string;
  url: string;
}

/**
 * Where a frame's code lives: `node_modules/<package>` by package, this package's own modules by
 * their folder (`provider/client`, `provider/resources`, ...), Node's own modules as `node`, and
 * V8's pseudo-frames as they are named (`(garbage collector)`, `(program)`: V8 itself, compiling
 * included).
 */
export function place(frame: Frame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node";
  // The innermost node_modules/ names the package; this package may be linked into a project's.
  const last = [...url.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)\//g)].at(-1)?.[1];
  const own = /\/dist\/(provider\/[^/]+|[^/]+)\//.exec(url);
  if (own && (!last || last === "pulumi-notify")) return own[1]!;
  return last ?? url;
}

/** What a profile shows: sampled CPU milliseconds (idle left out), by place and by activity. */
export interface ProfileSummary {
  sampledMs: number;
  /** Self time of each place ({@link place}), highest first. */
  byPlace: [string, number][];
  /** Milliseconds of the samples with a frame of each activity on their stack. */
  activities: Record<string, number>;
}

/**
 * Sums `profile`'s samples: each by the place of its innermost frame, and into each activity one
 * of whose frames is on its stack (a sample counts once per activity, however deep it nests).
 */
export function summarize(profile: CpuProfile, activities: Record<string, (f: Frame) => boolean>): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Per node: its activities (its own and its ancestors'), computed once.
  const memo = new Map<number, Set<string>>();
  const activitiesOf = (id: number): Set<string> => {
    const known = memo.get(id);
    if (known) return known;
    const up = parent.get(id);
    const set = new Set(up === undefined ? [] : activitiesOf(up));
    const frame = byId.get(id)!.callFrame;
    for (const [name, test] of Object.entries(activities)) if (test(frame)) set.add(name);
    memo.set(id, set);
    return set;
  };
  const places = new Map<string, number>();
  const acts: Record<string, number> = Object.fromEntries(Object.keys(activities).map((k) => [k, 0]));
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)") return;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    total += ms;
    const p = place(frame);
    places.set(p, (places.get(p) ?? 0) + ms);
    for (const a of activitiesOf(id)) acts[a]! += ms;
  });
  const round = (x: number) => Math.round(x);
  return {
    sampledMs: round(total),
    byPlace: [...places].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, round(v)]),
    activities: Object.fromEntries(Object.entries(acts).map(([k, v]) => [k, round(v)])),
  };
}
