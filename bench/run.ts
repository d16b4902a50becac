/**
 * `npm run bench`: the provider against the engine's own cost (the baseline) and the request floor, in one run.
 *
 *   emulator   throughput of simple reads (the emulator must never be what is measured)
 *   scale      N = 200, 1000, 2000 resources at 20 ms per request: up, no-op preview, refresh
 *              preview, an update of one field of every resource, destroy; through the dynamic
 *              front end and through the native plugin (pulumi-resource-notify), beside each the
 *              same N of the baseline, a dynamic resource that makes no request (bench/baseline.ts),
 *              and of the wide baseline, one with the real resources' arguments; time and requests
 *              per resource, the requests against the request floor of the mix (the least the
 *              service's API allows, test/kinds/floor.ts), and the peak memory (RSS) of the
 *              provider process
 *   requests   requests and bytes per resource of each operation, from the emulator's request log
 *   state      exported-state bytes and __provider bytes per resource
 *   ratelimit  up of 200 resources against 30 requests/s with a burst of 30
 *   functions  getSubscribers over 60,000 subscribers, maxResults 1,000 and 60,000
 *   binary     the plugin as one executable (npm run plugin-binary) against the folder plugin
 *              (bin/pulumi-resource-notify on node_modules): size, start time to the port, and
 *              the native `preview --refresh` at N = BENCH_BINARY_N (default 200) with each
 *   export     notify-export of an environment of N = 500 objects (BENCH_EXPORT_N) at 20 ms per
 *              request: wall time, and requests against the least the service allows (every
 *              listing page, one read per workflow and per layout, whose listings hold no steps
 *              or control values)
 *
 * Prints a table and writes bench/results.json (one object per measurement, with the machine,
 * versions and date), after each measurement. `BENCH_SIZES=200,1000` limits the scale runs; `BENCH_REPEATS` sets how many
 * interleaved runs of N <= 200 the medians come from (default 3), `BENCH_REPEATS_LARGE` how many
 * of larger N (default 1); `BENCH_SKIP_CHECKPOINTS=1` runs the scale stacks with the state saved
 * once per operation (bench `scale-final-checkpoint`); `BENCH_ENGINE_PROFILE=1` adds a CPU profile of the engine (needs Go,
 * which builds the CLI here), `BENCH_PROVIDER_PROFILE=1` one of the dynamic-provider process.
 */
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Pool } from "undici";
import type * as automation from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../emulator";
import { checkpointFile, linkProjectDir, localStack, pulumiCliPath, REPO_ROOT, serviceApi, useNativePlugin } from "../scripts/workspace";
import { scaleProgram, nativeScaleProgram, baselineProgram, wideBaselineProgram, mixFloor, mixReads, prepareMix, type MixOptions } from "./programs";
import { READ_WAIT_ENV } from "./baseline";
import type { RequestCounts } from "../test/kinds/descriptor";
import { exportEnvironment } from "../export";
import { runInfo } from "../scripts/runInfo";
import { SCALE_BENCHES } from "../scripts/render-bench";
import { summarize, type CpuProfile, type Frame } from "./cpuProfile";

const KEY = "bench-api-key-0123456789";
/** Latency the emulator adds to each request of the scale runs (BENCH_LATENCY_MS, default 20). */
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const say = (s: string) => process.stdout.write(`${s}\n`);

interface Measurement {
  bench: string;
  [k: string]: unknown;
}
const results: Measurement[] = [];
/** What every measurement carries about the run (machine, versions, date, commit), taken when it starts. */
let runMeta: ReturnType<typeof runInfo> | undefined;
const RESULTS_FILE = path.join(REPO_ROOT, "bench/results.json");
/**
 * Keeps `m`, and writes bench/results.json with every measurement so far: a run stopped partway
 * (the largest N of `scale` takes the longest) keeps what it measured.
 */
function record(m: Measurement): void {
  results.push(m);
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, JSON.stringify(results.map((r) => ({ ...r, ...runMeta })), null, 2) + "\n");
}

// --------------------------------------------------------------------------------- emulator

/** A raw request to the emulator with the bench's key. */
function api(emu: { url: string }, method: string, p: string, body?: unknown): Promise<any> {
  return serviceApi(emu.url, KEY)(method, p, body);
}

/** The emulator CLI in its own process, so the load generator does not share its event loop. */
async function emulatorThroughput(): Promise<void> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, "dist/emulator/cli.js"), "--port", "0", "--api-key", KEY], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => { out += d.toString(); if (out.includes("\n")) resolve(out.trim().split(" ").pop()!); });
    child.once("exit", (c) => reject(new Error(`emulator exited ${c}`)));
  });
  try {
    for (let i = 0; i < 10; i++) await api({ url }, "POST", "/v1/integrations", { identifier: `i${i}`, providerId: "sendgrid", channel: "email", name: `I${i}` });
    await api({ url }, "POST", "/__emulator/seed", { generate: { subscribers: 1000 } });
    const routes = ["/v1/integrations", "/v2/subscribers/seed-500", "/v2/subscribers?limit=10"];
    for (const route of routes) {
      const pool = new Pool(url, { connections: 16 });
      const seconds = 4;
      const end = Date.now() + seconds * 1000;
      let done = 0, failed = 0;
      const worker = async () => {
        while (Date.now() < end) {
          const r = await pool.request({ method: "GET", path: route, headers: { authorization: `ApiKey ${KEY}` } });
          await r.body.dump();
          if (r.statusCode === 200) done++; else failed++;
        }
      };
      const t0 = performance.now();
      await Promise.all(Array.from({ length: 32 }, worker));
      const elapsed = (performance.now() - t0) / 1000;
      await pool.close();
      const rps = Math.round(done / elapsed);
      record({ bench: "emulator-throughput", route: `GET ${route}`, requestsPerSecond: rps, requests: done, failed, concurrency: 32, seconds: Number(elapsed.toFixed(2)) });
      say(`emulator  GET ${route.padEnd(28)} ${String(rps).padStart(6)} req/s (${failed} failed)`);
    }
  } finally {
    child.kill("SIGTERM");
  }
}

// --------------------------------------------------------------------------------- stacks

interface Log { method: string; path: string; status: number; bytesIn: number; bytesOut: number; time: string; inFlight: number; fault?: string }

async function requestLog(emu: RunningEmulator): Promise<Log[]> {
  return (await api(emu, "GET", "/__emulator/requests")).requests as Log[];
}

/** Seconds from a request log's first request to its last, and how many started in each second. */
function timing(log: Log[]): { spanS: number; eachSecond: number[] } {
  if (!log.length) return { spanS: 0, eachSecond: [] };
  const times = log.map((r) => Date.parse(r.time));
  const t0 = Math.min(...times);
  const eachSecond: number[] = [];
  for (const t of times) {
    const b = Math.floor((t - t0) / 1000);
    while (eachSecond.length <= b) eachSecond.push(0);
    eachSecond[b]! += 1;
  }
  return { spanS: (Math.max(...times) - t0) / 1000, eachSecond };
}

/** The stack config of the provider's stacks: the emulator's address and the bench's key. */
function stackConfig(emu: { url: string }): Record<string, automation.ConfigValue> {
  return { "notify:apiUrl": { value: emu.url }, "notify:apiKey": { value: KEY, secret: true } };
}

/** An emptied service with what the mix needs (bench/programs.ts, prepareMix). */
async function prepareService(emu: RunningEmulator, subscribers: number): Promise<void> {
  await api(emu, "POST", "/__emulator/reset");
  await prepareMix((method, p, body) => api(emu, method, p, body), subscribers);
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await f();
  return [r, Math.round(performance.now() - t0)];
}

/** Bytes of the stack's state file, and of each resource's __provider (none for the native plugin's). */
function stateBytes(dir: string, project: string, stack: string): { total: number; perResource: number; providerPerResource: number; maxProvider: number } {
  const text = readFileSync(checkpointFile(dir, project, stack), "utf8");
  // The stack's resources, without the stack itself and the provider resources (types pulumi:*).
  const resources = (JSON.parse(text).checkpoint.latest.resources as { type: string; inputs?: { __provider?: string } }[])
    .filter((r) => !r.type.startsWith("pulumi:"));
  const providers = resources.map((r) => Buffer.byteLength(r.inputs?.__provider ?? ""));
  return {
    total: Buffer.byteLength(text),
    perResource: Math.round(Buffer.byteLength(text) / resources.length),
    providerPerResource: Math.round(providers.reduce((a, b) => a + b, 0) / resources.length),
    maxProvider: Math.max(...providers),
  };
}

/**
 * A stack of `program` in a fresh project directory; `native` lists the native plugin in the
 * project's plugins.providers (true: bin/ of this checkout; a string: that folder).
 */
async function withStack<T>(name: string, program: automation.PulumiFn, config: Record<string, automation.ConfigValue>, f: (s: automation.Stack, dir: string) => Promise<T>, opts: { native?: boolean | string } = {}): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `notify-bench-${name}-`));
  linkProjectDir(dir);
  try {
    const stack = await localStack({ dir, projectName: "notify-bench", stackName: name, program });
    if (SKIP_CHECKPOINTS) stack.workspace.envVars.PULUMI_SKIP_CHECKPOINTS = "true";
    if (opts.native) await useNativePlugin(stack, typeof opts.native === "string" ? opts.native : undefined);
    await stack.setAllConfig(config);
    return await f(stack, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const OPS = ["up", "preview", "refresh-preview", "update", "destroy"] as const;
type Op = (typeof OPS)[number];
/**
 * The wide baseline's refresh again with its reads waiting ({@link READ_WAIT_ENV}): each read the
 * mix's floor gives requests waits one latency and does nothing else, the least time a provider
 * making the floor's requests at this latency could take, at the engine's parallelism.
 */
const WAITING_REFRESH = "waiting-refresh-preview";
const WIDE_OPS = [...OPS.slice(0, 3), WAITING_REFRESH, ...OPS.slice(3)] as const;
type MeasuredOp = (typeof WIDE_OPS)[number];

/** The floor operation each measured one is held to: the creates of an up, the reads of a refresh, and so on; a preview sends nothing. */
const FLOOR_OF: Record<Op, keyof RequestCounts | null> = { up: "create", preview: null, "refresh-preview": "read", update: "update", destroy: "delete" };

/** Where a stack's program is: declared as first written, or with each resource's one-field change (the update). */
interface Stage { changed: boolean }
const changedBy = (stage: Stage): Pick<MixOptions, "changed"> => ({ changed: () => stage.changed });

/**
 * CPU time spent by the engine (the `pulumi` process of this stack, a child of this process) and
 * by everything it starts (the dynamic-provider plugin processes and their launch scripts) while
 * one operation runs, from /proc sampled every 50 ms (Linux; zero elsewhere), and by this process
 * (the program, the Automation API and, for the provider's stacks, the emulator). The process
 * tree is followed through /proc/<pid>/task/<tid>/children, so a process is counted from the
 * moment it exists, whatever its command line was then; a process that exits between two
 * samples loses at most its last 50 ms.
 */
class CpuWatch {
  private static readonly tickMs = existsSync("/proc/self/task") ? 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) : 0;
  private readonly seen = new Map<number, { role: "engine" | "provider"; ms: number; peakKiB: number }>();
  private readonly timer: NodeJS.Timeout;
  private readonly host = process.cpuUsage();

  constructor(private readonly stackName: string) {
    this.timer = setInterval(() => this.sample(), 50);
  }

  private static children(pid: number): number[] {
    const out: number[] = [];
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const text = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim();
        if (text) for (const c of text.split(" ")) out.push(Number(c));
      }
    } catch { /* exited */ }
    return out;
  }

  /** A process's peak resident set (VmHWM, KiB), 0 when it cannot be read. */
  private static peakKiB(pid: number): number {
    try {
      return Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      return 0;
    }
  }

  private static cpuMs(pid: number): number | undefined {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(")").pop()!.trim().split(" ");
      return (Number(f[11]) + Number(f[12])) * CpuWatch.tickMs;
    } catch {
      return undefined;
    }
  }

  private sample(): void {
    if (!CpuWatch.tickMs) return;
    const note = (pid: number, role: "engine" | "provider") => {
      const ms = CpuWatch.cpuMs(pid);
      const peakKiB = Math.max(CpuWatch.peakKiB(pid), this.seen.get(pid)?.peakKiB ?? 0);
      if (ms !== undefined) this.seen.set(pid, { role, ms, peakKiB });
    };
    for (const pid of CpuWatch.children(process.pid)) {
      let cmd = "";
      try { cmd = readFileSync(`/proc/${pid}/cmdline`, "latin1").replaceAll("\0", " "); } catch { continue; }
      if (!cmd.includes(`--stack ${this.stackName} `)) continue;
      note(pid, "engine");
      const below = CpuWatch.children(pid);
      for (let i = 0; i < below.length; i++) {
        note(below[i]!, "provider");
        below.push(...CpuWatch.children(below[i]!));
      }
    }
  }

  /**
   * The CPU of each role, and the peak resident set of the largest process of each (the provider
   * plugin's server, the engine), in MiB: the last sample of a process comes at most 50 ms before it exits.
   */
  stop(): { engineCpuMs: number; providerCpuMs: number; hostCpuMs: number; enginePeakRssMiB: number; providerPeakRssMiB: number } {
    clearInterval(this.timer);
    this.sample();
    const sum = { engine: 0, provider: 0 };
    const peak = { engine: 0, provider: 0 };
    for (const { role, ms, peakKiB } of this.seen.values()) {
      sum[role] += ms;
      peak[role] = Math.max(peak[role], peakKiB);
    }
    const host = process.cpuUsage(this.host);
    const mib = (kib: number) => Number((kib / 1024).toFixed(1));
    return {
      engineCpuMs: Math.round(sum.engine), providerCpuMs: Math.round(sum.provider), hostCpuMs: Math.round((host.user + host.system) / 1000),
      enginePeakRssMiB: mib(peak.engine), providerPeakRssMiB: mib(peak.provider),
    };
  }
}

async function runOps(stack: automation.Stack, emu: RunningEmulator | undefined, n: number, dir: string, kind: string, stage: Stage, ops: readonly MeasuredOp[] = OPS) {
  const out: Record<string, { ms: number; requests: number; requestsPerSecond: number; eachSecond: number[]; peakInFlight: number; bytes: number; perResource: number; bytesPerResource: number; cpu: ReturnType<CpuWatch["stop"]> }> = {};
  let state: ReturnType<typeof stateBytes> | undefined;
  for (const op of ops) {
    if (emu) await api(emu, "DELETE", "/__emulator/requests");
    const watch = new CpuWatch(stack.name);
    const [res, ms] = await timed(async () => {
      switch (op) {
        case "up": return stack.up();
        case "preview": return stack.preview({ expectNoChanges: true });
        case "refresh-preview": return stack.preview({ refresh: true, expectNoChanges: true });
        case WAITING_REFRESH:
          stack.workspace.envVars[READ_WAIT_ENV] = String(LATENCY_MS);
          try {
            return await stack.preview({ refresh: true, expectNoChanges: true });
          } finally {
            delete stack.workspace.envVars[READ_WAIT_ENV];
          }
        case "update":
          stage.changed = true;
          return stack.up();
        case "destroy": return stack.destroy();
      }
    });
    const cpu = watch.stop();
    if (op === "up" || op === "update") {
      const changes = (res as automation.UpResult).summary.resourceChanges ?? {};
      const done = op === "up" ? changes.create : changes.update;
      if (done !== (op === "up" ? n + 1 : n)) throw new Error(`${kind} ${op} of ${n} ${op === "up" ? "created" : "updated"} ${JSON.stringify(changes)}`);
      if (op === "up") state = stateBytes(dir, "notify-bench", stack.name);
    }
    const log = emu ? await requestLog(emu) : [];
    const bytes = log.reduce((a, r) => a + r.bytesIn + r.bytesOut, 0);
    const { spanS, eachSecond } = timing(log);
    const requestsPerSecond = spanS > 0 ? Number((log.length / spanS).toFixed(1)) : 0;
    // The most requests the service was answering at once: what the engine's parallelism and the client's connections let through.
    const peakInFlight = log.reduce((a, r) => Math.max(a, r.inFlight), 0);
    out[op] = { ms, requests: log.length, requestsPerSecond, eachSecond, peakInFlight, bytes, perResource: Number((log.length / n).toFixed(2)), bytesPerResource: Math.round(bytes / n), cpu };
  }
  return { ops: out, state: state! };
}

/**
 * Runs of each size, interleaved (notify, native, baseline, wide baseline, then again), and the
 * median wall time of each operation is reported: one run of a few seconds on a shared 2-core
 * machine moves by ±10%. BENCH_REPEATS (default 3) applies up to N = 200; larger N run
 * BENCH_REPEATS_LARGE times (default 1: each round of N = 500 takes about four minutes).
 */
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const REPEATS_LARGE = Number(process.env.BENCH_REPEATS_LARGE ?? 1);
/**
 * BENCH_SKIP_CHECKPOINTS=1: every stack runs with PULUMI_SKIP_CHECKPOINTS=true, so the engine
 * saves the state once, at the end of an operation, where by default the file backend rewrites the
 * whole state after every step (a cost that grows with N² for every provider alike). Its scale
 * figures are published as their own bench: how the provider's own cost grows with N.
 */
const SKIP_CHECKPOINTS = process.env.BENCH_SKIP_CHECKPOINTS === "1";
const SCALE_BENCH = SKIP_CHECKPOINTS ? SCALE_BENCHES.finalCheckpoint : SCALE_BENCHES.everyStep;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : Math.round((s[m - 1]! + s[m]!) / 2);
}

type OpsRun = Awaited<ReturnType<typeof runOps>>;
/** Per N, the provider's `up` with no rate limit: the demand the rate-limit run meets. */
const unlimitedUp = new Map<number, { requestsPerSecond: number; eachSecond: number[] }>();

async function scale(emu: RunningEmulator, sizes: number[]): Promise<void> {
  const config = stackConfig(emu);
  say(`\nscale at ${LATENCY_MS} ms per request (median wall ms of the runs; notify is the dynamic front end, native the plugin, baseline the resource that makes no request, wide the baseline with the real arguments; ratio and ratio-n: notify and native to the baseline; ratio-w: notify to the wide baseline; ms/res: notify's; requests of notify against the request floor of the mix; peak RSS of the provider process, MiB)`);
  say(`${"N".padStart(4)} ${"op".padEnd(16)} ${"runs".padStart(4)} ${"notify".padStart(7)} ${"native".padStart(7)} ${"base".padStart(7)} ${"wide".padStart(7)} ${"ratio".padStart(6)} ${"ratio-n".padStart(7)} ${"ratio-w".padStart(7)} ${"ms/res".padStart(7)} ${"req".padStart(6)} ${"floor".padStart(6)} ${"x floor".padStart(7)} ${"req/res".padStart(8)} ${"rss".padStart(6)} ${"rss-n".padStart(6)} ${"rss-b".padStart(6)}`);
  for (const n of sizes) {
    const repeats = Math.max(1, n <= 200 ? REPEATS : REPEATS_LARGE);
    const floor = mixFloor(n);
    const runs: { notify: OpsRun[]; native: OpsRun[]; baseline: OpsRun[]; wide: OpsRun[] } = { notify: [], native: [], baseline: [], wide: [] };
    const cpuLines: string[] = [];
    for (let r = 0; r < repeats; r++) {
      // Each front end starts from the same service: seeded subscribers, the slack integration, nothing else.
      for (const kind of ["notify", "native"] as const) {
        await prepareService(emu, Math.ceil(n / 4));
        await api(emu, "POST", "/__emulator/faults", { latencyMs: [LATENCY_MS, LATENCY_MS] });
        const stage: Stage = { changed: false };
        runs[kind].push(kind === "notify"
          ? await withStack(`notify-${n}`, scaleProgram(n, changedBy(stage)), config, (s, dir) => runOps(s, emu, n, dir, "notify", stage))
          : await withStack(`native-${n}`, nativeScaleProgram(n, changedBy(stage)), config, (s, dir) => runOps(s, emu, n, dir, "native", stage), { native: true }));
      }
      await api(emu, "POST", "/__emulator/faults", {});
      const base: Stage = { changed: false }, wide: Stage = { changed: false };
      runs.baseline.push(await withStack(`baseline-${n}`, baselineProgram(n, changedBy(base)), {}, (s, dir) => runOps(s, undefined, n, dir, "baseline", base)));
      runs.wide.push(await withStack(`wide-${n}`, wideBaselineProgram(n, changedBy(wide)), {}, (s, dir) => runOps(s, undefined, n, dir, "wide baseline", wide, WIDE_OPS)));
    }
    for (const op of OPS) {
      const times = (k: keyof typeof runs, o: MeasuredOp = op) => runs[k].map((x) => x.ops[o]!.ms);
      const a = median(times("notify")), nat = median(times("native")), b = median(times("baseline")), w = median(times("wide"));
      // Every run of an operation makes the same requests, on either front end (they share the
      // implementation modules), except that an up's count may move by a few where a listing is
      // shared between reads that run alongside writes.
      const reqs = runs.notify.map((x) => x.ops[op]!.requests);
      const nativeReqs = runs.native.map((x) => x.ops[op]!.requests);
      for (const [kind, counts] of [["notify", reqs], ["native", nativeReqs]] as const) {
        if (op !== "up" && new Set(counts).size > 1) throw new Error(`${kind} ${op} of ${n} made a different number of requests in each run: ${counts.join(", ")}`);
      }
      if (op !== "up" && reqs[0] !== nativeReqs[0]) say(`  note: ${op} of ${n} made ${reqs[0]} requests through the dynamic front end and ${nativeReqs[0]} through the plugin`);
      const first = runs.notify[0]!.ops[op]!;
      const requestFloor = FLOOR_OF[op] ? floor[FLOOR_OF[op]] : 0;
      const requestsToFloor = requestFloor ? Number((first.requests / requestFloor).toFixed(2)) : null;
      const bytesPerResource = median(runs.notify.map((x) => x.ops[op]!.bytesPerResource));
      const ratio = Number((a / b).toFixed(2));
      const ratioWide = Number((a / w).toFixed(2));
      // Beside a refresh: the wide baseline's with its reads waiting, the least any provider making the floor's requests could take.
      const waiting = op === "refresh-preview" ? { waitingWideBaselineMs: median(times("wide", WAITING_REFRESH)), waitingWideBaselineRunsMs: times("wide", WAITING_REFRESH) } : {};
      const nativeRatio = Number((nat / b).toFixed(2));
      const cpuOf = (k: keyof typeof runs) => {
        const pick = (role: "engineCpuMs" | "providerCpuMs" | "hostCpuMs") => median(runs[k].map((x) => x.ops[op]!.cpu[role]));
        return { engine: pick("engineCpuMs"), provider: pick("providerCpuMs"), host: pick("hostCpuMs") };
      };
      const rssOf = (k: keyof typeof runs) => Math.max(...runs[k].map((x) => x.ops[op]!.cpu.providerPeakRssMiB));
      const cpu = { notify: cpuOf("notify"), native: cpuOf("native"), baseline: cpuOf("baseline"), wideBaseline: cpuOf("wide") };
      const requestsPerSecond = median(runs.notify.map((x) => x.ops[op]!.requestsPerSecond));
      if (op === "up") unlimitedUp.set(n, { requestsPerSecond, eachSecond: first.eachSecond });
      const msPerResource = Number((a / n).toFixed(1));
      // In the order docs/benchmarks.md shows them: each time beside the baseline's, the requests beside their floor.
      record({
        bench: SCALE_BENCH, n, op, latencyMs: LATENCY_MS, runs: repeats,
        notifyMs: a, baselineMs: b, wideBaselineMs: w, ...waiting, nativeMs: nat, ratio, ratioToWideBaseline: ratioWide, nativeRatio, msPerResource,
        requests: first.requests, requestFloor, requestsToFloor, nativeRequests: nativeReqs[0], requestsPerResource: first.perResource,
        peakInFlight: Math.max(...runs.notify.map((x) => x.ops[op]!.peakInFlight)), nativePeakInFlight: Math.max(...runs.native.map((x) => x.ops[op]!.peakInFlight)),
        providerPeakRssMiB: rssOf("notify"), nativeProviderPeakRssMiB: rssOf("native"), baselineProviderPeakRssMiB: rssOf("baseline"),
        enginePeakRssMiB: Math.max(...runs.notify.map((x) => x.ops[op]!.cpu.enginePeakRssMiB)),
        bytesPerResource, nativeBytesPerResource: median(runs.native.map((x) => x.ops[op]!.bytesPerResource)), requestsPerSecond,
        notifyRunsMs: times("notify"), nativeRunsMs: times("native"), baselineRunsMs: times("baseline"), wideBaselineRunsMs: times("wide"),
        requestsRuns: reqs, nativeRequestsRuns: nativeReqs, bytes: median(runs.notify.map((x) => x.ops[op]!.bytes)), cpuMs: cpu,
      });
      cpuLines.push(`${String(n).padStart(4)} ${op.padEnd(16)} ${[cpu.notify, cpu.native, cpu.baseline, cpu.wideBaseline].map((c) => `${String(c.engine).padStart(6)} ${String(c.provider).padStart(6)} ${String(c.host).padStart(6)}`).join("   ")}`);
      say(`${String(n).padStart(4)} ${op.padEnd(16)} ${String(repeats).padStart(4)} ${String(a).padStart(7)} ${String(nat).padStart(7)} ${String(b).padStart(7)} ${String(w).padStart(7)} ${String(ratio).padStart(6)} ${String(nativeRatio).padStart(7)} ${String(ratioWide).padStart(7)} ${String(msPerResource).padStart(7)} ${String(first.requests).padStart(6)} ${String(requestFloor).padStart(6)} ${String(requestsToFloor ?? "-").padStart(7)} ${String(first.perResource).padStart(8)} ${String(rssOf("notify")).padStart(6)} ${String(rssOf("native")).padStart(6)} ${String(rssOf("baseline")).padStart(6)}`);
    }
    const refresh = results.findLast((m) => m.bench === SCALE_BENCH && m.n === n && m.op === "refresh-preview");
    say(`${String(n).padStart(4)} the wide baseline's refresh with its reads waiting the floor's requests (${mixReads(n).filter((r) => r > 0).length} reads, ${LATENCY_MS} ms each): ${String(refresh?.waitingWideBaselineMs)} ms`);
    say(`${String(n).padStart(4)} CPU ms (median) of the engine, the provider plugin and the bench process (program, Automation API, emulator):`);
    say(`${"".padStart(4)} ${"".padEnd(16)} ${"notify: engine provider host".padStart(20)}   ${"native: same".padStart(20)}   ${"baseline: same".padStart(20)}   ${"wide baseline: same".padStart(20)}`);
    for (const line of cpuLines) say(line);
    const notify = runs.notify[0]!, native = runs.native[0]!, baseline = runs.baseline[0]!, wide = runs.wide[0]!;
    record({ bench: "state", n, stateBytes: notify.state.total, stateBytesPerResource: notify.state.perResource, providerBytesPerResource: notify.state.providerPerResource, maxProviderBytes: notify.state.maxProvider, nativeStateBytesPerResource: native.state.perResource, baselineStateBytesPerResource: baseline.state.perResource, wideBaselineStateBytesPerResource: wide.state.perResource });
    say(`${String(n).padStart(4)} state: ${notify.state.perResource} bytes/resource (native ${native.state.perResource}, baseline ${baseline.state.perResource}, wide baseline ${wide.state.perResource}); __provider ${notify.state.providerPerResource} bytes/resource, max ${notify.state.maxProvider}`);
  }
}

async function rateLimited(emu: RunningEmulator): Promise<void> {
  const n = 200;
  await prepareService(emu, n / 4);
  await api(emu, "POST", "/__emulator/behaviour", { rateLimit: { rate: 30, burst: 30 } });
  await api(emu, "DELETE", "/__emulator/requests");
  const config = stackConfig(emu);
  try {
    await withStack("ratelimit", scaleProgram(n), config, async (stack) => {
      const [up, ms] = await timed(() => stack.up());
      const log = await requestLog(emu);
      const limited = log.filter((r) => r.status === 429).length;
      const { spanS, eachSecond } = timing(log);
      const accepted = log.length - limited;
      const rate = Number((accepted / spanS).toFixed(1));
      const failed = up.summary.result !== "succeeded";
      const unlimited = unlimitedUp.get(n);
      record({ bench: "rate-limit", n, limit: 30, burst: 30, upMs: ms, requests: log.length, accepted, status429: limited, share429: Number((limited / log.length).toFixed(4)), achievedRate: rate, shareOfLimit: Number((rate / 30).toFixed(3)), requestsEachSecond: eachSecond, unlimitedRequestsPerSecond: unlimited?.requestsPerSecond, unlimitedRequestsEachSecond: unlimited?.eachSecond, failedOperations: failed ? 1 : 0 });
      say(`\nrate limit 30/s burst 30, up of ${n}: ${ms} ms, ${log.length} requests, ${limited} answered 429 (${((limited / log.length) * 100).toFixed(2)}%), achieved ${rate} req/s (${((rate / 30) * 100).toFixed(1)}% of the limit), result ${up.summary.result}`);
      say(`  requests in each second: ${eachSecond.join(" ")}`);
      if (unlimited) say(`  the same up with no limit (scale run, 20 ms latency) sent ${unlimited.requestsPerSecond} req/s: the demand the engine generates here; each second: ${unlimited.eachSecond.join(" ")}`);
      await api(emu, "POST", "/__emulator/behaviour", { rateLimit: null });
      await stack.destroy();
    });
  } finally {
    await api(emu, "POST", "/__emulator/behaviour", { rateLimit: null });
  }
}

/**
 * BENCH_ENGINE_PROFILE=1: where the engine's own CPU goes. One `up` and one `preview --refresh`
 * of N = 200 (BENCH_PROFILE_N) for the provider (dynamic and native front ends), the baseline and
 * the wide baseline, the CLI run with `--profiling` (through a wrapper
 * that appends it only while an operation is measured), then `go tool pprof` reads each CPU
 * profile for the cumulative share of: the diy backend writing the whole checkpoint after each
 * step, the automatic debug log the CLI keeps of every command (every property of every RPC,
 * gzip'd and encrypted; on unconditionally since pulumi/pulumi#23731), and the garbage collector.
 * Separate from the scale runs, since profiling itself costs a little. BENCH_PROFILE_DIR keeps the
 * profiles (`go tool pprof -top <file>.cpu`).
 */
const ENGINE_PARTS = {
  checkpointSaves: "backend.(*SnapshotManager).saveSnapshot",
  automaticLog: "logging.VerboseLogger.Infof",
  garbageCollector: "runtime.gcBgMarkWorker",
} as const;

function pprofShares(file: string): { sampledMs: number } & Record<keyof typeof ENGINE_PARTS, number> {
  const text = execFileSync("go", ["tool", "pprof", "-top", "-cum", "-nodecount=100000", file], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  /** A pprof duration ("1.23s", "450ms") in ms; 0 when `m` did not match. */
  const ms = (m: RegExpExecArray | null) => (m ? Number(m[1]) * (m[2] === "s" ? 1000 : 1) : 0);
  const sampledMs = ms(/Total samples = ([\d.]+)(ms|s)/.exec(text));
  const share = (fn: string) => {
    const line = text.split("\n").find((l) => l.trimEnd().endsWith(fn));
    const cumMs = ms(line ? /([\d.]+)(ms|s)\s+[\d.]+%\s+\S+$/.exec(line.trim()) : null);
    return sampledMs ? Number((cumMs / sampledMs).toFixed(3)) : 0;
  };
  const parts = Object.fromEntries(Object.entries(ENGINE_PARTS).map(([k, fn]) => [k, share(fn)])) as Record<keyof typeof ENGINE_PARTS, number>;
  return { sampledMs: Math.round(sampledMs), ...parts };
}

async function engineProfile(emu: RunningEmulator): Promise<void> {
  const n = Number(process.env.BENCH_PROFILE_N ?? 200);
  const real = pulumiCliPath();
  const keep = process.env.BENCH_PROFILE_DIR;
  if (keep) mkdirSync(keep, { recursive: true });
  const work = keep ?? mkdtempSync(path.join(os.tmpdir(), "notify-bench-profile-"));
  const wrapper = path.join(work, "cli", "bin", "pulumi");
  mkdirSync(path.dirname(wrapper), { recursive: true });
  writeFileSync(wrapper, `#!/bin/sh\nif [ -n "$NOTIFY_BENCH_PROFILE" ]; then exec "${real}" "$@" --profiling "$NOTIFY_BENCH_PROFILE"; fi\nexec "${real}" "$@"\n`, { mode: 0o755 });
  const config = stackConfig(emu);
  say(`\nengine CPU profile, N = ${n} (go tool pprof; share of the engine's sampled CPU)`);
  say(`${"stack".padEnd(8)} ${"op".padEnd(16)} ${"sampled ms".padStart(10)} ${"checkpoint saves".padStart(17)} ${"automatic log".padStart(14)} ${"GC".padStart(6)}`);
  process.env.PULUMI_NOTIFY_CLI = wrapper;
  try {
    for (const [kind, program, cfg] of [["notify", scaleProgram(n), config], ["native", nativeScaleProgram(n), config], ["baseline", baselineProgram(n), {}], ["wide", wideBaselineProgram(n), {}]] as const) {
      if (kind === "notify" || kind === "native") {
        await prepareService(emu, n / 4);
        await api(emu, "POST", "/__emulator/faults", { latencyMs: [LATENCY_MS, LATENCY_MS] });
      }
      await withStack(`profile-${kind}`, program, cfg, async (stack) => {
        for (const op of ["up", "refresh-preview"] as const) {
          const prefix = path.join(work, `${kind}-${op}`);
          stack.workspace.envVars.NOTIFY_BENCH_PROFILE = prefix;
          try {
            if (op === "up") await stack.up();
            else await stack.preview({ refresh: true, expectNoChanges: true });
            if (keep && op === "up") writeFileSync(path.join(keep, `${kind}-state.json`), JSON.stringify(await stack.exportStack(), null, 1));
          } finally {
            delete stack.workspace.envVars.NOTIFY_BENCH_PROFILE;
          }
          const file = readdirSync(work).find((f) => f.startsWith(`${kind}-${op}.`) && f.endsWith(".cpu"));
          if (!file) throw new Error(`no CPU profile was written for ${kind} ${op}`);
          const r = pprofShares(path.join(work, file));
          record({ bench: "engine-profile", n, stack: kind, op, stateSaved: SKIP_CHECKPOINTS ? "once" : "every step", ...r });
          const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
          say(`${kind.padEnd(8)} ${op.padEnd(16)} ${String(r.sampledMs).padStart(10)} ${pct(r.checkpointSaves).padStart(17)} ${pct(r.automaticLog).padStart(14)} ${pct(r.garbageCollector).padStart(6)}`);
        }
        await stack.destroy();
      }, { native: kind === "native" });
      await api(emu, "POST", "/__emulator/faults", {});
    }
  } finally {
    process.env.PULUMI_NOTIFY_CLI = real;
    if (keep) say(`profiles kept in ${keep}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

/** getSubscribers in a child process, for its peak memory. */
async function functions(emu: RunningEmulator): Promise<void> {
  await api(emu, "POST", "/__emulator/reset");
  await api(emu, "POST", "/__emulator/seed", { generate: { subscribers: 60_000 } });
  say("");
  for (const maxResults of [1000, 60_000]) {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(__dirname, "getSubscribers.js"), String(maxResults)], {
        env: { ...process.env, NOTIFY_API_URL: emu.url, NOTIFY_API_KEY: KEY }, stdio: ["ignore", "pipe", "inherit"],
      });
      let text = "";
      child.stdout!.on("data", (d: Buffer) => { text += d.toString(); });
      child.once("exit", (c) => (c === 0 ? resolve(text) : reject(new Error(`getSubscribers bench exited ${c}`))));
    });
    const r = JSON.parse(out) as { ms: number; count: number; baselineRssBytes: number; peakRssBytes: number; requests: number };
    const reqs = (await requestLog(emu)).filter((l) => l.path === "/v2/subscribers").length;
    await api(emu, "DELETE", "/__emulator/requests");
    record({ bench: "functions", fn: "getSubscribers", seeded: 60_000, maxResults, ms: r.ms, returned: r.count, requests: reqs, peakRssMiB: Number((r.peakRssBytes / 2 ** 20).toFixed(1)), baselineRssMiB: Number((r.baselineRssBytes / 2 ** 20).toFixed(1)) });
    say(`getSubscribers maxResults ${String(maxResults).padStart(6)}: ${r.count} subscribers in ${r.ms} ms, ${reqs} requests, peak RSS ${(r.peakRssBytes / 2 ** 20).toFixed(1)} MiB (baseline ${(r.baselineRssBytes / 2 ** 20).toFixed(1)} MiB)`);
  }
}

/**
 * Milliseconds from spawning a plugin to the port on its stdout (the engine's wait at every
 * start), and the CPU milliseconds the process spent until then (from /proc; 0 elsewhere), which
 * a loaded machine moves less than the wall time.
 */
function startToPort(command: string): Promise<{ ms: number; cpuMs: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, [], { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (!out.includes("\n")) return;
      const ms = performance.now() - t0;
      // The folder plugin's wrapper execs node, so the pid is the server's either way.
      let cpuMs = 0;
      try {
        const f = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(")").pop()!.trim().split(" ");
        cpuMs = Math.round(((Number(f[11]) + Number(f[12])) * 1000) / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()));
      } catch { /* not Linux */ }
      child.kill();
      resolve({ ms: Math.round(ms), cpuMs });
    });
    child.once("error", reject);
    child.once("exit", (c) => { if (!out.includes("\n")) reject(new Error(`${command} exited ${c} before its port`)); });
  });
}

/**
 * The CPU milliseconds that processes whose command line contains `marker` spend while sampling
 * runs: /proc is read every 20 ms, and each process counts with its last sample (so a process
 * that ends loses at most its last 20 ms). Linux only; 0 elsewhere. The plugin's own cost in an
 * engine run, which the engine's wall time hides and a loaded machine moves far less.
 */
function sampleCpu(marker: string): () => number {
  const tick = 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
  const last = new Map<string, number>();
  const sample = () => {
    let pids: string[] = [];
    try { pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p)); } catch { return; }
    for (const pid of pids) {
      try {
        if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker)) continue;
        const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(")").pop()!.trim().split(" ");
        last.set(pid, (Number(f[11]) + Number(f[12])) * tick);
      } catch { /* gone */ }
    }
  };
  sample();
  const timer = setInterval(sample, 20);
  return () => {
    clearInterval(timer);
    sample();
    return Math.round([...last.values()].reduce((a, b) => a + b, 0));
  };
}

/** Bytes of every file under `dir`. */
function treeBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) total += statSync(path.join(e.parentPath, e.name)).size;
  return total;
}

/**
 * The plugin binary (scripts/plugin-binary.ts, the host's target) against the folder plugin it
 * replaces (bin/pulumi-resource-notify with the package's Node and node_modules): sizes, the median
 * start time to the port of BENCH_START_REPEATS (default 10) starts each, interleaved, and the
 * median of BENCH_REPEATS native `preview --refresh` runs at N = BENCH_BINARY_N (default 200),
 * interleaved, each front on its own stack, wall time and the plugin process's own CPU time.
 */
async function binary(emu: RunningEmulator): Promise<void> {
  const { buildPluginArchives, EXECUTABLE } = await import("../scripts/plugin-binary");
  const { buildPluginFolder } = await import("../scripts/native-plugin");
  const host = process.arch === "arm64" ? "linux-arm64" : "linux-amd64";
  const [built] = await buildPluginArchives({ targets: [host], log: (l) => process.stderr.write(`${l}\n`) });
  const binDir = mkdtempSync(path.join(os.tmpdir(), "notify-bench-binary-"));
  const folder = mkdtempSync(path.join(os.tmpdir(), "notify-bench-folder-"));
  try {
    copyFileSync(built!.executable, path.join(binDir, EXECUTABLE));
    chmodSync(path.join(binDir, EXECUTABLE), 0o755);
    buildPluginFolder(folder);
    const sizes = { executableBytes: statSync(built!.executable).size, archiveBytes: statSync(built!.archive).size, folderPluginBytes: treeBytes(folder) };
    record({ bench: "binary-size", target: host, ...sizes });
    const mib = (b: number) => (b / 2 ** 20).toFixed(1);
    say(`\nplugin binary (${host}): executable ${mib(sizes.executableBytes)} MiB, archive ${mib(sizes.archiveBytes)} MiB; the folder plugin (npm run native-plugin, with its Node) ${mib(sizes.folderPluginBytes)} MiB`);

    const starts = Number(process.env.BENCH_START_REPEATS ?? 10);
    const fronts = { binary: path.join(binDir, EXECUTABLE), folder: path.join(REPO_ROOT, "bin/pulumi-resource-notify") };
    const startMs: Record<keyof typeof fronts, number[]> = { binary: [], folder: [] };
    const startCpuMs: Record<keyof typeof fronts, number[]> = { binary: [], folder: [] };
    for (let r = 0; r < starts; r++) {
      for (const k of ["binary", "folder"] as const) {
        const { ms, cpuMs } = await startToPort(fronts[k]);
        startMs[k].push(ms);
        startCpuMs[k].push(cpuMs);
      }
    }
    record({ bench: "binary-start", runs: starts, binaryMs: median(startMs.binary), folderMs: median(startMs.folder), binaryCpuMs: median(startCpuMs.binary), folderCpuMs: median(startCpuMs.folder), binaryRunsMs: startMs.binary, folderRunsMs: startMs.folder });
    say(`start to the port, median of ${starts}: binary ${median(startMs.binary)} ms (${median(startCpuMs.binary)} ms CPU), folder plugin ${median(startMs.folder)} ms (${median(startCpuMs.folder)} ms CPU)`);

    const n = Number(process.env.BENCH_BINARY_N ?? 200);
    const config = stackConfig(emu);
    const refreshMs: Record<keyof typeof fronts, number[]> = { binary: [], folder: [] };
    const refreshCpuMs: Record<keyof typeof fronts, number[]> = { binary: [], folder: [] };
    // What names each plugin's server process: the executable, or the entry its wrapper execs.
    const markers = { binary: path.join(binDir, EXECUTABLE), folder: "dist/provider/native/main.js" };
    for (let r = 0; r < Math.max(1, REPEATS); r++) {
      for (const k of ["binary", "folder"] as const) {
        await prepareService(emu, Math.ceil(n / 4));
        await api(emu, "POST", "/__emulator/faults", { latencyMs: [LATENCY_MS, LATENCY_MS] });
        refreshMs[k].push(await withStack(`${k}-${n}`, nativeScaleProgram(n), config, async (s) => {
          const up = await s.up();
          if ((up.summary.resourceChanges?.create ?? 0) !== n + 1) throw new Error(`${k} up of ${n} created ${JSON.stringify(up.summary.resourceChanges)}`);
          const stop = sampleCpu(markers[k]);
          const [, ms] = await timed(() => s.preview({ refresh: true, expectNoChanges: true }));
          refreshCpuMs[k].push(stop());
          await s.destroy();
          return ms;
        }, { native: k === "binary" ? binDir : true }));
      }
    }
    await api(emu, "POST", "/__emulator/faults", {});
    record({
      bench: "binary-refresh-preview", n, latencyMs: LATENCY_MS, runs: refreshMs.binary.length, binaryMs: median(refreshMs.binary), folderMs: median(refreshMs.folder),
      binaryPluginCpuMs: median(refreshCpuMs.binary), folderPluginCpuMs: median(refreshCpuMs.folder),
      binaryRunsMs: refreshMs.binary, folderRunsMs: refreshMs.folder, binaryPluginCpuRunsMs: refreshCpuMs.binary, folderPluginCpuRunsMs: refreshCpuMs.folder,
    });
    say(`native preview --refresh of N = ${n} at ${LATENCY_MS} ms per request, median of ${refreshMs.binary.length}: binary ${median(refreshMs.binary)} ms, folder plugin ${median(refreshMs.folder)} ms (ratio ${(median(refreshMs.binary) / median(refreshMs.folder)).toFixed(2)}); the plugin's CPU: binary ${median(refreshCpuMs.binary)} ms, folder ${median(refreshCpuMs.folder)} ms`);
  } finally {
    rmSync(binDir, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * What the dynamic-provider process of a `preview --refresh` is doing in its CPU profile (a
 * sample counts in each activity one of whose frames is on its stack): the plugin's own start
 * (its entry module and all it loads, @pulumi/pulumi's runtime included, before any request);
 * loading modules at any time (at the start, and the `__provider` modules with what they require);
 * the provider's implementation (this package's modules, zod and undici: checks, diffs, reads,
 * their requests and the validation of the answers); turning the engine's protobuf structs into
 * objects and back; gRPC; the garbage collector; and the plugin's handling of each kind of request
 * the engine sends (check, diff, read), from its arguments to its answer, the provider's operation
 * within.
 */
const PROVIDER_ACTIVITIES: Record<string, (f: Frame) => boolean> = {
  pluginStart: (f) => f.functionName === "executeUserEntryPoint",
  // Module._load until Node 22, wrapModuleLoad (around an anonymous Module._load) since.
  loading: (f) => f.url.startsWith("node:internal/modules/cjs/") && (f.functionName === "Module._load" || f.functionName === "wrapModuleLoad"),
  implementation: (f) => /\/dist\/provider\/|\/node_modules\/(zod|undici)\//.test(f.url),
  protobuf: (f) => f.url.includes("/google-protobuf/") || f.url.includes("/@pulumi/pulumi/proto/"),
  grpc: (f) => f.url.includes("/@grpc/grpc-js/"),
  garbageCollector: (f) => f.functionName === "(garbage collector)",
  // The plugin's handler of each request the engine sends on a refresh's preview, with all under it:
  // the request's properties turned into objects, the provider's operation, and its answer back.
  check: (f) => isPluginHandler(f, "check"),
  diff: (f) => isPluginHandler(f, "diff"),
  read: (f) => isPluginHandler(f, "read"),
};

/** Whether a frame is the dynamic-provider plugin's handler of the engine's request `op` (cmd/dynamic-provider/index.js). */
function isPluginHandler(f: Frame, op: string): boolean {
  return f.functionName === op && f.url.includes("/cmd/dynamic-provider/");
}

/** Whether a profile is of the dynamic-provider plugin (not of its launch script's `node -e`). */
const isProviderProfile = (p: CpuProfile) => p.nodes.some((n) => n.callFrame.url.includes("/cmd/dynamic-provider/"));

/**
 * BENCH_PROVIDER_PROFILE=1: where the dynamic-provider process's CPU goes on a `preview
 * --refresh` of N = 200 (BENCH_PROFILE_N), for the provider's dynamic front end and the wide
 * baseline (the same arguments, no request): the CLI runs with NODE_OPTIONS=--cpu-prof while the
 * refresh is measured, so each Node.js process it starts writes a V8 profile when it exits (made
 * to exit on the signal the engine stops it with); those of the plugin (the engine starts two) are
 * summed ({@link summarize}). The samples are taken on a wall clock, so on a loaded machine a
 * process waiting for a core counts too: read the shares, not the milliseconds. Separate from the
 * scale runs, since profiling itself costs. BENCH_PROFILE_DIR keeps the profiles (open one in
 * Chrome's DevTools, Performance tab).
 */
async function providerProfile(emu: RunningEmulator): Promise<void> {
  const n = Number(process.env.BENCH_PROFILE_N ?? 200);
  const keep = process.env.BENCH_PROFILE_DIR;
  const work = keep ?? mkdtempSync(path.join(os.tmpdir(), "notify-bench-provider-profile-"));
  mkdirSync(work, { recursive: true });
  // The engine ends a plugin with a signal, and Node writes the profile only when it exits: exit on it.
  const exitOnSignal = path.join(work, "exit-on-signal.js");
  writeFileSync(exitOnSignal, `for (const s of ["SIGINT", "SIGTERM"]) process.on(s, () => process.exit(0));\n`);
  const config = stackConfig(emu);
  say(`\ndynamic-provider CPU profile of preview --refresh, N = ${n} (the V8 samples of the plugin's processes, ms, by activity and by place)`);
  try {
    for (const [kind, program, cfg] of [["notify", scaleProgram(n), config], ["wide", wideBaselineProgram(n), {}]] as const) {
      if (kind === "notify") {
        await prepareService(emu, Math.ceil(n / 4));
        await api(emu, "POST", "/__emulator/faults", { latencyMs: [LATENCY_MS, LATENCY_MS] });
      }
      const dir = path.join(work, `${kind}-refresh-preview`);
      let providerCpuMs = 0;
      rmSync(dir, { recursive: true, force: true });
      await withStack(`provider-profile-${kind}`, program, cfg, async (stack) => {
        await stack.up();
        stack.workspace.envVars.NODE_OPTIONS = `--cpu-prof --cpu-prof-dir=${dir} --require ${exitOnSignal}`;
        const watch = new CpuWatch(stack.name);
        try {
          await stack.preview({ refresh: true, expectNoChanges: true });
        } finally {
          providerCpuMs = watch.stop().providerCpuMs;
          delete stack.workspace.envVars.NODE_OPTIONS;
        }
        await stack.destroy();
      });
      await api(emu, "POST", "/__emulator/faults", {});
      const profiles = (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".cpuprofile")) : [])
        .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as CpuProfile).filter(isProviderProfile);
      if (!profiles.length) throw new Error(`no CPU profile of the dynamic-provider plugin was written for ${kind}`);
      const sums = profiles.map((p) => summarize(p, PROVIDER_ACTIVITIES));
      const byPlace = new Map<string, number>();
      for (const s of sums) for (const [p, ms] of s.byPlace) byPlace.set(p, (byPlace.get(p) ?? 0) + ms);
      const activities = Object.fromEntries(Object.keys(PROVIDER_ACTIVITIES).map((a) => [a, sums.reduce((t, s) => t + s.activities[a]!, 0)]));
      const sampledMs = sums.reduce((t, s) => t + s.sampledMs, 0);
      const places = [...byPlace].sort((a, b) => b[1] - a[1]).slice(0, 12);
      record({ bench: "provider-profile", n, stack: kind, op: "refresh-preview", processes: profiles.length, providerCpuMs, sampledMs, ...activities, byPlace: Object.fromEntries(places) });
      say(`${kind.padEnd(7)} ${providerCpuMs} ms CPU (/proc, profiling on), ${sampledMs} ms sampled in ${profiles.length} plugin processes; ${Object.entries(activities).map(([a, ms]) => `${a} ${ms}`).join(", ")}`);
      say(`        self time by place: ${places.map(([p, ms]) => `${p} ${ms}`).join(", ")}`);
    }
  } finally {
    if (keep) say(`profiles kept in ${keep}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

// --------------------------------------------------------------------------------- export

/**
 * notify-export of N objects: a fifth integrations, two fifths workflows (three steps each), a
 * tenth layouts, a tenth topics (five subscribers each), a fifth variables; the requests it makes
 * set against the floor (the listing pages at 100 a page, the subscription pages of each topic,
 * one read per workflow and per layout; no subscriber is named, so none is read).
 */
async function exportBench(): Promise<void> {
  const n = Number(process.env.BENCH_EXPORT_N ?? 500);
  const counts = { integrations: n / 5, workflows: (2 * n) / 5, layouts: n / 10, topics: n / 10, variables: n / 5 };
  const emu = await startEmulator({ apiKeys: [`${KEY}=bench`], environmentVariableLimit: n });
  const out = mkdtempSync(path.join(os.tmpdir(), "notify-bench-export-"));
  try {
    const call = (m: string, p: string, b?: unknown) => api(emu, m, p, b);
    for (let i = 0; i < 5; i++) await call("POST", "/v2/subscribers", { subscriberId: `sub-${i}` });
    for (let i = 0; i < counts.layouts; i++) await call("POST", "/v2/layouts", { layoutId: `layout-${i}`, name: `Layout ${i}` });
    for (let i = 0; i < counts.integrations; i++) await call("POST", "/v1/integrations", { identifier: `sms-${i}`, providerId: "twilio", channel: "sms", active: i % 2 === 0 });
    for (let i = 0; i < counts.workflows; i++) {
      await call("POST", "/v2/workflows", { workflowId: `wf-${i}`, name: `Workflow ${i}`, steps: [
        { name: "Inbox", type: "in_app", controlValues: { body: `Hello ${i}` } },
        { name: "Wait", type: "delay", controlValues: { type: "regular", amount: 5, unit: "minutes" } },
        { name: "Mail", type: "email", controlValues: { subject: "Hi", body: "<p>Hi</p>", editorType: "html", layoutId: `layout-${i % counts.layouts}` } },
      ] });
    }
    for (let i = 0; i < counts.topics; i++) {
      await call("POST", "/v2/topics", { key: `topic-${i}`, name: `Topic ${i}` });
      await call("POST", `/v2/topics/topic-${i}/subscriptions`, { subscriptions: ["sub-0", "sub-1", "sub-2", "sub-3", "sub-4"] });
    }
    for (let i = 0; i < counts.variables; i++) await call("POST", "/v1/environment-variables", { key: `VAR_${i}`, values: [{ _environmentId: "env_bench", value: `v${i}` }] });
    await call("POST", "/__emulator/faults", { latencyMs: [LATENCY_MS, LATENCY_MS] });
    const pages = (k: number) => Math.max(1, Math.ceil(k / 100));
    // Contexts and domains: none here, but one page each says so (no workflow or layout has translation on: no translation reads).
    const floor = 1 /* environments */ + 1 /* integrations */ + pages(counts.layouts) + pages(counts.workflows) + pages(counts.topics) + 1 /* variables */ +
      1 /* contexts */ + 1 /* domains */ + 1 /* agents */ + 1 /* channel connections */ + 1 /* channel endpoints */ +
      counts.topics /* one subscription page each, for Topic and TopicSubscription */ + counts.workflows + counts.layouts;
    const [result, ms] = await timed(() => exportEnvironment({ language: "typescript", out: path.join(out, "program"), connection: { apiUrl: emu.url, apiKey: KEY } }));
    await call("POST", "/__emulator/faults", {});
    const requests = result.requests.length;
    record({ bench: "export", n, objects: result.model.resources.length, ms, requests, floor, ratio: Number((requests / floor).toFixed(2)), latencyMs: LATENCY_MS });
    say(`export N=${n}: ${result.model.resources.length} resources in ${(ms / 1000).toFixed(1)} s, ${requests} requests (floor ${floor}: ${(requests / floor).toFixed(2)}x) at ${LATENCY_MS} ms a request`);
  } finally {
    await emu.close();
    rmSync(out, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const cli = pulumiCliPath();
  // The code measured, taken before the first measurement: docs/benchmarks.md shows it with the
  // figures (`-dirty` when the tree had changes).
  const { machine, versions, date, commit } = runInfo(cli);
  runMeta = { machine, versions, date, commit };
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, "[]\n");
  const sizes = (process.env.BENCH_SIZES ?? "200,1000,2000").split(",").map(Number);
  const only = process.env.BENCH_ONLY?.split(",");
  const want = (b: string) => !only || only.includes(b);
  if (want("emulator")) await emulatorThroughput();
  if (want("export")) await exportBench();
  // Limits and a plan the scale mix fits in (mixCounts, bench/programs.ts): its environments and
  // variables pass these limits, and its domains and translations need a plan above Pro.
  const emu = await startEmulator({ apiKeys: [KEY], environmentLimit: 100, environmentVariableLimit: 1000, plan: "business" });
  try {
    if (want("scale")) await scale(emu, sizes);
    if (want("ratelimit")) await rateLimited(emu);
    if (want("functions")) await functions(emu);
    if (want("binary")) await binary(emu);
    if (process.env.BENCH_ENGINE_PROFILE === "1") await engineProfile(emu);
    if (process.env.BENCH_PROVIDER_PROFILE === "1") await providerProfile(emu);
  } finally {
    await emu.close();
  }
  const { cpu, cores, memoryGiB } = runMeta.machine;
  say(`\n${results.length} measurements written to bench/results.json in ${Math.round((Date.now() - started) / 1000)} s on ${cpu} (${cores} cores, ${memoryGiB} GiB), Node ${runMeta.versions.node}, Pulumi ${runMeta.versions.pulumi}`);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
