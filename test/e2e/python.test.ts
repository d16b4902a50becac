/**
 * The generated Python SDK (sdk/python, pulumi_notify) under the real engine: a Python Automation
 * API inline program (test/e2e/python/inline_program.py) declares the three resources and calls
 * getSubscriber through the native plugin, found through the project's `plugins.providers` path,
 * against the emulator, plus an integration in a second environment through an explicit provider:
 * up, a preview with no changes, drift made through the API shown field by field by
 * `preview --refresh` (a changed secret named, its value never printed), up restoring, destroy.
 * The interpreter is the venv of scripts/ensure-python-venv (pulumi==<pinned version> from PyPI on first use, and sdk/python
 * installed with pip); no Python language host is needed for an inline program. Skipped, saying
 * so, when python3 is missing.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/pulumi";
import { API_KEY, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { hasPython, pythonProjectDir, runPython, venvPython, type PythonOp } from "../helpers/python";
import { checkpointFile } from "../../scripts/workspace";

const SENDGRID_KEY = "SG.python-secret-sendgrid-key"; // as in inline_program.py
const SLACK_HOOK = "https://hooks.slack.example/services/T000/B000/python-hook"; // as in inline_program.py
const SECOND_KEY = "python-second-environment-key";
const CHANGED_KEY = "SG.changed-by-hand-in-the-dashboard";
const CHANGED_HOOK = "https://hooks.slack.example/changed-by-hand";
const PROGRAM = path.join(ROOT, "test/e2e/python/inline_program.py");

describe.skipIf(!hasPython("test/e2e/python.test.ts"))("a Python inline program on the generated SDK and the native plugin", () => {
  let emu: TestEmulator;
  let dir: string;
  let python: string;

  const run = (op: PythonOp) => runPython(python, PROGRAM, op, dir, { config: emu.stackConfig(), second: { url: emu.url, key: SECOND_KEY } });

  beforeAll(async () => {
    python = venvPython();
    // Two environments (a key each); credentials shown in responses, so drift in them can be made and seen.
    emu = await startTestEmulator({ apiKeys: [`${API_KEY}=first`, `${SECOND_KEY}=second`], hideCredentials: false });
    await emu.api("POST", "/v2/subscribers", { subscriberId: "alice", firstName: "Alice" });
    dir = pythonProjectDir("notify-python");
  });
  afterAll(async () => {
    await emu?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The live (not deleted) integrations of an environment. */
  const integrationsOf = async (env: string) => (await emu.state()).integrations.filter((i) => i._environmentId === `env_${env}` && !i.deleted);

  it("up creates the three resources through the SDK's classes, serves the SDK's invoke, and keeps secrets secret", async () => {
    const up = await run("up");
    expect(up.changes).toEqual({ create: 7 }); // the stack, five resources, and the explicit provider (the summary leaves default providers out)
    const first = await integrationsOf("first");
    const integ = first.find((i) => i.identifier === "py-sendgrid");
    expect(integ).toMatchObject({ name: "SendGrid (Python)", providerId: "sendgrid", channel: "email", active: true });
    expect(integ.credentials.apiKey).toBe(SENDGRID_KEY);
    expect(first.map((i) => i.identifier).sort()).toEqual(["py-sendgrid", "py-slack"]);
    const state = await emu.state();
    expect(state.workflows.map((w) => [w.workflowId, w._environmentId])).toEqual([["py-welcome", "env_first"]]);
    expect(state.subscribers.find((x) => x.subscriberId === "alice").channels[0].credentials.webhookUrl).toBe(SLACK_HOOK);
    expect(up.outputs.id.value).toBe(integ._id);
    expect(up.outputs.integrationId.value).toBe(integ._id);
    expect(up.outputs.identifier).toEqual({ value: "py-sendgrid", secret: false });
    expect(up.outputs.channel.value).toBe("email");
    expect(up.outputs.credentials.secret).toBe(true);
    expect(up.outputs.stepIds.value).toEqual(["inbox", "email"]);
    expect(up.outputs.credId.value).toBe("alice/slack/py-slack");
    expect(up.outputs.aliceName.value).toBe("Alice");
    // The explicit provider's integration is in the second environment, and only there.
    const second = await integrationsOf("second");
    expect(second.map((i) => [i.identifier, i.name])).toEqual([["py-sendgrid", "SendGrid (second environment)"]]);
    expect(up.outputs.secondEnvironmentId.value).toBe("env_second");
    const file = checkpointFile(dir, "notify-python", "test");
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, "utf8");
    expect(text).toContain("notify:index:Integration");
    for (const secret of [SENDGRID_KEY, SLACK_HOOK, SECOND_KEY, API_KEY]) expect(text).not.toContain(secret);
  });

  it("a second preview has no changes", async () => {
    const preview = await run("preview");
    expect(Object.keys(preview.changes)).toEqual(["same"]);
  });

  it("preview --refresh shows drift made through the API field by field, a changed secret named and never printed", async () => {
    const integ = (await integrationsOf("first")).find((i) => i.identifier === "py-sendgrid");
    expect((await emu.api("PUT", `/v1/integrations/${integ._id}`, { name: "Renamed by hand", credentials: { apiKey: CHANGED_KEY, from: "no-reply@example.com" } })).status).toBe(200);
    expect((await emu.api("PUT", "/v1/subscribers/alice/credentials", { providerId: "slack", integrationIdentifier: "py-slack", credentials: { webhookUrl: CHANGED_HOOK } })).status).toBeLessThan(300);
    const other = (await integrationsOf("second"))[0];
    expect((await emu.apiAs(SECOND_KEY, "PUT", `/v1/integrations/${other._id}`, { name: "Renamed in the second environment" })).status).toBe(200);

    const preview = await run("preview-refresh");
    expect(preview.diffs).toEqual({
      sendgrid: { op: "update", detailed: { name: "update", credentials: "update" } },
      "alice-slack": { op: "update", detailed: { credentials: "update" } },
      "second-sendgrid": { op: "update", detailed: { name: "update" } },
    });
    expect(preview.changes).toMatchObject({ update: 3 });
    for (const secret of [CHANGED_KEY, CHANGED_HOOK, SENDGRID_KEY, SLACK_HOOK]) expect(preview.stdout).not.toContain(secret);
    expect(preview.stdout).toContain("Renamed by hand");
  });

  it("up restores what the program declares, in both environments", async () => {
    const up = await run("up-refresh");
    expect(up.changes).toMatchObject({ update: 3 });
    const integ = (await integrationsOf("first")).find((i) => i.identifier === "py-sendgrid");
    expect(integ).toMatchObject({ name: "SendGrid (Python)", credentials: { apiKey: SENDGRID_KEY } });
    expect((await emu.state()).subscribers.find((x) => x.subscriberId === "alice").channels[0].credentials.webhookUrl).toBe(SLACK_HOOK);
    expect((await integrationsOf("second"))[0].name).toBe("SendGrid (second environment)");
    expect(Object.keys((await run("preview")).changes)).toEqual(["same"]);
  });

  it("destroy deletes everything it made, in both environments", async () => {
    const destroy = await run("destroy");
    expect(destroy.changes).toEqual({ delete: 7 });
    expect(await integrationsOf("first")).toEqual([]);
    expect(await integrationsOf("second")).toEqual([]);
    const state = await emu.state();
    expect(state.workflows).toEqual([]);
    expect(state.subscribers.find((x) => x.subscriberId === "alice").channels).toEqual([]);
  });
});
