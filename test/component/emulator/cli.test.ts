/**
 * The `notify-emulator` CLI as a user runs it: the bin from package.json (built, in `dist/`, so
 * this layer builds first), a real child process.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/pulumi";

const pkg = require(path.join(ROOT, "package.json")) as { bin: Record<string, string> };
const BIN = path.join(ROOT, pkg.bin["notify-emulator"]!);

/** Starts the CLI; resolves with the process, its first stdout line and everything printed so far. */
function start(args: string[]): Promise<{ child: ChildProcess; line: string; stdout: () => string }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => { err += d.toString(); });
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve({ child, line: out.slice(0, nl), stdout: () => out });
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

describe("notify-emulator CLI", () => {
  const children: ChildProcess[] = [];
  afterEach(() => { for (const c of children) if (c.exitCode === null) c.kill("SIGKILL"); });

  it("prints its usage for --help and exits 0", () => {
    const r = spawnSync(process.execPath, [BIN, "--help"], { encoding: "utf8" });
    expect(r.status).toBe(0);
    for (const flag of ["--port", "--host", "--api-key", "--mode", "--rate-limit", "--burst", "--state", "--retention-days"]) expect(r.stdout).toContain(flag);
  });

  it("refuses an unknown flag or a bad value, naming it, with exit code 2", () => {
    const unknown = spawnSync(process.execPath, [BIN, "--prot", "1"], { encoding: "utf8" });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("--prot");
    const port = spawnSync(process.execPath, [BIN, "--port", "99999"], { encoding: "utf8" });
    expect(port.status).toBe(2);
    expect(port.stderr).toContain("--port must be an integer from 0 to 65535");
    const mode = spawnSync(process.execPath, [BIN, "--mode", "staging"], { encoding: "utf8" });
    expect(mode.stderr).toContain("--mode must be production or spec");
  });

  it("prints exactly one listening line, serves each key's environment, and stops cleanly on SIGTERM and SIGINT", async () => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const { child, line, stdout } = await start(["--port", "0", "--api-key", "k-dev=dev", "--api-key", "k-prod=prod", "--mode", "spec"]);
      children.push(child);
      expect(line).toMatch(/^notify-emulator listening on http:\/\/127\.0\.0\.1:\d+$/);
      const url = line.slice("notify-emulator listening on ".length);
      const res = await fetch(`${url}/v1/integrations`, {
        method: "POST", headers: { authorization: "ApiKey k-prod", "content-type": "application/json" },
        body: JSON.stringify({ providerId: "sendgrid", channel: "email", identifier: "x" }),
      });
      expect(res.status).toBe(201);
      expect((await res.json() as { _environmentId: string })._environmentId).toBe("env_prod");
      expect((await fetch(`${url}/v1/integrations`, { headers: { authorization: "ApiKey nope" } })).status).toBe(401);
      const done = exited(child);
      child.kill(signal);
      expect(await done).toEqual({ code: 0, signal: null });
      expect(stdout()).toBe(`${line}\n`);
    }
  });

  it("keeps the store across restarts with --state", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "notify-emu-state-"));
    const file = path.join(dir, "state.json");
    try {
      const first = await start(["--port", "0", "--api-key", "k", "--state", file]);
      children.push(first.child);
      const url1 = first.line.split(" ").pop()!;
      await fetch(`${url1}/v2/subscribers`, { method: "POST", headers: { authorization: "ApiKey k", "content-type": "application/json" }, body: JSON.stringify({ subscriberId: "kept" }) });
      const done = exited(first.child);
      first.child.kill("SIGTERM");
      await done;
      expect(existsSync(file)).toBe(true);
      const second = await start(["--port", "0", "--api-key", "k", "--state", file]);
      children.push(second.child);
      const url2 = second.line.split(" ").pop()!;
      const got = await fetch(`${url2}/v2/subscribers/kept`, { headers: { authorization: "ApiKey k" } });
      expect(got.status).toBe(200);
      second.child.kill("SIGTERM");
      await exited(second.child);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
