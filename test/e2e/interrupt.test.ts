/**
 * A killed CI job costs no data: SIGKILL the `pulumi up` process at several points while it
 * creates 50 resources, then run the README's recovery (`pulumi refresh --clear-pending-creates`,
 * then `up` with adopt: true) and check the service holds each declared object exactly once.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestStack, loadPackage } from "../helpers/pulumi";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { expectExactlyDeclared, seedScaleService } from "../helpers/service";

type Programs = typeof import("../../bench/programs");
const { scaleProgram } = loadPackage<Programs>("/dist/bench/programs");
const N = 50;
const KILL_POINTS = (process.env.NOTIFY_KILL_POINTS ?? "3,20,40").split(",").map(Number);

/** PIDs of the CLI running `up` on this stack. */
function upProcesses(stackName: string): number[] {
  const out = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  return out.split("\n").map((l) => l.trim()).filter((l) => / up /.test(l) && l.includes(`--stack ${stackName} `) && /pulumi/.test(l))
    .map((l) => Number(l.split(" ")[0]));
}

describe("SIGKILL during up, then recovery", () => {
  let emu: TestEmulator;
  beforeAll(async () => { emu = await startTestEmulator(); });
  afterAll(async () => { await emu?.close(); });

  it.each(KILL_POINTS)("killed after %i creations: refresh --clear-pending-creates, then up with adopt, converges with no duplicate", async (killAt) => {
    await emu.api("POST", "/__emulator/reset");
    await seedScaleService(emu, Math.ceil(N / 4));
    // Latency keeps creations in flight when the kill lands.
    await emu.api("POST", "/__emulator/faults", { latencyMs: [20, 60] });
    const stackName = `interrupt-${killAt}`;
    let adopt = false;
    const ts = await createTestStack({
      stackName,
      program: async () => scaleProgram(N, { adopt })(),
      config: { "notify:apiUrl": { value: emu.url }, "notify:apiKey": { value: emu.key, secret: true } },
    });
    try {
      let created = 0;
      let killed = false;
      const up = ts.stack.up({
        onEvent: (e) => {
          if (e.resOutputsEvent && e.resOutputsEvent.metadata.op === "create") created++;
          if (!killed && created >= killAt) {
            killed = true;
            for (const pid of upProcesses(stackName)) process.kill(pid, "SIGKILL");
          }
        },
      });
      await expect(up).rejects.toThrow();
      expect(killed).toBe(true);
      await emu.api("POST", "/__emulator/faults", {});

      // The recovery the README documents: release the lock the killed process left, drop its
      // pending creates from the state, then up with adopt: true.
      await ts.stack.cancel().catch(() => undefined);
      // A kill in the middle of a checkpoint write can leave the file backend's state file
      // unreadable; the backend keeps the previous checkpoint beside it as .bak, and the README
      // says to put it in its place.
      const stacksDir = path.join(ts.dir, "state/.pulumi/stacks/notify-test");
      const file = path.join(stacksDir, `${stackName}.json`);
      try {
        await ts.stack.refresh({ clearPendingCreates: true });
      } catch (err) {
        if (!/failed to load checkpoint/.test(String(err))) throw err;
        copyFileSync(`${file}.bak`, file);
        await ts.stack.refresh({ clearPendingCreates: true }).catch((again: unknown) => {
          const files = readdirSync(stacksDir).map((f) => `${f}: ${statSync(path.join(stacksDir, f)).size} bytes`).join(", ");
          throw new Error(`the checkpoint and its .bak are both unreadable after the kill at ${killAt} (${files}): ${String(again)}`);
        });
      }
      adopt = true;
      const recovered = await ts.stack.up();
      expect(recovered.summary.result).toBe("succeeded");
      await expectExactlyDeclared(emu, N);
      await ts.stack.preview({ expectNoChanges: true, refresh: true });
      await ts.stack.destroy();
    } finally {
      await ts.cleanup();
    }
  }, 300_000);
});
