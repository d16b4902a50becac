/** `npm run demo`'s steps, as the README's main job runs them: up, hand-made drift, detection, restore, summary. */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../helpers/pulumi";

it("the demo creates the stack, shows the hand-made drift, restores it and sums up", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "notify-demo-"));
  try {
    const node = path.join(ROOT, "node_modules/node/bin/node");
    const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(node, [path.join(ROOT, "dist/scripts/demo.js")], { env: { ...process.env, NOTIFY_DEMO_DIR: dir }, stdio: ["ignore", "pipe", "pipe"] });
      let text = "";
      child.stdout.on("data", (d: Buffer) => { text += d.toString(); });
      child.stderr.on("data", (d: Buffer) => { text += d.toString(); });
      child.once("exit", (c) => resolve({ code: c, out: text }));
    });
    expect(code, out.slice(-3000)).toBe(0);
    expect(out).toMatch(/▶ emulator listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toMatch(/▶ created \d+ resources/);
    // The count of the up and the summary's agree (neither counts the stack itself).
    expect(/▶ created (\d+) resources/.exec(out)?.[1]).toBe(/resources managed: (\d+)/.exec(out)?.[1]);
    expect(out).toContain("drift found in: sendgrid, welcome");
    expect(out).toContain("the next preview shows no changes");
    expect(out).toContain("pulumi config set --secret notify:apiKey");
    expect(out).not.toContain("SG.demo-key");
    // The engine finds the dynamic-provider plugin beside the CLI, as in a normal install: no warning that it took one from PATH.
    expect(out).not.toContain("from $PATH");
    // The main job's first screen is clean: the engine shows no warning on any step (an in-app step
    // warned on every run without an in-app integration).
    expect(out).not.toMatch(/warning:/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
