/**
 * Renders docs/benchmarks.md from docs/benchmarks.json, the published benchmark run: its
 * measurements with the commit, machine, versions and date they ran on. `npm run bench` writes
 * bench/results.json (not committed: every run writes one); to publish a run,
 * `npm run bench-docs -- --publish` copies it to docs/benchmarks.json and renders the page.
 * `npm run bench-docs` alone re-renders the page; test/unit/scripts/render-bench.test.ts fails
 * when the page is not the rendering of the committed data.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./workspace";

/** One measurement, as bench/run.ts writes it. */
export type Measurement = Record<string, unknown> & { bench: string };

/** Where the published run and its page live, relative to the repository. */
export const BENCH_DATA = "docs/benchmarks.json";
export const BENCH_PAGE = "docs/benchmarks.md";
const RESULTS = "bench/results.json";
/** The bench names of the scale runs: by default, and with the state saved once per operation (`BENCH_SKIP_CHECKPOINTS=1`). */
export const SCALE_BENCHES = { everyStep: "scale", finalCheckpoint: "scale-final-checkpoint" } as const;
/** What each record carries about the run rather than the measurement. */
const META = new Set(["bench", "machine", "versions", "date", "commit", "source"]);

/** What a bench measures, for the heading of its table. */
const ABOUT: Record<string, string> = {
  scale: "Wall time of each operation on N resources, median of the runs, for the dynamic front end (notify) and the provider plugin (native), beside the baseline (a dynamic resource that makes no request, `bench/baseline.ts`: the engine's own cost) and the wide baseline (the same with the real resources' arguments); the ratios divide by the baselines, `msPerResource` is notify's. The requests of each operation stand beside `requestFloor`, the least the service's API allows for the mix (each kind's `floor` in `test/kinds/`: the creates of an `up`, the reads of a `preview --refresh`, one field of every resource changed by `update`, the deletes of a `destroy`), and `requestsToFloor` divides the one by the other; `providerPeakRssMiB` is the peak memory of the provider process (the baseline's: the engine's Node.js dynamic-provider plugin alone). `peakInFlight` (`nativePeakInFlight`: the plugin's) is the most requests the emulator answered at once during the operation. Beside a refresh, `waitingWideBaselineMs` is the wide baseline's refresh again with each read that the mix's floor gives requests waiting one latency and doing nothing else: the least time a provider making the floor's requests could take at the engine's parallelism. Runs published before the floor, the update and the peak existed show none of them.",
  [SCALE_BENCHES.finalCheckpoint]: "The `scale` runs again with the engine saving the state once per operation (`BENCH_SKIP_CHECKPOINTS=1`: `PULUMI_SKIP_CHECKPOINTS=true`), where by default the file backend rewrites the whole state after every step, a cost that grows with N² for the baselines as for the provider: how the provider's own cost grows with N. The growth goals are computed from these figures when they are published.",
  state: "State size per resource, of the provider's stacks and of the baselines'.",
  "rate-limit": "An `up` against a service that limits requests (token bucket).",
  functions: "A function over many seeded objects.",
  "emulator-throughput": "The emulator's own throughput on simple reads.",
  "engine-profile": "The engine's CPU profile (`BENCH_ENGINE_PROFILE=1`, at `BENCH_PROFILE_N` resources): the engine's sampled CPU of an `up` and a `preview --refresh` of each stack, and the share of it spent saving the state (`stateSaved`: after every step, or once with `BENCH_SKIP_CHECKPOINTS=1`), writing the CLI's automatic debug log of every RPC, and collecting garbage.",
  "provider-profile": "The dynamic-provider plugin's CPU on a `preview --refresh` (`BENCH_PROVIDER_PROFILE=1`), for the provider's dynamic front end and the wide baseline: `providerCpuMs` from /proc with profiling on, `sampledMs` the V8 samples of the plugin's processes, and the milliseconds of the samples with a frame of each activity on their stack (`pluginStart` the plugin's own start, `loading` modules loaded at any time, `implementation` this package's modules with zod and undici, `check`, `diff` and `read` the plugin's handling of each kind of request the engine sends, from its arguments to its answer, with the provider's operation within). The samples follow the wall clock: compare the shares.",
  "binary-size": "The plugin as one executable (`npm run plugin-binary`) against the folder plugin it replaces: bytes of the executable, its archive and the folder.",
  "binary-start": "Milliseconds from starting the plugin to its port on stdout (the engine's wait at every start), median of the starts, wall and CPU.",
  "binary-refresh-preview": "A native `preview --refresh` of N resources with each plugin, median of the runs: the wall time, and the CPU time of the plugin process alone (sampled from /proc), which the engine's share of the wall time and the machine's load hide.",
  export: "`notify-export` of an environment of N objects: wall time, and its requests against the least the service allows (every listing page, one read per workflow and per layout).",
};

/**
 * Where the dynamic front end's provider process spends its CPU on a refresh, as the provider
 * profile (`BENCH_PROVIDER_PROFILE=1`) showed it: what is measured is in the run's figures, this
 * says what the profile's parts are and what was tried against them.
 */
const PROVIDER_CPU = [
  "## Where the dynamic front end's provider process spends its CPU",
  "",
  "`BENCH_PROVIDER_PROFILE=1 BENCH_ONLY=none npm run bench` profiles the engine's dynamic-provider plugin on a `preview --refresh` of the provider's resources and of the wide baseline (`provider-profile` below, when published). What its profiles showed:",
  "",
  "- The engine starts the plugin twice on a `preview --refresh`, and each start loads `@pulumi/pulumi`'s runtime (its closure serializer brings the TypeScript compiler and npm's package readers) before the first request. The wide baseline pays the same: it is the largest part of both.",
  "- Each kind's one-line `__provider` is evaluated once per process (the plugin keeps the provider by its text) and its implementation module loaded once: no read loads a module, evaluates a provider or builds a schema again. Loading the kinds' modules (zod and the API's schemas), and at the first read the HTTP client (undici), is a cost per process, not per read.",
  "- What the provider adds to the baseline is its work: each read's request through undici and the validation of the answer against its zod schema, and each check's validation of the inputs. At N = 200 most of it is the first run of cold code (each kind's path, zod's generated parsers, undici's HTTP parser): the same reads run again in the same process cost far less. `read` in `provider-profile`, less the wide baseline's (whose reads answer with the state they are given), is what the provider's reads add, requests and validation together; `check` and `diff` the same for the preview's checks and diffs.",
  "- The requests wait, and the wide baseline makes none. The engine runs at most four operations per core at once (the CLI's default `--parallel`: `defaultParallel` in pkg/cmd/pulumi/operations/up.go of pulumi v3.259.0), so a refresh's reads take at least rounds of that many, one latency each; `peakInFlight` in `scale` is the most requests the emulator answered at once, and the Goals table sets that least wait apart from the rest of the time. The plugin waits as long and still takes less than the wide baseline's time, since it does not load the dynamic-provider plugin's runtime: what the dynamic front end spends beyond the wait is the CPU of its provider process.",
  "- The refresh's requests are at the least the service's API allows for the mix (`requestFloor` in `scale`): contexts, topics, environment variables, channel connections and channel endpoints are read from one listing page of each kind after its first read, where the service lists them as it reads one; workflows (the list holds summaries), subscribers and their credentials (one subscriber each: an environment's newest hundred are rarely a stack's), preferences, translations, agents and domains (their lists differ from a read), topic subscriptions and each topic's members cost a request each; a topic's read asks for the topic and its members at once, and a domain's for the domain and its routes, so neither waits two latencies and the requests in flight can outnumber the engine's reads. At 20 ms a request that wait alone (the Goals table gives it in ms) is a share of the wide baseline's time, which makes no request, that the raw refresh goals leave no room for. The waiting wide baseline measures it: the wide baseline whose reads wait as the floor's requests do (a read that makes requests waits one latency, as those it makes at once wait together; a read served by another's listing page waits none), with no other work. Its time over the wide baseline's, in the Goals table, is the least any provider making the floor's requests could reach against the raw goal. Each round's ratio, beside the median's in the Goals table, shows how far this machine's noise moves it between rounds run back to back.",
  "- Bundling the kinds' modules with zod and undici into one file, as the plugin's executable is built, shortens only the part of `loading` that is this package's (`provider-profile`: `loading` of notify less the wide baseline's), not the reads, and the package would ship zod and undici twice. Not done.",
  "- Tried, without a gain in the process's total CPU above this machine's noise: loading undici's `Pool` alone instead of its entry point, zod without its generated parsers (`jitless`), and Node's compile cache for this package's modules. The compile cache shortens the plugin's own start most, which only the environment of `pulumi` can turn on (`NODE_COMPILE_CACHE`).",
  "",
];

/** A `scale` record, as bench/run.ts writes it (the fields the goals read). */
interface ScaleRow extends Measurement {
  n: number;
  op: string;
  notifyMs: number;
  nativeMs: number;
  wideBaselineMs: number;
  requests: number;
  requestFloor: number;
  providerPeakRssMiB?: number;
  baselineProviderPeakRssMiB?: number;
  baselineMs: number;
  latencyMs?: number;
  nativeRequests?: number;
  /** Each round's wall ms, in the order the rounds ran (absent in runs before they were kept). */
  notifyRunsMs?: number[];
  nativeRunsMs?: number[];
  baselineRunsMs?: number[];
  wideBaselineRunsMs?: number[];
  /**
   * A refresh's: the wide baseline's refresh with each read the floor gives requests waiting one
   * latency, and each round's (absent in runs before it was measured).
   */
  waitingWideBaselineMs?: number;
  waitingWideBaselineRunsMs?: number[];
  /** The most requests the service answered at once during the operation (absent in runs before it was measured). */
  peakInFlight?: number;
  /** The same through the plugin. */
  nativePeakInFlight?: number;
}

/** What a goal shows of a run: the figure at each N (or across them) and whether it is met. */
interface Verdict {
  shown: string;
  met: boolean;
}

const byN = (rows: ScaleRow[], op: string) => rows.filter((r) => r.op === op).sort((a, b) => a.n - b.n);
const fixed = (x: number) => Number(x.toFixed(2));

/** `value` of each N's `op` against `limit` (at most). */
function atEachN(op: string, value: (r: ScaleRow) => number | undefined, limit: number): (rows: ScaleRow[]) => Verdict | undefined {
  return (rows) => {
    const xs = byN(rows, op).flatMap((r) => { const v = value(r); return v === undefined || !Number.isFinite(v) ? [] : [[r.n, fixed(v)] as const]; });
    if (xs.length === 0) return undefined;
    return { shown: xs.map(([n, v]) => `${n}: ${v}`).join(", "), met: xs.every(([, v]) => v <= limit) };
  };
}

/** Each stack's wall ms in a scale record: the median, and each round's. */
const STACKS = {
  dynamic: { ms: (r: ScaleRow) => r.notifyMs, rounds: (r: ScaleRow) => r.notifyRunsMs },
  plugin: { ms: (r: ScaleRow) => r.nativeMs, rounds: (r: ScaleRow) => r.nativeRunsMs },
  baseline: { ms: (r: ScaleRow) => r.baselineMs, rounds: (r: ScaleRow) => r.baselineRunsMs },
  wide: { ms: (r: ScaleRow) => r.wideBaselineMs, rounds: (r: ScaleRow) => r.wideBaselineRunsMs },
  waitingWide: { ms: (r: ScaleRow) => r.waitingWideBaselineMs, rounds: (r: ScaleRow) => r.waitingWideBaselineRunsMs },
} as const;

/** ` (each round: …)`: `ratio` of two stacks' times in each round, when both kept more than one round. */
function eachRound(a: number[] | undefined, b: number[] | undefined, ratio: (a: number, b: number) => number): string {
  return a && b && a.length === b.length && a.length > 1 ? ` (each round: ${a.map((x, i) => fixed(ratio(x, b[i]!))).join(", ")})` : "";
}

/**
 * `op`'s time of stack `of` over stack `over`'s at each N, against `limit` (at most), and beside it
 * the same ratio in each round: the stacks of a round run one after another, so a round's ratio
 * shows how far the machine's noise moves the median's.
 */
function timeRatio(op: string, of: keyof typeof STACKS, over: keyof typeof STACKS, limit: number): (rows: ScaleRow[]) => Verdict | undefined {
  return (rows) => {
    const xs = byN(rows, op).filter((r) => STACKS[of].ms(r) !== undefined && STACKS[over].ms(r) !== undefined);
    if (xs.length === 0) return undefined;
    const shown = xs.map((r) => {
      return [r.n, fixed(STACKS[of].ms(r)! / STACKS[over].ms(r)!), eachRound(STACKS[of].rounds(r), STACKS[over].rounds(r), (a, b) => a / b)] as const;
    });
    return { shown: shown.map(([n, v, rounds]) => `${n}: ${v}${rounds}`).join(", "), met: shown.every(([, v]) => v <= limit) };
  };
}

/** A front end's figures in a scale record: the dynamic front end's (notify) or the plugin's (native). */
const FRONT_ENDS = {
  dynamic: { ...STACKS.dynamic, requests: (r: ScaleRow) => r.requests, peak: (r: ScaleRow) => r.peakInFlight },
  plugin: { ...STACKS.plugin, requests: (r: ScaleRow) => r.nativeRequests ?? r.requests, peak: (r: ScaleRow) => r.nativePeakInFlight },
} as const;

/**
 * The least time a front end's requests keep an operation waiting: rounds of at most the most
 * requests it had in flight at once (what the engine's parallelism and the client's connections let
 * through), each round one latency long. Undefined for a run without the figures.
 */
export function requestWaitMs(r: ScaleRow, front: keyof typeof FRONT_ENDS = "dynamic"): number | undefined {
  const f = FRONT_ENDS[front], peak = f.peak(r);
  if (!peak || r.latencyMs === undefined) return undefined;
  return Math.ceil(f.requests(r) / peak) * r.latencyMs;
}

/**
 * A front end's time of `op` less its requests' least wait ({@link requestWaitMs}), over a
 * baseline's (which makes no request), against `limit` at each N: the part of the time the
 * provider can shorten, beside the engine's own.
 */
function beyondWait(op: string, front: keyof typeof FRONT_ENDS, over: keyof typeof STACKS, limit: number): (rows: ScaleRow[]) => Verdict | undefined {
  return (rows) => {
    const xs = byN(rows, op).flatMap((r) => { const w = requestWaitMs(r, front); return w === undefined ? [] : [[r, w] as const]; });
    if (xs.length === 0) return undefined;
    const f = FRONT_ENDS[front];
    const v = xs.map(([r, w]) => [r, w, fixed((f.ms(r) - w) / STACKS[over].ms(r)!)] as const);
    return {
      shown: v.map(([r, w, x]) => `${r.n}: ${x}${eachRound(f.rounds(r), STACKS[over].rounds(r), (a, b) => (a - w) / b)} (the wait: ${f.requests(r)} requests, at most ${f.peak(r)} at once, ${r.latencyMs} ms each: ${w} ms)`).join(", "),
      met: v.every(([, , x]) => x <= limit),
    };
  };
}

/** `op`'s milliseconds per resource at the largest N over the smallest, beside the baseline's (the engine's own): at most 1.2. */
function growth(op: string): (rows: ScaleRow[]) => Verdict | undefined {
  return (rows) => {
    const xs = byN(rows, op).filter((r) => typeof r.baselineMs === "number");
    if (xs.length < 2) return undefined;
    const first = xs[0]!, last = xs.at(-1)!;
    const per = (r: ScaleRow, ms: number) => fixed(ms / r.n);
    const g = fixed(per(last, last.notifyMs) / per(first, first.notifyMs));
    const b = fixed(per(last, last.baselineMs) / per(first, first.baselineMs));
    return { shown: `${per(first, first.notifyMs)} ms at ${first.n}, ${per(last, last.notifyMs)} ms at ${last.n}: ${g} (baseline: ${per(first, first.baselineMs)}, ${per(last, last.baselineMs)}: ${b})`, met: g <= 1.2 };
  };
}

/**
 * `op`'s cost of each added resource (the time's growth over the N's) from the second-largest N to
 * the largest, over that from the smallest to the second-largest, beside the baseline's: at most
 * 1.2. Unlike the time a resource, which the fixed cost of an operation lowers as N grows, it shows
 * a cost that grows faster than N.
 */
function marginal(op: string): (rows: ScaleRow[]) => Verdict | undefined {
  return (rows) => {
    const xs = byN(rows, op).filter((r) => typeof r.baselineMs === "number");
    if (xs.length < 3) return undefined;
    const [a, b, c] = [xs[0]!, xs.at(-2)!, xs.at(-1)!];
    const slope = (from: ScaleRow, to: ScaleRow, ms: (r: ScaleRow) => number) => fixed((ms(to) - ms(from)) / (to.n - from.n));
    const m1 = slope(a, b, (r) => r.notifyMs), m2 = slope(b, c, (r) => r.notifyMs);
    const b1 = slope(a, b, (r) => r.baselineMs), b2 = slope(b, c, (r) => r.baselineMs);
    const g = fixed(m2 / m1);
    return { shown: `${m1} ms from ${a.n} to ${b.n}, ${m2} ms from ${b.n} to ${c.n}: ${g} (baseline: ${b1}, ${b2}: ${fixed(b2 / b1)})`, met: g <= 1.2 };
  };
}

/** The provider process's peak memory from the smallest N to the largest, against the engine's plugin alone (the baseline's). */
function memoryGrowth(op: string): (rows: ScaleRow[]) => Verdict | undefined {
  return (rows) => {
    const xs = byN(rows, op).filter((r) => r.providerPeakRssMiB !== undefined && r.baselineProviderPeakRssMiB !== undefined);
    if (xs.length < 2) return undefined;
    const first = xs[0]!, last = xs.at(-1)!;
    const own = fixed(last.providerPeakRssMiB! - first.providerPeakRssMiB!), engine = fixed(last.baselineProviderPeakRssMiB! - first.baselineProviderPeakRssMiB!);
    return { shown: `${own} MiB from ${first.n} to ${last.n} (the baseline's plugin: ${engine} MiB)`, met: own <= Math.max(engine, 0) * 1.2 + 10 };
  };
}

/**
 * The goals the scale figures are held to, each computed from the published run: requests at
 * their floor, refresh near the engine's own cost, cost per resource that does not grow with N.
 * A figure the run lacks (one N only, a run published before a field existed) leaves its goal out.
 */
const GOALS: [string, (rows: ScaleRow[]) => Verdict | undefined, ("growth" | undefined)?][] = [
  ["`up` requests at most 1.05 times the floor", atEachN("up", (r) => r.requests / r.requestFloor, 1.05)],
  ["`destroy` requests at most 1.05 times the floor", atEachN("destroy", (r) => r.requests / r.requestFloor, 1.05)],
  ["`preview --refresh` requests at most the floor", atEachN("refresh-preview", (r) => r.requests / r.requestFloor, 1)],
  ["an update of one field of every resource: requests a resource at most 1", atEachN("update", (r) => r.requests / r.n, 1)],
  ["dynamic `preview --refresh` at most 1.1 times the wide baseline's time", timeRatio("refresh-preview", "dynamic", "wide", 1.1)],
  ["dynamic `preview --refresh` less its requests' least wait at most 1.1 times the wide baseline's time", beyondWait("refresh-preview", "dynamic", "wide", 1.1)],
  ["dynamic `preview --refresh` at most 1.4 times the baseline's time", timeRatio("refresh-preview", "dynamic", "baseline", 1.4)],
  ["dynamic `preview --refresh` less its requests' least wait at most 1.4 times the baseline's time", beyondWait("refresh-preview", "dynamic", "baseline", 1.4)],
  ["plugin `preview --refresh` at most the wide baseline's time", timeRatio("refresh-preview", "plugin", "wide", 1)],
  ["plugin `preview --refresh` less its requests' least wait at most the wide baseline's time", beyondWait("refresh-preview", "plugin", "wide", 1)],
  // The floor of the two goals above, measured: the wide baseline whose reads only wait, as the floor's requests do.
  ["the wide baseline's `preview --refresh` with its reads waiting the floor's requests (no other work) at most 1.1 times the wide baseline's time: whether the first goal leaves any provider room", timeRatio("refresh-preview", "waitingWide", "wide", 1.1)],
  ["dynamic `preview --refresh` at most 1.1 times the waiting wide baseline's time", timeRatio("refresh-preview", "dynamic", "waitingWide", 1.1)],
  ["plugin `preview --refresh` at most the waiting wide baseline's time", timeRatio("refresh-preview", "plugin", "waitingWide", 1)],
  ["`up`: time a resource at the largest N within 20% of the smallest", growth("up"), "growth"],
  ["`up`: each added resource's time at the largest N's within 20% of that at the smaller", marginal("up"), "growth"],
  ["`preview --refresh`: time a resource at the largest N within 20% of the smallest", growth("refresh-preview"), "growth"],
  ["`preview --refresh`: each added resource's time at the largest N's within 20% of that at the smaller", marginal("refresh-preview"), "growth"],
  ["`destroy`: time a resource at the largest N within 20% of the smallest", growth("destroy"), "growth"],
  ["`destroy`: each added resource's time at the largest N's within 20% of that at the smaller", marginal("destroy"), "growth"],
  ["the provider process's peak memory grows with N no more than the engine's plugin's (1.2 times, 10 MiB of noise)", memoryGrowth("refresh-preview"), "growth"],
];

/**
 * The goals section of the page, computed from the run's `scale` records, and the growth goals from
 * `scale-final-checkpoint` when it was run at two sizes or more (the provider's growth, without
 * the file backend's rewriting of the whole state after every step); empty without them.
 */
export function goalsSection(data: Measurement[]): string[] {
  const rows = data.filter((m) => m.bench === SCALE_BENCHES.everyStep) as ScaleRow[];
  const finalCheckpoint = data.filter((m) => m.bench === SCALE_BENCHES.finalCheckpoint) as ScaleRow[];
  const growthFrom = new Set(finalCheckpoint.map((r) => r.n)).size >= 2 ? finalCheckpoint : rows;
  const verdicts = GOALS.flatMap(([goal, f, kind]) => {
    const v = f(kind === "growth" ? growthFrom : rows);
    return v ? [[kind === "growth" && growthFrom === finalCheckpoint ? `${goal} (\`${SCALE_BENCHES.finalCheckpoint}\`)` : goal, v] as const] : [];
  });
  if (verdicts.length === 0) return [];
  return [
    "## Goals",
    "",
    "Each goal the `scale` figures below are held to, computed from them (N: value): the requests against their floor, the time against the baselines', and cost and memory as N grows.",
    "",
    "| goal | measured | met |",
    "|---|---|---|",
    ...verdicts.map(([goal, v]) => `| ${goal} | ${v.shown} | ${v.met ? "yes" : "**no**"} |`),
    "",
  ];
}

const scalar = (v: unknown) => v === null || ["string", "number", "boolean"].includes(typeof v);

function table(rows: Measurement[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => !META.has(k) && scalar(r[k]))))];
  return [`| ${columns.join(" | ")} |`, `|${columns.map(() => "---").join("|")}|`, ...rows.map((r) => `| ${columns.map((c) => (r[c] === undefined ? "" : String(r[c]))).join(" | ")} |`)].join("\n");
}

/** The page for a run's measurements. */
export function renderBenchmarks(data: Measurement[]): string {
  const head = [
    "# Benchmarks",
    "",
    "<!-- Generated by scripts/render-bench.ts from docs/benchmarks.json: run `npm run bench-docs` (`-- --publish` after `npm run bench`). -->",
    "",
    "`npm run bench` (outside `npm test`) measures the provider against the emulator. `bench/run.ts` says how each figure is taken; `BENCH_SIZES`, `BENCH_ONLY`, `BENCH_LATENCY_MS` and `BENCH_REPEATS` narrow a run.",
    "",
    ...goalsSection(data),
    ...PROVIDER_CPU,
  ];
  if (data.length === 0) return [...head, "No run is published yet.", ""].join("\n");
  const benches = [...new Set(data.map((m) => m.bench))];
  for (const b of benches) {
    const rows = data.filter((m) => m.bench === b);
    head.push(`## ${b}`, "", ...(ABOUT[b] ? [ABOUT[b]!, ""] : []), ...provenance(rows[0]!), table(rows), "");
  }
  return head.join("\n");
}

/** Where and on what a bench's figures were taken: each bench may come from another run. */
function provenance(first: Measurement): string[] {
  const machine = first.machine as Record<string, unknown> | undefined;
  const versions = first.versions as Record<string, unknown> | undefined;
  const lines = [`- Commit: \`${String(first.commit ?? "not recorded")}\``];
  if (first.source) lines.push(`- Source: ${String(first.source)}`);
  lines.push(`- Date: ${String(first.date ?? "not recorded")}`);
  if (machine) lines.push(`- Machine: ${Object.entries(machine).map(([k, v]) => `${k} ${String(v)}`).join(", ")}`);
  if (versions) lines.push(`- Versions: ${Object.entries(versions).map(([k, v]) => `${k} ${String(v)}`).join(", ")}`);
  return [...lines, ""];
}

/**
 * The published data after a run: the run's measurements replace the published ones of the same
 * benches, and the other benches keep theirs (a run of `BENCH_ONLY=binary` publishes that bench alone).
 */
export function publish(published: Measurement[], run: Measurement[]): Measurement[] {
  const ran = new Set(run.map((m) => m.bench));
  return [...published.filter((m) => !ran.has(m.bench)), ...run];
}

/** The page of the committed data. */
export function benchmarksPage(root = REPO_ROOT): string {
  return renderBenchmarks(JSON.parse(readFileSync(path.join(root, BENCH_DATA), "utf8")) as Measurement[]);
}

if (require.main === module) {
  if (process.argv.includes("--publish")) {
    const read = (file: string) => JSON.parse(readFileSync(path.join(REPO_ROOT, file), "utf8")) as Measurement[];
    writeFileSync(path.join(REPO_ROOT, BENCH_DATA), JSON.stringify(publish(read(BENCH_DATA), read(RESULTS)), null, 2) + "\n");
  }
  writeFileSync(path.join(REPO_ROOT, BENCH_PAGE), benchmarksPage());
  console.log(`wrote ${BENCH_PAGE} from ${BENCH_DATA}`);
}
