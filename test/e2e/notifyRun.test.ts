/**
 * `notify-run`, the runner for a user's own program without a Node.js language host: run as a
 * user runs it (`node .../notify-run <op>` in the project directory, the package installed by
 * name), with a `PATH` that holds the CLI and Node.js but not `@pulumi/pulumi` (notify-run adds
 * it, for the engine's dynamic-provider plugin). up, an empty preview, drift shown by a refreshing
 * preview, repair with `up --refresh`, destroy; and bad arguments refused with the usage.
 */
import { spawn } from "node:child_process";
import { writeFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { cliEnv, makeProjectDir, ROOT } from "../helpers/pulumi";

const RUNNER = path.join(ROOT, "dist/provider/run.js");

describe("notify-run runs the directory's program through the Automation API", () => {
  let emu: TestEmulator;
  let dir: string;
  let env: Record<string, string>;
  // Asynchronous: the emulator serves from this process, so it must not be blocked while the runner works.
  const run = (...args: string[]) => new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [RUNNER, ...args], { cwd: dir, env });
    let out = "";
    child.stdout.on("data", (d: Buffer) => { out += d.toString(); });
    child.stderr.on("data", (d: Buffer) => { out += d.toString(); });
    child.once("exit", (code) => resolve({ code, out }));
  });

  beforeAll(async () => {
    emu = await startTestEmulator();
    dir = makeProjectDir("notify-run-");
    writeFileSync(path.join(dir, "Pulumi.yaml"), `name: notify-run-test\nruntime: nodejs\nbackend:\n  url: file://${path.join(dir, "state")}\n`);
    writeFileSync(path.join(dir, "index.js"), [
      'const notify = require("pulumi-notify");',
      'const topic = new notify.Topic("releases", { key: "releases", name: "Releases" });',
      "exports.topicKey = topic.key;",
      "",
    ].join("\n"));
    const base = cliEnv(dir, { NOTIFY_API_URL: emu.url, NOTIFY_API_KEY: emu.key });
    // Without @pulumi/pulumi on PATH: finding the dynamic-provider plugin is notify-run's job.
    const sdk = path.join(ROOT, "node_modules/@pulumi/pulumi");
    env = { ...process.env as Record<string, string>, ...base, PATH: base.PATH!.split(path.delimiter).filter((p) => p !== sdk).join(path.delimiter) };
  });
  afterAll(async () => {
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("up, preview, drift, up --refresh and destroy", async () => {
    const up = await run("up", "--stack", "dev");
    expect(up.out).toMatch(/created/);
    // The CLI has the dynamic-provider plugin beside it (scripts/ensure-pulumi, as a release archive): notify-run adds no other, and the engine does not warn.
    expect(up.out).not.toContain("from $PATH");
    expect(up.code).toBe(0);
    expect((await emu.state()).topics.map((t: { key: string }) => t.key)).toEqual(["releases"]);

    expect((await run("preview", "--expect-no-changes")).code).toBe(0);

    await emu.api("PATCH", "/v2/topics/releases", { name: "Renamed by hand" });
    const drift = await run("preview", "--refresh", "--expect-no-changes");
    expect(drift.code).toBe(1);
    expect(drift.out).toMatch(/releases/);

    expect((await run("up", "--refresh")).code).toBe(0);
    expect((await emu.state()).topics[0].name).toBe("Releases");

    const destroy = await run("destroy");
    expect(destroy.code).toBe(0);
    expect((await emu.state()).topics).toEqual([]);
  });

  it("refuses an unknown operation or option with the usage", async () => {
    for (const args of [["deploy"], ["up", "--stak", "dev"], []]) {
      const r = await run(...args);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/usage: notify-run <up\|preview\|refresh\|destroy>/);
    }
  });
});
