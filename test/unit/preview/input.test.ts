/**
 * What `notify-preview` reads: the workflows of each file Pulumi writes (a stack export, a
 * `pulumi preview --json` output, an event log), and its bad input, each refused by the bin with
 * the option, the value and what it accepts, before any request.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readChangeSource, workflowsOfState } from "../../../preview/sources";
import { ROOT } from "../../helpers/pulumi";

const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { bin: Record<string, string> };
const BIN = path.join(ROOT, pkg.bin["notify-preview"]!);

const steps = [{ name: "Email", stepId: "email", type: "email", controlValues: { subject: "S", body: "B" } }];
const dynamic = (inputs: object) => ({ type: "pulumi-nodejs:dynamic/notify:Workflow", inputs: { __provider: "exports.handler = ...", ...inputs } });
const native = (inputs: object) => ({ type: "notify:index:Workflow", inputs });

describe("the files notify-preview reads", () => {
  it("finds the workflows of a stack export with either front end, and nothing else", () => {
    const state = { version: 3, deployment: { resources: [
      { type: "pulumi:pulumi:Stack", inputs: {} }, dynamic({ workflowId: "a", steps }), native({ workflowId: "b", steps: [] }),
      { type: "pulumi-nodejs:dynamic/notify:Layout", inputs: { layoutId: "l" } },
    ] } };
    expect(workflowsOfState(state)).toEqual([{ workflowId: "a", steps }, { workflowId: "b", steps: [] }]);
    expect(readChangeSource(JSON.stringify(state))).toEqual({ kind: "state", workflows: workflowsOfState(state) });
  });

  // `pulumi preview --json`: {steps: [{op, urn, oldState?, newState?}]}, each state a resource with
  // its type and inputs; unchanged resources are "same" steps.
  it("finds the workflows a `pulumi preview --json` output changes: the new steps, none for a delete", () => {
    const changed = [{ ...steps[0]!, controlValues: { subject: "T", body: "B" } }];
    const preview = { steps: [
      { op: "same", oldState: dynamic({ workflowId: "same", steps }), newState: dynamic({ workflowId: "same", steps }) },
      { op: "update", oldState: dynamic({ workflowId: "upd", steps }), newState: dynamic({ workflowId: "upd", steps: changed }) },
      { op: "create", newState: native({ workflowId: "new", steps }) },
      { op: "delete", oldState: native({ workflowId: "gone", steps }) },
    ] };
    expect(readChangeSource(JSON.stringify(preview))).toEqual({
      kind: "plan", workflows: [{ workflowId: "upd", steps: changed }, { workflowId: "new", steps }, { workflowId: "gone" }],
    });
  });

  it("finds the workflows an event log's resource pre-events change", () => {
    const lines = [
      { sequence: 1, timestamp: 1, preludeEvent: { config: {} } },
      { sequence: 2, timestamp: 1, resourcePreEvent: { metadata: { op: "update", urn: "u", type: "notify:index:Workflow", old: { inputs: { workflowId: "w", steps } }, new: { inputs: { workflowId: "w", steps: [] } } } } },
    ].map((l) => JSON.stringify(l)).join("\n");
    expect(readChangeSource(lines)).toEqual({ kind: "plan", workflows: [{ workflowId: "w", steps: [] }] });
  });

  it("refuses a file that is none of them, naming the three it reads", () => {
    expect(() => readChangeSource("hello")).toThrow("not a `pulumi stack export` file, a `pulumi preview --json` output or a `pulumi preview --event-log` file");
  });
});

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
