/**
 * examples/two-environments under the real engine, through the native plugin: one stack creates a
 * Staging environment, builds an explicit provider from the API key the service gave it, and
 * declares a workflow and an integration inside it, beside an integration of the default
 * provider's environment. Up, a preview with no changes, drift in each environment shown by
 * `preview --refresh` and repaired, destroy; nothing crosses between the environments, and no key
 * is stored in clear. The first up, on empty environments as a reader's is, warns about nothing.
 */
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT } from "../helpers/pulumi";
import { API_KEY, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { hasPython, pythonProjectDir, runPython, venvPython, type PythonOp } from "../helpers/python";
import { checkpointFile } from "../../scripts/workspace";

const EXAMPLE = path.join(ROOT, "examples/two-environments");
const RUNNER = path.join(ROOT, "test/e2e/python/run_example.py");
const PROJECT = (parse(readFileSync(path.join(EXAMPLE, "Pulumi.yaml"), "utf8")) as { name: string }).name;
const SENDGRID_KEY = "SG.two-environments-key";

describe.skipIf(!hasPython("test/e2e/twoEnvironments.test.ts"))("one stack, two environments (examples/two-environments)", () => {
  let emu: TestEmulator;
  let dir: string;
  let python: string;
  const run = (op: PythonOp) => runPython(python, RUNNER, op, dir, {
    example: EXAMPLE, projectName: PROJECT,
    config: { ...emu.stackConfig(), [`${PROJECT}:sendgridKey`]: { value: SENDGRID_KEY, secret: true } },
  });

  beforeAll(async () => {
    python = venvPython();
    emu = await startTestEmulator({ apiKeys: [`${API_KEY}=main`], hideCredentials: false });
    dir = pythonProjectDir(PROJECT);
  });
  afterAll(async () => {
    await emu?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const staging = async () => (await emu.state() as any).environments.find((e: { name: string }) => e.name === "Staging");
  const live = async (env: string) => {
    const s = await emu.state();
    return {
      integrations: s.integrations.filter((i) => i._environmentId === env && !i.deleted).map((i) => i.name).sort(),
      workflows: s.workflows.filter((w) => w._environmentId === env).map((w) => w.workflowId),
    };
  };
  /** A raw request with the Staging environment's own key. */
  const asStaging = async (method: string, p: string, body?: unknown) => emu.apiAs((await staging()).apiKeys[0].key, method, p, body);

  it("up creates the environment, a provider from its key, and the objects inside it, each in its own environment, with no warning", async () => {
    const up = await run("up");
    // The stack, the main integration, the environment, the explicit provider, and the two objects in Staging.
    expect(up.changes).toEqual({ create: 6 });
    expect(up.warnings).toEqual([]);
    const env = await staging();
    expect(env).toBeDefined();
    expect(up.outputs.stagingEnvironmentId.value).toBe(env._id);
    expect(up.outputs.stagingKey.secret).toBe(true);
    expect(up.outputs.stagingKey.value).toBe(env.apiKeys[0].key);
    expect(await live("env_main")).toEqual({ integrations: ["SendGrid"], workflows: [] });
    expect(await live(env._id)).toEqual({ integrations: ["SendGrid (staging)"], workflows: ["welcome"] });
    // The Staging key works against the service and sees its own workflow, active and able to send.
    const welcome = await asStaging("GET", "/v2/workflows/welcome");
    expect(welcome.status).toBe(200);
    expect({ status: welcome.body.status, issues: welcome.body.steps.filter((s: { issues?: unknown }) => s.issues) }).toEqual({ status: "ACTIVE", issues: [] });
    const text = readFileSync(checkpointFile(dir, PROJECT, "test"), "utf8");
    for (const secret of [env.apiKeys[0].key, API_KEY, SENDGRID_KEY]) expect(text).not.toContain(secret);
  });

  it("a second preview has no changes", async () => {
    expect(Object.keys((await run("preview")).changes)).toEqual(["same"]);
  });

  it("drift in either environment shows in preview --refresh on its own resource, and up repairs it", async () => {
    const env = await staging();
    const main = (await emu.state()).integrations.find((i) => i._environmentId === "env_main" && !i.deleted);
    expect((await emu.api("PUT", `/v1/integrations/${main._id}`, { name: "Renamed in main" })).status).toBe(200);
    const stagingInt = (await emu.state()).integrations.find((i) => i._environmentId === env._id && !i.deleted);
    expect((await asStaging("PUT", `/v1/integrations/${stagingInt._id}`, { name: "Renamed in staging" })).status).toBe(200);
    expect((await emu.api("PUT", `/v1/environments/${env._id}`, { color: "#000000" })).status).toBe(200);

    const preview = await run("preview-refresh");
    expect(preview.diffs).toEqual({
      sendgrid: { op: "update", detailed: { name: "update" } },
      "staging-sendgrid": { op: "update", detailed: { name: "update" } },
      staging: { op: "update", detailed: { color: "update" } },
    });
    expect(preview.stdout).not.toContain(env.apiKeys[0].key);

    await run("up-refresh");
    expect(await live("env_main")).toEqual({ integrations: ["SendGrid"], workflows: [] });
    expect(await live(env._id)).toEqual({ integrations: ["SendGrid (staging)"], workflows: ["welcome"] });
    expect((await staging()).color).toBe("#f39c12");
    expect(Object.keys((await run("preview")).changes)).toEqual(["same"]);
  });

  it("destroy removes the objects, the provider and the environment", async () => {
    const env = await staging();
    const destroy = await run("destroy");
    expect(destroy.changes).toEqual({ delete: 6 });
    expect(await staging()).toBeUndefined();
    expect(await live("env_main")).toEqual({ integrations: [], workflows: [] });
    expect(await live(env._id)).toEqual({ integrations: [], workflows: [] });
  });
});
