/**
 * `pulumi import` of objects made through the API, through the native plugin's id-only Read, for
 * each of the three resources; then the program declares them and the next preview is empty.
 *
 * `pulumi import` asks the project's language host for the program's plugins, and the language
 * hosts cannot be had on this machine. The project's runtime is therefore pointed, for the import,
 * at an in-process language server of the Automation API (the engine's `client` runtime with the
 * server's address: pkg/engine/deployment.go in pulumi/pulumi connects to it instead of starting a
 * host), with code generation off. A user with a normal Pulumi install runs plain `pulumi import`.
 */
import { describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import type * as pulumiModule from "@pulumi/pulumi";
import { exportedState, nativeRequire, type TestStack } from "../helpers/pulumi";
import { declare, PLUGINS } from "../helpers/native";
import type { TestEmulator } from "../helpers/emulator";
import { useStack } from "../helpers/stack";

const pulumi = nativeRequire("@pulumi/pulumi") as typeof pulumiModule;
const grpc = nativeRequire("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
const langrpc = nativeRequire("@pulumi/pulumi/proto/language_grpc_pb") as { LanguageRuntimeService: any };
const { LanguageServer } = nativeRequire("@pulumi/pulumi/automation/server") as { LanguageServer: new (program: automation.PulumiFn) => any };

const SLACK_HOOK = "https://hooks.slack.example/services/T000/B000/imported-hook";

/** Runs `pulumi import` for `resources` with the project's runtime pointed at an in-process language server. */
async function pulumiImport(ts: TestStack, program: automation.PulumiFn, resources: automation.ImportResource[]) {
  const server = new grpc.Server();
  server.addService(langrpc.LanguageRuntimeService, new LanguageServer(program));
  const port = await new Promise<number>((resolve, reject) => server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
  const ws = ts.stack.workspace;
  const settings = await ws.projectSettings();
  try {
    await ws.saveProjectSettings({ ...settings, runtime: { name: "client", options: { address: `127.0.0.1:${port}` } }, plugins: PLUGINS } as unknown as automation.ProjectSettings);
    return await ts.stack.import({ resources, generateCode: false, protect: false });
  } finally {
    // Back to the runtime inline programs run under (the Automation API passes its own server then).
    await ws.saveProjectSettings({ ...settings, plugins: PLUGINS } as automation.ProjectSettings);
    server.forceShutdown();
  }
}

describe("pulumi import through the native plugin", () => {
  const made: Record<string, any> = {};

  const seed = async (emu: TestEmulator) => {
    await emu.api("POST", "/v2/subscribers", { subscriberId: "alice", firstName: "Alice" });
    made.integration = (await emu.api("POST", "/v1/integrations", { identifier: "hand-sg", name: "Made by hand", providerId: "sendgrid", channel: "email", active: true })).body;
    made.workflow = (await emu.api("POST", "/v2/workflows", {
      workflowId: "hand-wf", name: "Made by hand", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }],
    })).body;
    await emu.api("POST", "/v1/integrations", { identifier: "hand-slack", providerId: "slack", channel: "chat", active: true });
    const cred = await emu.api("PUT", "/v1/subscribers/alice/credentials", { providerId: "slack", integrationIdentifier: "hand-slack", credentials: { webhookUrl: SLACK_HOOK } });
    expect([made.integration._id, made.workflow._id, cred.status < 300]).not.toContain(undefined);
  };

  /** The program a user writes after the import: what the service holds (the steps without their ids). */
  const program: automation.PulumiFn = async () => {
    const i = made.integration, w = made.workflow;
    declare("Integration", "hand-sg", {
      identifier: "hand-sg", name: "Made by hand", providerId: "sendgrid", channel: "email", kind: "delivery",
      active: true, primary: i.primary, conditions: [], configurations: pulumi.secret({}), environmentId: i._environmentId,
    });
    declare("Workflow", "hand-wf", {
      // As the service made it: created without `active`, a workflow is active with an open payload schema, validated.
      workflowId: "hand-wf", name: "Made by hand", description: "", tags: [], active: w.active, validatePayload: w.validatePayload, payloadSchema: w.payloadSchema,
      isTranslationEnabled: false, severity: "none",
      preferences: w.preferences && { user: w.preferences.user ?? null, workflow: w.preferences.default ?? w.preferences.workflow ?? null },
      steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }],
    });
    declare("SubscriberCredentials", "hand-cred", {
      subscriberId: "alice", providerId: "slack", integrationIdentifier: "hand-slack", credentials: pulumi.secret({ webhookUrl: SLACK_HOOK }),
    });
  };
  // The import points the project at the plugin (pulumiImport).
  const { emu, ts } = useStack({ seed, program });

  it("imports an integration, a workflow and subscriber credentials by id, keeping the credentials secret", async () => {
    const before = (await emu.requests()).length;
    const result = await pulumiImport(ts, program, [
      { type: "notify:index:Integration", name: "hand-sg", id: made.integration._id },
      { type: "notify:index:Workflow", name: "hand-wf", id: made.workflow._id },
      { type: "notify:index:SubscriberCredentials", name: "hand-cred", id: "alice/slack/hand-slack" },
    ]);
    expect(result.summary.result).toBe("succeeded");
    expect(result.summary.resourceChanges?.import).toBe(3);
    // Import only reads: nothing was written to the service.
    const writes = (await emu.requests()).slice(before).filter((r) => r.method !== "GET");
    expect(writes).toEqual([]);
    const state = await exportedState(ts.stack);
    const byName = (n: string) => state.resources.find((r) => String(r.urn).endsWith(`::${n}`)) as { id: string; inputs: Record<string, any>; outputs: Record<string, any> } | undefined;
    expect(byName("hand-sg")?.id).toBe(made.integration._id);
    expect(byName("hand-sg")?.outputs.identifier).toBe("hand-sg");
    expect(byName("hand-wf")?.id).toBe(made.workflow._id);
    expect(byName("hand-wf")?.outputs.steps[0].stepId).toBe(made.workflow.steps[0].stepId);
    expect(byName("hand-cred")?.id).toBe("alice/slack/hand-slack");
    // The inputs are the objects' fields (what `pulumi import` writes into the generated program).
    expect(byName("hand-sg")?.inputs).toMatchObject({ identifier: "hand-sg", name: "Made by hand", providerId: "sendgrid", channel: "email", active: true, kind: "delivery" });
    expect(byName("hand-wf")?.inputs).toMatchObject({ workflowId: "hand-wf", name: "Made by hand", steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "Hi" } }] });
    expect(byName("hand-cred")?.inputs).toMatchObject({ subscriberId: "alice", providerId: "slack", integrationIdentifier: "hand-slack" });
    expect(state.text).not.toContain(SLACK_HOOK);
  });

  it("the program that declares the imported objects previews with no changes, and destroy deletes them", async () => {
    await ts.stack.preview({ expectNoChanges: true });
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
    await ts.stack.destroy();
    const s = await emu.state();
    expect(s.integrations.filter((i) => i.identifier === "hand-sg" && !i.deleted)).toEqual([]);
    expect(s.workflows.filter((w) => w.workflowId === "hand-wf")).toEqual([]);
    expect(s.subscribers.find((x) => x.subscriberId === "alice").channels).toEqual([]);
  });
});
