/**
 * Each example under examples/ runs against the emulator: a copy of its project directory (its
 * Pulumi.yaml and Pulumi.<stack>.yaml config), its compiled program run inline by the real CLI.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type * as automation from "@pulumi/pulumi/automation";
import { editWorkflowByHand, linkProjectDir, localStack, serviceApi } from "../../scripts/workspace";
import { API_KEY, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { nativeRequire, previewDiffs, ROOT } from "../helpers/pulumi";
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

/** A stack of the example in `dir`, running its compiled program module. */
async function exampleStack(name: string, dir: string, stackName: string, entry: string, env?: Record<string, string>) {
  const projectName = (parseYaml(readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")) as { name: string }).name;
  const mod = nativeRequire(path.join(ROOT, "dist/examples", name, "program.js")) as Record<string, () => unknown>;
  const program = async () => mod[entry]!() as Record<string, unknown>;
  return localStack({ dir, projectName, stackName, program, env });
}

const outputsOf = (r: automation.UpResult) => Object.fromEntries(Object.entries(r.outputs).map(([k, v]) => [k, v.value]));

describe("examples/quickstart", () => {
  it("creates an email integration and a welcome workflow, then has nothing to change", async () => {
    const dir = copyExample("quickstart");
    const stack = await exampleStack("quickstart", dir, "dev", "quickstart");
    await stack.setAllConfig({
      "notify:apiUrl": { value: emu.url },
      "notify:apiKey": { value: DEV_KEY, secret: true },
      sendgridApiKey: { value: "SG.quickstart-secret", secret: true },
    });
    const up = await stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 3 });
    expect(outputsOf(up)).toMatchObject({ workflowId: "welcome", workflowStatus: "ACTIVE", steps: ["inbox (in_app)", "email (email)"] });
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
  it("runs dev and prod from their own config, then promotes a workflow version from dev to prod", async () => {
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
    const devUp = await stacks.dev!.up();
    const prodUp = await stacks.prod!.up();
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
    const promoted = await stacks.prod!.up();
    expect(promoted.summary.resourceChanges).toMatchObject({ update: 1 });
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

  describe("linters", () => {
    const workflowFile = path.join(dirOf(), ".github/workflows/notifications.yml");
    const scriptFile = path.join(dirOf(), "scripts/drift-issue.sh");
    const noShellcheck = `${NO_SHELLCHECK}; drift-issue.sh and the workflow's run: blocks were not shellchecked`;
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

    it("scripts/drift-issue.sh passes shellcheck, and a broken copy does not", (ctx) => {
      ctx.skip(!shellcheck, noShellcheck);
      expect(run(shellcheck!, [scriptFile])).toEqual({ status: 0, output: "" });
      const dir = mkdtempSync(path.join(os.tmpdir(), "notify-gitops-lint-"));
      dirs.push(dir);
      const broken = path.join(dir, "drift-issue.sh");
      writeFileSync(broken, readFileSync(scriptFile, "utf8").replace('gh issue comment "$existing"', "gh issue comment $existing"));
      const r = run(shellcheck!, [broken]);
      expect(r.status, r.output).toBe(1);
      expect(r.output).toMatch(/SC2086/);
    });
  });

  it("runs the workflow's pulumi steps against the service: preview, up, drift fails the check and opens an issue, up restores", async () => {
    const wf = workflow();
    const dir = copyExample("gitops");
    // The connection comes from the environment, as in the workflow; nothing secret in the stack's config but provider secrets.
    const stack = await exampleStack("gitops", dir, "prod", "gitops", { NOTIFY_API_URL: emu.url, NOTIFY_API_KEY: GITOPS_KEY });
    await stack.setAllConfig({
      sendgridApiKey: { value: "SG.gitops-secret", secret: true },
      opsSlackWebhook: { value: "https://hooks.slack.example/services/T1/B1/gitops", secret: true },
    });
    const prod = serviceApi(emu.url, GITOPS_KEY);
    await prod("POST", "/v2/subscribers", { subscriberId: "ops-team", email: "ops@example.com" });

    /** Runs a job's pulumi/actions step with the options its `with:` block gives. */
    const runJob = async (job: string) => {
      const w = pulumiStep(wf.jobs[job]!).with!;
      const opts = { refresh: w.refresh === true, diff: w.diff === true };
      if (w.command === "up") return stack.up(opts);
      return stack.preview({ ...opts, expectNoChanges: w["expect-no-changes"] === true });
    };

    await emu.clearRequests();
    await runJob("preview");
    expect(await emu.requests()).toEqual([]); // a preview of new resources sends nothing
    const up = (await runJob("up")) as automation.UpResult;
    expect(up.summary.resourceChanges).toMatchObject({ create: 5 });
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
    await stack.destroy();
  });
});
