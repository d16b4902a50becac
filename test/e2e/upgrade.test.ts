/**
 * State written when the resources still went through `pulumi.dynamic.Resource` (a serialized
 * provider object in `__provider`, which calls each implementation module's `provider` export)
 * keeps working with the one-line `__provider`: no change to plan, refresh reads through it, and
 * destroy removes everything.
 */
import { describe, expect, it } from "vitest";
import type * as pulumi from "@pulumi/pulumi";
import { exportedState, loadPackage, nativeRequire, previewDiffs } from "../helpers/pulumi";
import { useStack } from "../helpers/stack";

type Baseline = typeof import("../../bench/baseline");
const IMPL = "pulumi-notify/dist/provider/resources/";

/** The same three resources in both programs. */
const ARGS = {
  mail: { identifier: "mail", name: "Mail", providerId: "sendgrid", channel: "email" as const, credentials: { apiKey: "SG.k" } },
  welcome: { workflowId: "welcome", name: "Welcome", steps: [{ name: "Inbox", type: "in_app" as const, controlValues: { body: "Hi" } }] },
  "alice-slack": { subscriberId: "alice", providerId: "slack" as const, credentials: { webhookUrl: "https://hooks.slack.example/a" } },
};

/** The resources as `pulumi.dynamic.Resource` registered them: same type, inputs and secrets. */
function legacyProgram(): void {
  const p = nativeRequire("@pulumi/pulumi") as typeof pulumi;
  const { serializableProvider } = nativeRequire("pulumi-notify/dist/bench/baseline") as Baseline;
  const legacy = (kind: string, module: string, name: keyof typeof ARGS, secrets: string[] = []) => {
    const args = ARGS[name] as Record<string, unknown>;
    new p.dynamic.Resource(serializableProvider(IMPL + module), name, {
      ...args, ...Object.fromEntries(secrets.filter((k) => args[k] !== undefined).map((k) => [k, p.secret(args[k])])), declaredKeys: undefined,
    }, { additionalSecretOutputs: secrets }, "notify", kind);
  };
  legacy("Integration", "integration", "mail", ["credentials", "configurations"]);
  legacy("Workflow", "workflow", "welcome");
  legacy("SubscriberCredentials", "subscriberCredentials", "alice-slack", ["credentials"]);
}

function currentProgram(): void {
  const notify = loadPackage();
  new notify.Integration("mail", ARGS.mail);
  new notify.Workflow("welcome", ARGS.welcome);
  new notify.SubscriberCredentials("alice-slack", ARGS["alice-slack"]);
}

describe("state written through pulumi.dynamic.Resource, taken over by the current resources", () => {
  let current = false;
  const { emu, ts } = useStack({
    seed: async (emu) => {
      await emu.api("POST", "/v2/subscribers", { subscriberId: "alice" });
      await emu.api("POST", "/v1/integrations", { identifier: "slack-main", providerId: "slack", channel: "chat", name: "Slack", active: true });
    },
    program: async () => (current ? currentProgram() : legacyProgram()),
  });

  it("plans no change, refreshes through the old __provider, and destroys", async () => {
    expect((await ts.stack.up()).summary.resourceChanges?.create).toBe(4);
    const providers = async () => (await exportedState(ts.stack)).dynamic
      .map((r) => String((r.outputs as Record<string, unknown>).__provider).length);
    expect((await providers()).every((n) => n > 1000)).toBe(true);

    current = true;
    const { diffs } = await previewDiffs(ts.stack, { expectNoChanges: true });
    expect(diffs).toEqual({});
    expect((await ts.stack.up()).summary.resourceChanges).toEqual({ same: 4 });
    // A same step keeps the old outputs, so reads still go through the serialized provider.
    expect((await providers()).every((n) => n > 1000)).toBe(true);
    await ts.stack.preview({ refresh: true, expectNoChanges: true });
    await ts.stack.refresh({ expectNoChanges: true });

    expect((await ts.stack.destroy()).summary.resourceChanges?.delete).toBe(4);
    const s = await emu.state();
    expect(s.integrations.filter((i: any) => !i.deleted).map((i: any) => i.identifier)).toEqual(["slack-main"]);
    expect(s.workflows).toHaveLength(0);
    expect(s.subscribers[0].channels).toHaveLength(0);
  });
});
