/**
 * `notify-export` given what goes wrong: the bin as a user runs it (a child process of the built
 * package, so the layer builds first) against an emulator in this process, and the function (from
 * source) where the CLI's retry policy would only make it slower.
 * An unreachable service, a wrong key, objects of kinds the exporter does not know, names that
 * collide after mangling, a non-empty output directory; each time nothing half-written. And on
 * success, the next steps it prints (test/unit/export/project.test.ts checks them from source), whose
 * install steps are the ones docs/export.md shows for each language.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportEnvironment } from "../../../export";
import { INSTALL_VARIANTS } from "../../../export/project";
import { ROOT } from "../../helpers/pulumi";
import { API_KEY, startTestEmulator, type TestEmulator } from "../../helpers/emulator";
import { linkProjectDir } from "../../../scripts/workspace";
import { TOOL_SETTINGS } from "../../../provider/cliConnection";
import { refusedKeyHint, UNAUTHORIZED_HINT } from "../../../provider/config";

const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { name: string; version: string; bin: Record<string, string>; files: string[] };
const BIN = path.join(ROOT, pkg.bin["notify-export"]!);

/** Runs the bin; resolves with its exit code and output. */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, NOTIFY_API_URL: "", NOTIFY_API_KEY: "", ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe("notify-export with bad input", () => {
  let emu: TestEmulator;
  const tmp = mkdtempSync(path.join(os.tmpdir(), "notify-export-bad-"));
  const dir = (name: string) => path.join(tmp, name);
  const env = () => ({ NOTIFY_API_URL: emu.url, NOTIFY_API_KEY: API_KEY });

  beforeAll(async () => {
    emu = await startTestEmulator({ apiKeys: [`${API_KEY}=bad`] });
    // Objects of kinds the provider does not model, as production may hold them: a step kind newer
    // than this release, an agent integration (no channel).
    await emu.api("POST", "/__emulator/seed", {
      workflows: [{ workflowId: "agentic", name: "Agentic", steps: [{ name: "Think", type: "ai_agent", controlValues: { model: "x" } }] }],
      integrations: [{ identifier: "agent-runtime", providerId: "novu-agent", kind: "agent", active: true }],
    });
    // Identifiers that collide once made variable names.
    for (const workflowId of ["my-flow", "my_flow", "my.flow"]) {
      expect((await emu.api("POST", "/v2/workflows", { workflowId, name: workflowId, steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }] })).status).toBe(201);
    }
    expect((await emu.api("POST", "/v2/topics", { key: "my:flow", name: "Mine" })).status).toBeLessThan(300);
  });
  afterAll(async () => {
    await emu?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("is a bin of the package, shipped in its files", () => {
    expect(pkg.bin["notify-export"]).toBe("dist/export/cli.js");
    expect(pkg.files).toContain("dist/export");
  });

  it("takes the provider's connection settings as options, each named in --help with its environment variable", async () => {
    const help = await cli(["--help"]);
    for (const s of TOOL_SETTINGS) expect(help.stdout).toContain(s.env);
    expect(help.stdout).toContain("--api-url");
    const r = await cli(["--language", "go", "--out", dir("flags"), "--api-url", emu.url, "--api-key", API_KEY]);
    expect(r.code).toBe(0);
    expect(readdirSync(dir("flags"))).toContain("main.go");
  });

  it("refuses a missing or unknown --language and a dynamic front end for Python, naming what is allowed", async () => {
    const none = await cli(["--out", dir("x")], env());
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("--language must be one of typescript, python, go");
    const bad = await cli(["--language", "ruby", "--out", dir("x")], env());
    expect(bad.stderr).toContain(`got "ruby"`);
    const fe = await cli(["--language", "python", "--front-end", "dynamic", "--out", dir("x")], env());
    expect(fe.code).toBe(1);
    expect(fe.stderr).toContain("only TypeScript programs can use the dynamic front end");
    expect(existsSync(dir("x"))).toBe(false);
  });

  it("without a connection, names both settings and writes nothing", async () => {
    const r = await cli(["--language", "typescript", "--out", dir("noconn")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("NOTIFY_API_URL");
    expect(r.stderr).toContain("NOTIFY_API_KEY");
    expect(existsSync(dir("noconn"))).toBe(false);
  });

  it("with a wrong key, says the service refused it, where the key came from (as the provider's 401 does), and writes nothing", async () => {
    const r = await cli(["--language", "typescript", "--out", dir("wrongkey")], { ...env(), NOTIFY_API_KEY: "not-a-key" });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/401/);
    expect(r.stderr).toContain(refusedKeyHint("the NOTIFY_API_KEY environment variable"));
    expect(r.stderr).not.toContain("not-a-key");
    expect(existsSync(dir("wrongkey"))).toBe(false);
    expect(readdirSync(tmp).filter((f) => f.includes("notify-export"))).toEqual([]);
    // Given as an option, the key is said to come from the option, whatever the variable holds.
    const option = await cli(["--language", "typescript", "--out", dir("wrongkey"), "--api-key", "not-a-key"], env());
    expect(option.code).toBe(1);
    expect(option.stderr).toContain(refusedKeyHint("the --api-key option"));
    expect(option.stderr).not.toContain("NOTIFY_API_KEY");
    // The provider's own 401 opens with the same words.
    expect(UNAUTHORIZED_HINT).toMatch(/^The service refused the API key \(401\)\. The key comes from /);
  });

  it("with an unreachable service, fails with a connection error and writes nothing", async () => {
    const port = await closedPort();
    await expect(exportEnvironment({
      language: "go", out: dir("unreachable"), connection: { apiUrl: `http://127.0.0.1:${port}`, apiKey: API_KEY }, retry: { maxAttempts: 1 },
    })).rejects.toThrow(/127\.0\.0\.1|ECONNREFUSED|connect/i);
    expect(existsSync(dir("unreachable"))).toBe(false);
  });

  it("lists objects of kinds it does not know in the README and on stderr, with a count, and exports the rest", async () => {
    const r = await cli(["--language", "typescript", "--out", dir("unknown")], env());
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/skipped Workflow "agentic": the provider cannot declare it: steps\.0\.type/);
    expect(r.stderr).toMatch(/skipped Integration "agent-runtime": the provider cannot declare it: channel/);
    expect(r.stderr).toMatch(/2 skipped/);
    const readme = readFileSync(path.join(dir("unknown"), "README.md"), "utf8");
    expect(readme).toContain("## Skipped (2)");
    expect(readme).toContain("`Workflow` agentic");
    expect(readFileSync(path.join(dir("unknown"), "notify.generated.ts"), "utf8")).not.toContain("ai_agent");
    // One progress line per kind.
    expect(r.stderr).toMatch(/notify-export: workflows: 4\n/);
  });

  it("gives identifiers that collide after mangling distinct variables, and the program type-checks", async () => {
    const r = await cli(["--language", "typescript", "--out", dir("collide")], env());
    expect(r.code).toBe(0);
    const program = readFileSync(path.join(dir("collide"), "notify.generated.ts"), "utf8");
    const consts = [...program.matchAll(/^export const (\w+) = new notify\.\w+\("([^"]+)"/gm)].map((m) => [m[1], m[2]]);
    expect(consts.filter(([, name]) => /my.flow/.test(name!))).toEqual([["myFlow", "my-flow"], ["myFlow2", "my.flow"], ["myFlow3", "my_flow"], ["myFlow4", "my:flow"]]);
    linkProjectDir(dir("collide"));
    await new Promise<void>((resolve, reject) => execFile(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", dir("collide")],
      (err, stdout) => (err ? reject(new Error(stdout)) : resolve())));
  });

  it("refuses a non-empty output directory unless --force, and keeps it whole when a forced export fails", async () => {
    mkdirSync(dir("full"));
    writeFileSync(path.join(dir("full"), "keep.txt"), "mine");
    const refused = await cli(["--language", "python", "--out", dir("full")], env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("is not empty");
    expect(refused.stderr).toContain("--force");
    // A forced export that fails (wrong key) leaves the directory as it was, and no temp directory.
    const failed = await cli(["--language", "python", "--out", dir("full"), "--force"], { ...env(), NOTIFY_API_KEY: "not-a-key" });
    expect(failed.code).toBe(1);
    expect(readdirSync(dir("full"))).toEqual(["keep.txt"]);
    const forced = await cli(["--language", "python", "--out", dir("full"), "--force"], env());
    expect(forced.code).toBe(0);
    expect(readdirSync(dir("full")).sort()).toEqual([".gitignore", "Pulumi.yaml", "README.md", "__main__.py", "import.json", "notify_generated.py", "requirements.txt"]);
    expect(readdirSync(tmp).filter((f) => f.includes("notify-export"))).toEqual([]);
  });
});

describe("notify-export's output", () => {
  let emu: TestEmulator;
  const tmp = mkdtempSync(path.join(os.tmpdir(), "notify-export-steps-"));
  beforeAll(async () => {
    emu = await startTestEmulator();
    expect((await emu.api("POST", "/v2/topics", { key: "news", name: "News" })).status).toBeLessThan(300);
  });
  afterAll(async () => {
    await emu?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("prints the next steps on stdout, with the address it read from", async () => {
    const out = path.join(tmp, "ts");
    const r = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(process.execPath, [BIN, "--language", "typescript", "--out", out],
        { env: { ...process.env, NOTIFY_API_URL: emu.url, NOTIFY_API_KEY: API_KEY } },
        (err, stdout) => resolve({ code: err ? 1 : 0, stdout }));
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`\ncd ${out}\n`);
    expect(r.stdout).toMatch(/^npm install$/m);
    expect(r.stdout).toContain(`#    npm install /path/to/checkout/dist/release/${pkg.name}-${pkg.version}.tgz @pulumi/pulumi\n`);
    expect(r.stdout).toMatch(/^pulumi stack init \S+$/m);
    expect(r.stdout).toContain(`pulumi config set notify:apiUrl ${emu.url}\n`);
    const declared = (JSON.parse(readFileSync(path.join(out, "import.json"), "utf8")) as { resources: unknown[] }).resources.length;
    expect(r.stdout).toMatch(new RegExp(`^pulumi preview .*"\\+ ${declared + 1} to create"`, "m"));
    expect(r.stdout).not.toContain(API_KEY);
    expect(readFileSync(path.join(out, "README.md"), "utf8")).toContain("## Next steps");
  });

  // One text, both places: docs/export.md shows step 1 for each language as notify-export prints it.
  it("prints the install steps docs/export.md shows for its language, with the package's version", async () => {
    const page = readFileSync(path.join(ROOT, "docs/export.md"), "utf8");
    const block = page.slice(page.indexOf("<!-- Generated by scripts/gen-docs.ts (install steps)"), page.indexOf("<!-- End of the generated install steps. -->"));
    const shown = [...block.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
    expect(shown).toHaveLength(INSTALL_VARIANTS.length);
    for (const [i, { language, frontEnd }] of INSTALL_VARIANTS.entries()) {
      const out = path.join(tmp, `steps-${language}-${frontEnd}`);
      const r = await cli(["--language", language, "--front-end", frontEnd, "--out", out], { NOTIFY_API_URL: emu.url, NOTIFY_API_KEY: API_KEY });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, `${language} ${frontEnd}`).toContain(`\n${shown[i]!.replaceAll("<version>", pkg.version)}`);
      expect(r.stdout).not.toContain("<version>");
    }
  });
});
