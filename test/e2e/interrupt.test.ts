/**
 * A killed CI job costs no data: SIGKILL the `pulumi up` process at several points while it
 * creates 50 resources, then run the README's recovery (`pulumi refresh --clear-pending-creates`,
 * then `up` with adopt: true) and check the service holds each declared object exactly once.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync, truncateSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadPackage, type TestStack } from "../helpers/pulumi";
import { useStack } from "../helpers/stack";
import { expectExactlyDeclared, seedScaleService } from "../helpers/service";

type Programs = typeof import("../../bench/programs");
const { scaleProgram } = loadPackage<Programs>("/dist/bench/programs");
const N = 50;
const KILL_POINTS = (process.env.NOTIFY_KILL_POINTS ?? "3,20,40").split(",").map(Number);

/** Live processes: pid, parent pid, state and command line. */
function processTable(): { pid: number; ppid: number; state: string; args: string }[] {
  const out = execFileSync("ps", ["-eo", "pid=,ppid=,stat=,args="], { encoding: "utf8" });
  return out.split("\n").map((l) => l.trim().split(/\s+/)).filter((f) => f.length >= 4)
    .map(([pid, ppid, state, ...args]) => ({ pid: Number(pid), ppid: Number(ppid), state: state!, args: args.join(" ") }));
}

/**
 * The CLI running `up` on this stack and every process below it (the language host and the
 * dynamic-provider plugin): what a killed CI job loses. Killing the CLI alone would orphan the
 * plugin, which then lives on after the test.
 */
function upProcessTree(stackName: string): { pid: number; args: string }[] {
  const table = processTable();
  const tree = table.filter((p) => / up /.test(p.args) && p.args.includes(`--stack ${stackName} `) && /pulumi/.test(p.args));
  for (let i = 0; i < tree.length; i++) for (const p of table) if (p.ppid === tree[i]!.pid && !tree.includes(p)) tree.push(p);
  return tree;
}

/** Those of `pids` still running (a zombie waiting for its parent counts as gone). */
function stillRunning(pids: number[]): number[] {
  return processTable().filter((p) => pids.includes(p.pid) && !p.state.startsWith("Z")).map((p) => p.pid);
}

/**
 * The file backend (gocloud's fileblob) writes a checkpoint as: new content to a temp file, then
 * the metadata sidecar `<stack>.json.attrs`, then a rename over `<stack>.json`. A kill between
 * creating the sidecar and writing it leaves a 0-byte sidecar, and every later read of the
 * checkpoint fails with "failed to load checkpoint: EOF", although `<stack>.json` itself (the
 * previous checkpoint, since the rename never happened) is whole. The README's step: delete a
 * sidecar that is not valid JSON. True when it deleted one.
 */
function dropBrokenSidecar(ts: TestStack): boolean {
  const attrs = `${ts.checkpoint}.attrs`;
  try {
    JSON.parse(readFileSync(attrs, "utf8"));
    return false;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    rmSync(attrs);
    return true;
  }
}

/** `pulumi refresh --clear-pending-creates`, with the README's sidecar step when the CLI needs it. */
async function refreshAfterKill(ts: TestStack, killAt: number): Promise<void> {
  try {
    await ts.stack.refresh({ clearPendingCreates: true });
  } catch (err) {
    if (!/failed to load checkpoint/.test(String(err)) || !dropBrokenSidecar(ts)) {
      const stacksDir = path.dirname(ts.checkpoint);
      const files = readdirSync(stacksDir).map((f) => `${f}: ${statSync(path.join(stacksDir, f)).size} bytes`).join(", ");
      throw new Error(`refresh failed after the kill at ${killAt} (${files}): ${String(err)}`);
    }
    // The lock release may have failed on the same unreadable checkpoint.
    await ts.stack.cancel().catch(() => undefined);
    await ts.stack.refresh({ clearPendingCreates: true });
  }
}

describe("SIGKILL during up, then recovery", () => {
  const { emu, stack } = useStack();

  it.each(KILL_POINTS)("killed after %i creations: refresh --clear-pending-creates, then up with adopt, converges with no duplicate", async (killAt) => {
    await emu.api("POST", "/__emulator/reset");
    await seedScaleService(emu, Math.ceil(N / 4));
    // Latency keeps creations in flight when the kill lands.
    await emu.api("POST", "/__emulator/faults", { latencyMs: [20, 60] });
    const stackName = `interrupt-${killAt}`;
    let adopt = false;
    const ts = await stack({
      stackName,
      program: async () => scaleProgram(N, { adopt })(),
    });
    let created = 0;
    let killed = false;
    let victims: { pid: number; args: string }[] = [];
    const up = ts.stack.up({
      onEvent: (e) => {
        if (e.resOutputsEvent && e.resOutputsEvent.metadata.op === "create") created++;
        if (!killed && created >= killAt) {
          killed = true;
          victims = upProcessTree(stackName);
          for (const p of victims) process.kill(p.pid, "SIGKILL");
        }
      },
    });
    await expect(up).rejects.toThrow();
    expect(killed).toBe(true);
    // The CLI, the language host and the provider plugin all went down.
    expect(victims.some((p) => p.args.includes("dynamic-provider"))).toBe(true);
    await expect.poll(() => stillRunning(victims.map((p) => p.pid)), { timeout: 5000 }).toEqual([]);
    await emu.api("POST", "/__emulator/faults", {});

    // The recovery the README documents: release the lock the killed process left, drop its
    // pending creates from the state, then up with adopt: true.
    await ts.stack.cancel().catch(() => undefined);
    await refreshAfterKill(ts, killAt);
    adopt = true;
    const recovered = await ts.stack.up();
    expect(recovered.summary.result).toBe("succeeded");
    await expectExactlyDeclared(emu, N);
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
    await ts.stack.destroy();
  });

  it("a checkpoint whose metadata sidecar is empty: the CLI fails with EOF, and deleting the sidecar recovers it whole", async () => {
    await emu.api("POST", "/__emulator/reset");
    await seedScaleService(emu, 1);
    const ts = await stack({
      stackName: "sidecar",
      program: async () => scaleProgram(4)(),
    });
    await ts.stack.up();
    // What a kill between creating the sidecar and writing it leaves behind.
    truncateSync(`${ts.checkpoint}.attrs`, 0);
    await expect(ts.stack.refresh()).rejects.toThrow(/failed to load checkpoint: EOF/);
    expect(dropBrokenSidecar(ts)).toBe(true);
    expect(dropBrokenSidecar(ts)).toBe(false);
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
    expect((await ts.stack.exportStack()).deployment.resources.filter((r: { type: string }) => r.type.startsWith("pulumi-nodejs:dynamic"))).toHaveLength(4);
    await ts.stack.destroy();
    await expectExactlyDeclared(emu, 0);
  });
});
