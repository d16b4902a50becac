/**
 * `notify-preview`'s bad input, each refused by the bin as a user runs it (a child process of the
 * built package, in `dist/`, so this layer builds first) with the option, the value and what it
 * accepts, before any request.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/pulumi";

const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string> };
const BIN = path.join(ROOT, pkg.bin["notify-preview"]!);

describe("notify-preview with bad input", () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "notify-preview-bad-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const cli = (args: string[]) => new Promise<{ code: number; stderr: string }>((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, NOTIFY_API_URL: "", NOTIFY_API_KEY: "" } }, (err, _stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stderr });
    });
  });

  it.each([
    [[], "--out DIR is required"],
    [["--out", "x"], "say what to render: --workflow ID, --state FILE or --changed-from FILE"],
    [["--out", "x", "--workflow", "w", "--browser", "b", "--no-screenshots"], "--browser and --no-screenshots exclude each other"],
  ])("refuses %j with usage", async (args, message) => {
    const r = await cli(args as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`notify-preview: ${message}`);
  });

  it("refuses a payload that is not a JSON object, saying what it got", async () => {
    const file = path.join(tmp, "payload.json");
    writeFileSync(file, "[1, 2]");
    const r = await cli(["--out", tmp, "--workflow", "w", "--payload", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--payload ${file}: must hold a JSON object (the trigger payload), got an array`);
  });

  it("refuses a --changed-from file it cannot read, naming it", async () => {
    const file = path.join(tmp, "notes.txt");
    writeFileSync(file, "not a plan");
    const r = await cli(["--out", tmp, "--changed-from", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--changed-from ${file}: not a \`pulumi stack export\` file`);
  });

  it("says where the connection comes from when there is none", async () => {
    const r = await cli(["--out", tmp, "--workflow", "w", "--no-screenshots"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/notify-preview: pulumi-notify has no connection: set the service address \(.*NOTIFY_API_URL\)/);
  });
});
