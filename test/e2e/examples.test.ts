/**
 * Each example under examples/ runs against the emulator: a copy of its project directory (its
 * Pulumi.yaml and Pulumi.<stack>.yaml config), its compiled program run inline by the real CLI.
 * Each starts on an empty environment, as a reader's first run does, and its first `up` warns
 * about nothing (the engine's warning diagnostics).
 */
import { execFile, execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type * as automation from "@pulumi/pulumi/automation";
import type * as ts from "typescript";
import type * as ProjectModule from "../../export/project";
import { editWorkflowByHand, linkProjectDir, localStack, serviceApi } from "../../scripts/workspace";
import { API_KEY, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { nativeRequire, previewDiffs, ROOT, warningsOf } from "../helpers/pulumi";
import { ensureActionlint, lintWorkflow as lint, NO_SHELLCHECK, runLinter, shellcheck } from "../helpers/actionlint";

const DEV_KEY = "example-dev-key";
const PROD_KEY = "example-prod-key";
const GITOPS_KEY = "example-gitops-key";

let emu: TestEmulator;
const dirs: string[] = [];

beforeAll(async () => {
  emu = await startTestEmulator({ apiKeys: [API_KEY, `${DEV_KEY}=development`, `${PROD_KEY}=production`, `${GITOPS_KEY}=gitops`] });
});
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await emu?.close();
});

/** A copy of examples/<name> in a temp directory, linked to this package as a user's install would be. */
function copyExample(name: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `notify-example-${name}-`));
  dirs.push(dir);
  cpSync(path.join(ROOT, "examples", name), dir, { recursive: true });
  linkProjectDir(dir);
  return dir;
}

/** A stack of the example in `dir`, running its compiled program module (or `program`). */
async function exampleStack(name: string, dir: string, stackName: string, entry: string, env?: Record<string, string>, program?: () => Record<string, unknown>) {
  const projectName = (parseYaml(readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")) as { name: string }).name;
  const mod = nativeRequire(path.join(ROOT, "dist/examples", name, "program.js")) as Record<string, () => unknown>;
  const run = async () => (program ? program() : mod[entry]!() as Record<string, unknown>);
  return localStack({ dir, projectName, stackName, program: run, env });
}

/**
 * The program of the example copied to `dir` as its files are now (a job or the test may have
 * rewritten them), transpiled into `dir`/.build and loaded afresh on each call: its declarations
 * run when their module loads, so a cached module would declare nothing on the next run.
 */
function copiedProgram(dir: string, entry: string): () => Record<string, unknown> {
  const typescript = nativeRequire("typescript") as typeof ts;
  const out = path.join(dir, ".build");
  return () => {
    mkdirSync(out, { recursive: true });
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".ts"))) {
      const js = path.join(out, f.replace(/\.ts$/, ".js"));
      const compilerOptions = { module: typescript.ModuleKind.CommonJS, target: typescript.ScriptTarget.ES2022, esModuleInterop: true };
      writeFileSync(js, typescript.transpileModule(readFileSync(path.join(dir, f), "utf8"), { compilerOptions }).outputText);
      delete nativeRequire.cache[js];
    }
    return (nativeRequire(path.join(out, "program.js")) as Record<string, () => Record<string, unknown>>)[entry]!();
  };
}

/** Runs a command without blocking the event loop (the emulator answers in this process). */
function runAsync(file: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { ...opts, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

const outputsOf = (r: automation.UpResult) => Object.fromEntries(Object.entries(r.outputs).map(([k, v]) => [k, v.value]));

/** `stack.up(opts)`, with the engine's warning diagnostics of the update. */
async function upWithWarnings(stack: automation.Stack, opts: automation.UpOptions = {}) {
  const events: automation.EngineEvent[] = [];
  const up = await stack.up({ ...opts, onEvent: (e) => events.push(e) });
  return { up, warnings: warningsOf(events) };
}

describe("examples/quickstart", () => {
  it("creates an email integration and a welcome workflow with no warning, then has nothing to change", async () => {
    const dir = copyExample("quickstart");
    const stack = await exampleStack("quickstart", dir, "dev", "quickstart");
    await stack.setAllConfig({
      "notify:apiUrl": { value: emu.url },
      "notify:apiKey": { value: DEV_KEY, secret: true },
      sendgridApiKey: { value: "SG.quickstart-secret", secret: true },
    });
    const { up, warnings } = await upWithWarnings(stack);
    expect(up.summary.resourceChanges).toMatchObject({ create: 3 });
    expect(warnings).toEqual([]);
    expect(outputsOf(up)).toMatchObject({ workflowId: "welcome", workflowStatus: "ACTIVE", steps: ["email (email)", "wait (delay)", "tips (email)"] });
    const dev = serviceApi(emu.url, DEV_KEY);
    const integrations = (await dev("GET", "/v1/integrations")) as { identifier: string; primary: boolean }[];
    expect(integrations.filter((i) => i.identifier === "sendgrid")).toMatchObject([{ primary: true }]);
    const again = await stack.preview({ refresh: true, expectNoChanges: true });
    expect(again.changeSummary.same).toBe(3);
    await stack.destroy();
    expect(((await dev("GET", "/v1/integrations")) as { identifier: string; deleted: boolean }[]).some((i) => i.identifier === "sendgrid" && !i.deleted)).toBe(false);
  });
});

describe("examples/multi-environment", () => {
  it("runs dev and prod from their own config with no warning, then promotes a workflow version from dev to prod", async () => {
    const dir = copyExample("multi-environment");
    const stacks: Record<string, automation.Stack> = {};
    for (const [name, key] of [["dev", DEV_KEY], ["prod", PROD_KEY]] as const) {
      stacks[name] = await exampleStack("multi-environment", dir, name, "environment");
      await stacks[name]!.setAllConfig({
        "notify:apiUrl": { value: emu.url },
        "notify:apiKey": { value: key, secret: true },
        sendgridApiKey: { value: `SG.${name}-secret`, secret: true },
        ...(name === "prod" ? { twilioToken: { value: "prod-twilio-token", secret: true } } : {}),
      });
    }
    const { up: devUp, warnings: devWarnings } = await upWithWarnings(stacks.dev!);
    const { up: prodUp, warnings: prodWarnings } = await upWithWarnings(stacks.prod!);
    expect({ dev: devWarnings, prod: prodWarnings }).toEqual({ dev: [], prod: [] });
    expect(outputsOf(devUp)).toEqual({ environment: "dev", smsEnabled: false, workflows: { welcome: "v1 (ACTIVE)", "order-shipped": "v2 (ACTIVE)" } });
    expect(outputsOf(prodUp)).toEqual({ environment: "prod", smsEnabled: true, workflows: { welcome: "v1 (ACTIVE)", "order-shipped": "v1 (ACTIVE)" } });

    // Each stack wrote to its own environment, with its own settings.
    const dev = serviceApi(emu.url, DEV_KEY);
    const prod = serviceApi(emu.url, PROD_KEY);
    // The integrations list covers the organisation: keep each environment's own.
    const channels = async (env: string) => ((await dev("GET", "/v1/integrations")) as { identifier: string; channel: string; _environmentId: string; deleted: boolean }[])
      .filter((i) => i._environmentId === env && !i.deleted).map((i) => `${i.channel}:${i.identifier}`).sort();
    expect(await channels("env_development")).toEqual(["email:email-main"]);
    expect(await channels("env_production")).toEqual(["email:email-main", "sms:sms-main"]);
    const steps = async (api: typeof dev) => ((await api("GET", "/v2/workflows/order-shipped")) as { steps: { name: string; type: string; controlValues: unknown }[] }).steps
      .map((s) => ({ name: s.name, type: s.type, controlValues: s.controlValues }));
    expect((await steps(prod)).map((s) => s.type)).toEqual(["email"]);

    // The promotion is a reviewed change to Pulumi.prod.yaml: order-shipped goes from v1 to v2.
    const prodFile = path.join(dir, "Pulumi.prod.yaml");
    const text = readFileSync(prodFile, "utf8");
    expect(text).toMatch(/order-shipped: v1/);
    writeFileSync(prodFile, text.replace("order-shipped: v1", "order-shipped: v2"));
    const plan = await previewDiffs(stacks.prod!);
    expect(plan.diffs).toEqual({ "order-shipped": { op: "update", keys: ["steps", "tags"] } });
    const { up: promoted, warnings: promotedWarnings } = await upWithWarnings(stacks.prod!);
    expect(promoted.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(promotedWarnings).toEqual([]);
    expect(await steps(prod)).toEqual(await steps(dev));
    await stacks.prod!.preview({ expectNoChanges: true });
    await stacks.dev!.preview({ expectNoChanges: true });

    // A release that names an unknown version fails at preview, naming the key and the choices.
    writeFileSync(prodFile, readFileSync(prodFile, "utf8").replace("order-shipped: v2", "order-shipped: v9"));
    await expect(stacks.prod!.preview()).rejects.toThrow(/config releases\.order-shipped: "v9" is not a version of it; known: v1, v2/);

    await stacks.dev!.destroy();
    await stacks.prod!.destroy();
    expect(await channels("env_development")).toEqual([]);
    expect(await channels("env_production")).toEqual([]);
  });
});

describe("examples/gitops", () => {
  const dirOf = () => path.join(ROOT, "examples/gitops");
  const { RENDERERS } = nativeRequire("pulumi-notify/dist/export/project") as typeof ProjectModule;
  /** The file notify-export owns in a TypeScript project, which the pull job rewrites. */
  const owned = RENDERERS.typescript.ownedFile;
  const bins = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string> }).bin;
  /** The arguments a job's `npx <bin> ...` step passes to the package's bin. */
  const npxArgs = (job: Job, bin: string) => {
    const steps = job.steps.filter((s) => s.run?.startsWith(`npx ${bin} `));
    expect(steps).toHaveLength(1);
    return steps[0]!.run!.trim().split(/\s+/).slice(2);
  };
  const stepIndex = (job: Job, match: (s: Step) => boolean) => {
    const i = job.steps.findIndex(match);
    expect(i).toBeGreaterThanOrEqual(0);
    return i;
  };
  type Step = { uses?: string; run?: string; id?: string; if?: string; with?: Record<string, unknown>; env?: Record<string, string> };
  type Job = { if?: string; steps: Step[]; permissions?: Record<string, string> };
  const workflow = () => parseYaml(readFileSync(path.join(dirOf(), ".github/workflows/notifications.yml"), "utf8")) as {
    on: Record<string, any>; env: Record<string, string>; jobs: Record<string, Job>;
  };
  const pulumiStep = (job: Job) => {
    const steps = job.steps.filter((s) => s.uses?.startsWith("pulumi/actions@"));
    expect(steps).toHaveLength(1);
    return steps[0]!;
  };

  it("previews on pull requests, runs up on main, and checks for drift on a schedule with --expect-no-changes", () => {
    const wf = workflow();
    expect(Object.keys(wf.on).sort()).toEqual(["pull_request", "push", "schedule", "workflow_dispatch"]);
    expect(wf.on.push.branches).toEqual(["main"]);
    expect(wf.on.schedule[0].cron).toMatch(/^\S+ \S+ \S+ \S+ \S+$/);
    expect(wf.env).toMatchObject({ NOTIFY_API_KEY: "${{ secrets.NOTIFY_API_KEY }}", NOTIFY_API_URL: "${{ vars.NOTIFY_API_URL }}" });

    expect(wf.jobs.preview!.if).toBe("github.event_name == 'pull_request'");
    expect(pulumiStep(wf.jobs.preview!).with).toMatchObject({ command: "preview", refresh: true, "comment-on-pr": true });
    expect(wf.jobs.up!.if).toContain("refs/heads/main");
    expect(pulumiStep(wf.jobs.up!).with).toMatchObject({ command: "up", refresh: true });
    expect(wf.jobs.drift!.if).toContain("schedule");
    expect(pulumiStep(wf.jobs.drift!).with).toMatchObject({ command: "preview", refresh: true, "expect-no-changes": true });
    const report = wf.jobs.drift!.steps.find((s) => s.run?.includes("drift-issue.sh"));
    expect(report?.if).toContain("failure()");
    expect(wf.jobs.drift!.permissions).toMatchObject({ issues: "write" });
  });

  it("the pull-request job renders the plan's changed steps, uploads them and posts the summary; a scheduled job pulls dashboard edits as a pull request", () => {
    const wf = workflow();
    expect(Object.keys(wf.jobs)).toEqual(expect.arrayContaining(["preview", "pull"]));
    const pr = wf.jobs.preview!;
    expect(pr.permissions).toMatchObject({ "pull-requests": "write" });
    // After the plan: the same plan as JSON, rendered, uploaded, then posted with the artifact's address.
    const at = {
      plan: stepIndex(pr, (s) => s.uses?.startsWith("pulumi/actions@") === true),
      json: stepIndex(pr, (s) => s.run === 'pulumi preview --stack "$STACK" --refresh --json > plan.json'),
      render: stepIndex(pr, (s) => s.run?.startsWith("npx notify-preview ") === true),
      upload: stepIndex(pr, (s) => s.uses?.startsWith("actions/upload-artifact@") === true),
      post: stepIndex(pr, (s) => s.run?.includes("scripts/preview-comment.sh") === true),
    };
    expect(Object.values(at)).toEqual(Object.values(at).slice().sort((a, b) => a - b));
    const args = npxArgs(pr, "notify-preview");
    expect(args.slice(args.indexOf("--changed-from"), args.indexOf("--changed-from") + 2)).toEqual(["--changed-from", "plan.json"]);
    const out = args[args.indexOf("--out") + 1]!;
    const upload = pr.steps[at.upload]!;
    expect(upload.with).toMatchObject({ path: out });
    expect(pr.steps[at.post]!.run).toContain(`${out}/summary.md`);
    expect(pr.steps[at.post]!.env).toMatchObject({ ARTIFACT_URL: `\${{ steps.${upload.id}.outputs.artifact-url }}`, PR_NUMBER: "${{ github.event.pull_request.number }}" });

    const pull = wf.jobs.pull!;
    expect(pull.if).toBe(wf.jobs.drift!.if);
    expect(pull.permissions).toEqual({ contents: "write", "pull-requests": "write" });
    expect(npxArgs(pull, "notify-export")).toEqual(["--update", "."]);
    const open = pull.steps.filter((s) => s.uses?.startsWith("peter-evans/create-pull-request@"));
    expect(open).toHaveLength(1);
    expect(open[0]!.with).toMatchObject({ "add-paths": owned });
    // The example holds an exported declarations file, the one the pull job rewrites.
    expect(readFileSync(path.join(dirOf(), owned), "utf8")).toMatch(/^\/\/ Code generated by notify-export; DO NOT EDIT\.\n(.*\n)?\/\/ notify-export: \{/);
  });

  describe("linters", () => {
    const workflowFile = path.join(dirOf(), ".github/workflows/notifications.yml");
    const scriptFile = path.join(dirOf(), "scripts/drift-issue.sh");
    const scripts = readdirSync(path.join(dirOf(), "scripts")).filter((f) => f.endsWith(".sh"));
    const noShellcheck = `${NO_SHELLCHECK}; ${scripts.join(", ")} and the workflow's run: blocks were not shellchecked`;
    let actionlint: string;
    beforeAll(() => {
      actionlint = ensureActionlint();
      if (!shellcheck) console.warn(`examples/gitops: ${noShellcheck}`);
    });
    const run = runLinter;
    const lintWorkflow = (file: string) => lint(actionlint, file);
    /** A copy of the workflow in a temp project, with `edit` applied to its text. */
    const brokenWorkflow = (edit: (text: string) => string) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), "notify-gitops-lint-"));
      dirs.push(dir);
      const file = path.join(dir, ".github/workflows/notifications.yml");
      mkdirSync(path.dirname(file), { recursive: true });
      const text = readFileSync(workflowFile, "utf8");
      const edited = edit(text);
      expect(edited).not.toBe(text);
      writeFileSync(file, edited);
      return file;
    };

    it("the workflow passes actionlint", () => {
      expect(lintWorkflow(workflowFile)).toEqual({ status: 0, output: "" });
    });

    it("actionlint reports errors in a broken copy of the workflow (the check is real)", () => {
      const file = brokenWorkflow((t) => t
        .replace("stack-name: ${{ env.STACK }}", "stack-name: ${{ foo.bar }}")
        .replace("    runs-on: ubuntu-latest\n    steps:", "    runs-on: ubuntu-latest\n    runs_on: ubuntu-latest\n    steps:"));
      const r = lintWorkflow(file);
      expect(r.status, r.output).toBe(1);
      expect(r.output).toMatch(/undefined variable "foo"/);
      expect(r.output).toMatch(/unexpected key "runs_on" for "job" section/);
    });

    it("actionlint runs shellcheck on the workflow's run: blocks", (ctx) => {
      ctx.skip(!shellcheck, noShellcheck);
      const file = brokenWorkflow((t) => t.replace("        run: scripts/drift-issue.sh", "        run: scripts/drift-issue.sh $RUN_URL"));
      const r = lintWorkflow(file);
      expect(r.status, r.output).toBe(1);
      expect(r.output).toMatch(/shellcheck reported issue in this script: SC2086/);
    });

    it("the scripts pass shellcheck, and a broken copy does not", (ctx) => {
      ctx.skip(!shellcheck, noShellcheck);
      expect(scripts).toContain(path.basename(scriptFile));
      for (const f of scripts) expect(run(shellcheck!, [path.join(dirOf(), "scripts", f)]), f).toEqual({ status: 0, output: "" });
      const dir = mkdtempSync(path.join(os.tmpdir(), "notify-gitops-lint-"));
      dirs.push(dir);
      const broken = path.join(dir, "drift-issue.sh");
      writeFileSync(broken, readFileSync(scriptFile, "utf8").replace('gh issue comment "$existing"', "gh issue comment $existing"));
      const r = run(shellcheck!, [broken]);
      expect(r.status, r.output).toBe(1);
      expect(r.output).toMatch(/SC2086/);
    });
  });

  it("runs the workflow's pulumi steps against the service: preview, up, drift fails the check and opens an issue, up restores; a dashboard edit pulled; a change's previews posted", async () => {
    const wf = workflow();
    const dir = copyExample("gitops");
    // The connection comes from the environment, as in the workflow; nothing secret in the stack's config but provider secrets.
    const connection = { NOTIFY_API_URL: emu.url, NOTIFY_API_KEY: GITOPS_KEY };
    // The copy's own files, run as they are when each job runs: the pull job rewrites one of them.
    const stack = await exampleStack("gitops", dir, "prod", "gitops", connection, copiedProgram(dir, "gitops"));
    await stack.setAllConfig({
      sendgridApiKey: { value: "SG.gitops-secret", secret: true },
      opsSlackWebhook: { value: "https://hooks.slack.example/services/T1/B1/gitops", secret: true },
    });
    // The environment is empty: the program declares all it needs, the ops team's subscriber included.
    const prod = serviceApi(emu.url, GITOPS_KEY);

    /** Runs a job's pulumi/actions step with the options its `with:` block gives. */
    const runJob = async (job: string, onEvent?: (e: automation.EngineEvent) => void) => {
      const w = pulumiStep(wf.jobs[job]!).with!;
      const opts = { refresh: w.refresh === true, diff: w.diff === true };
      if (w.command === "up") return stack.up({ ...opts, onEvent });
      return stack.preview({ ...opts, expectNoChanges: w["expect-no-changes"] === true });
    };

    await emu.clearRequests();
    await runJob("preview");
    expect(await emu.operationRequests()).toEqual([]); // a preview of new resources sends nothing
    const upEvents: automation.EngineEvent[] = [];
    const up = (await runJob("up", (e) => upEvents.push(e))) as automation.UpResult;
    expect(up.summary.resourceChanges).toMatchObject({ create: 6 });
    expect(warningsOf(upEvents)).toEqual([]);
    expect((await prod("GET", "/v2/subscribers/ops-team")).subscriberId).toBe("ops-team");
    // The stack's own part of the exported integration: program.ts adds the credentials the service never shows.
    expect((await emu.state()).integrations.find((i) => i.identifier === "email-main" && i._environmentId === "env_gitops")?.credentials)
      .toMatchObject({ apiKey: "SG.gitops-secret", from: "no-reply@example.com" });
    await runJob("drift"); // nothing changed: the check passes

    // Someone edits the incident workflow in the dashboard.
    await editWorkflowByHand(prod, "incident-opened", (body) => ({ ...body, name: "Incident opened (edited)" }));
    await expect(runJob("drift")).rejects.toThrow(/no changes were expected for preview but changes were proposed/);

    // The failure step opens an issue, or comments on the open one (a stand-in gh records the calls).
    const bin = path.join(dir, "fake-bin");
    const calls = path.join(dir, "gh-calls");
    mkdirSync(bin);
    writeFileSync(path.join(bin, "gh"), [
      "#!/usr/bin/env bash",
      `printf '%s\\037' "$@" >> "${calls}"; printf '\\036' >> "${calls}"`,
      `if [[ "$1 $2" == "issue list" ]]; then cat "${dir}/open-issue" 2>/dev/null || true; fi`,
    ].join("\n") + "\n", { mode: 0o755 });
    const report = () => execFileSync(path.join(dir, "scripts/drift-issue.sh"), {
      encoding: "utf8", env: { PATH: `${bin}:${process.env.PATH}`, STACK: "prod", RUN_URL: "https://github.example/run/1" },
    });
    expect(report()).toContain("opened an issue: Notification drift in stack prod");
    writeFileSync(path.join(dir, "open-issue"), "42\n");
    expect(report()).toContain("commented on issue #42");
    const log = readFileSync(calls, "utf8").split("\x1e").filter(Boolean).map((c) => c.split("\x1f").filter(Boolean));
    expect(log.map((c) => c.slice(0, 2).join(" "))).toEqual(["issue list", "issue create", "issue list", "issue comment"]);
    expect(log[1]!.slice(2, 4)).toEqual(["--title", "Notification drift in stack prod"]);
    expect(log[1]![5]).toContain("https://github.example/run/1");
    expect(log[3]!.slice(2, 4)).toEqual(["42", "--body"]);

    // The next push to main puts the declared state back; the check passes again.
    const restore = (await runJob("up")) as automation.UpResult;
    expect(restore.summary.resourceChanges).toMatchObject({ update: 1 });
    expect((await prod("GET", "/v2/workflows/incident-opened")).name).toBe("Incident opened");
    await runJob("drift");

    // The pull job's command, in the project as the job checks it out.
    const pullJob = () => runAsync(process.execPath, [path.join(ROOT, bins["notify-export"]!), ...npxArgs(wf.jobs.pull!, "notify-export")], { cwd: dir, env: { ...process.env, ...connection } });
    const git = async (...args: string[]) => {
      const r = await runAsync("git", ["-c", "user.name=test", "-c", "user.email=test@example.com", ...args], { cwd: dir });
      expect(r, `git ${args.join(" ")}`).toMatchObject({ code: 0 });
      return r.stdout;
    };
    // The repository's file was exported from another service than this emulator, whose ids its
    // comments name: a first pull makes it this service's, as the repository's first commit.
    expect(await pullJob()).toMatchObject({ code: 0 });
    writeFileSync(path.join(dir, ".gitignore"), ["node_modules/", "state/", "home/", ".build/", "fake-bin/", "gh-calls", "open-issue", "previews/", "plan.jsonl", ""].join("\n"));
    await git("init", "-q");
    await git("add", "-A");
    await git("commit", "-q", "-m", "the example");

    // Content edited in the dashboard: the email's subject. The whole workflow is sent back as
    // the dashboard does, its translation switch included (the emulator's PUT, following the
    // service's, turns it off when the body leaves it out).
    const { isTranslationEnabled } = await prod("GET", "/v2/workflows/incident-opened");
    const emailSubject = async () => ((await prod("GET", "/v2/workflows/incident-opened")).steps as { type: string; controlValues: { subject?: string } }[])
      .find((st) => st.type === "email")!.controlValues.subject!;
    const before = await emailSubject();
    const edited = "Incidents of the last 15 minutes, as the on-call team words it";
    await editWorkflowByHand(prod, "incident-opened", (b) => ({
      ...b, isTranslationEnabled,
      steps: b.steps.map((st: { type: string; controlValues: Record<string, unknown> }) => (st.type === "email" ? { ...st, controlValues: { ...st.controlValues, subject: edited } } : st)),
    }));
    const pulled = await pullJob();
    expect(pulled.code, pulled.stderr).toBe(0);
    // The pull request holds exactly that field: one line of the owned file, nothing else.
    expect(await git("status", "--porcelain")).toBe(` M ${owned}\n`);
    const diff = (await git("diff", "--unified=0", "--no-color")).split("\n").filter((l) => /^[-+](?![-+]{2} )/.test(l));
    expect(diff).toEqual([`-${diff[0]!.slice(1)}`, `+${diff[0]!.slice(1).replace(JSON.stringify(before), JSON.stringify(edited))}`]);
    expect(diff[0]).toContain(JSON.stringify(before));
    // Merged, the program says what the service holds: no drift, nothing to write.
    await stack.preview({ refresh: true, expectNoChanges: true });
    await runJob("drift");
    await git("commit", "-q", "-am", "pull the dashboard's change");

    // A pull request changing the same subject in code: the preview job's plan, then its
    // notify-preview command on that plan. The plan is the engine's event log, which
    // --changed-from reads as it reads `pulumi preview --json` (docs/preview.md): the CLI cannot
    // run this example's program here, the Node.js language host not being installable.
    const proposed = "Incidents in the last quarter hour";
    const ownedPath = path.join(dir, owned);
    writeFileSync(ownedPath, readFileSync(ownedPath, "utf8").replace(JSON.stringify(edited), JSON.stringify(proposed)));
    const events: string[] = [];
    await stack.preview({ refresh: true, onEvent: (e) => events.push(JSON.stringify(e)) });
    writeFileSync(path.join(dir, "plan.jsonl"), `${events.join("\n")}\n`);
    // Screenshots are left out to spare the machine: the rendering test of notify-preview takes them.
    const renderArgs = npxArgs(wf.jobs.preview!, "notify-preview").map((a) => (a === "plan.json" ? "plan.jsonl" : a));
    const rendered = await runAsync(process.execPath, [path.join(ROOT, bins["notify-preview"]!), ...renderArgs, "--no-screenshots"], { cwd: dir, env: { ...process.env, ...connection } });
    expect(rendered.code, rendered.stderr).toBe(0);
    const out = renderArgs[renderArgs.indexOf("--out") + 1]!;
    const summary = readFileSync(path.join(dir, out, "summary.md"), "utf8");
    expect(summary).toContain(edited);
    expect(summary).toContain(proposed);

    // The post step: a comment the first time, the same comment edited on the next push (a stand-in gh records the calls).
    const comments = path.join(dir, "pr-comments");
    writeFileSync(path.join(bin, "gh"), [
      "#!/usr/bin/env bash",
      `printf '%s\\037' "$@" >> "${comments}"; printf '\\036' >> "${comments}"`,
      // The comment's body as posted: the file the script names, which it removes on exit.
      `for a in "$@"; do case "$a" in body=@*) cat "\${a#body=@}" > "${dir}/posted-body";; esac; done`,
      `if [[ "$1 $2" == "pr comment" ]]; then cat "$5" > "${dir}/posted-body"; fi`,
      `if [[ "$1" == "api" && "$2" != "--method" ]]; then cat "${dir}/our-comment" 2>/dev/null || true; fi`,
    ].join("\n") + "\n", { mode: 0o755 });
    const postStep = wf.jobs.preview!.steps.find((st) => st.run?.includes("scripts/preview-comment.sh"))!;
    const post = () => execFileSync("bash", ["-c", postStep.run!], {
      cwd: dir, encoding: "utf8",
      env: { PATH: `${bin}:${process.env.PATH}`, STACK: "prod", PR_NUMBER: "7", ARTIFACT_URL: "https://github.example/run/2/artifacts/9" },
    });
    expect(post()).toContain("commented on pull request #7");
    const firstBody = readFileSync(path.join(dir, "posted-body"), "utf8");
    expect(firstBody.split("\n")[0]).toBe("<!-- notify-preview: prod -->");
    expect(firstBody.split("\n").slice(0, 3).join("\n")).toContain("https://github.example/run/2/artifacts/9");
    expect(firstBody.endsWith(summary)).toBe(true);
    writeFileSync(path.join(dir, "our-comment"), "1234\n");
    expect(post()).toContain("updated comment 1234 on pull request #7");
    expect(readFileSync(path.join(dir, "posted-body"), "utf8")).toBe(firstBody);
    const commentCalls = readFileSync(comments, "utf8").split("\x1e").filter(Boolean).map((c) => c.split("\x1f").filter(Boolean));
    expect(commentCalls.map((c) => c.slice(0, 2).join(" "))).toEqual(["api repos/{owner}/{repo}/issues/7/comments", "pr comment", "api repos/{owner}/{repo}/issues/7/comments", "api --method"]);
    expect(commentCalls[3]!.slice(2, 4)).toEqual(["PATCH", "repos/{owner}/{repo}/issues/comments/1234"]);
    await stack.destroy();
  });
});
