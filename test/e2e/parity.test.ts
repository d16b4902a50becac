/**
 * One scenario, both front ends: the same program written once against the dynamic resources
 * (the package's classes) and once against the native plugin (the same types by token), each
 * against a fresh emulator, must leave the same objects in the service and give the same outputs.
 * An update and a destroy follow, and must agree as well.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type * as pulumiModule from "@pulumi/pulumi";
import { loadPackage, nativeRequire, type TestStack } from "../helpers/pulumi";
import { declare } from "../helpers/native";
import { FRONT_ENDS, type FrontEnd } from "../helpers/frontEnds";
import { useStack, type StackFixture } from "../helpers/stack";
import type { ResourceTable } from "../../provider/resources/fields";

const pulumi = nativeRequire("@pulumi/pulumi") as typeof pulumiModule;
const { RESOURCE_TABLES } = nativeRequire("pulumi-notify/dist/provider/resources/index") as { RESOURCE_TABLES: readonly ResourceTable[] };
const outputKeys = (type: string) => RESOURCE_TABLES.find((t) => t.name === type)!.outputKeys;

type Make = (type: "Integration" | "Workflow" | "SubscriberCredentials", name: string, args: Record<string, unknown>) => Record<string, any>;

const settings = { subject: "Welcome" };

/** The scenario, written once over a front end's way of declaring a resource. */
function scenario(make: Make) {
  const email = make("Integration", "sendgrid", {
    identifier: "sendgrid-main", name: "SendGrid", providerId: "sendgrid", channel: "email",
    credentials: { apiKey: "SG.parity-key", from: "no-reply@example.com" }, active: true,
  });
  const slack = make("Integration", "slack", { identifier: "slack-main", name: "Slack", providerId: "slack", channel: "chat", active: true });
  const welcome = make("Workflow", "welcome", {
    workflowId: "welcome", name: "Welcome", tags: ["onboarding"],
    steps: [
      { name: "Inbox", type: "in_app", controlValues: { body: "Hi {{subscriber.firstName}}" } },
      { name: "Wait", type: "delay", controlValues: { type: "regular", amount: 1, unit: "hours" } },
      { name: "Email", type: "email", controlValues: { subject: settings.subject, body: "<p>Hi</p>" } },
    ],
  });
  const cred = make("SubscriberCredentials", "alice-slack", {
    subscriberId: "alice", providerId: "slack", integrationIdentifier: slack.identifier, credentials: { webhookUrl: "https://hooks.slack.example/parity" },
  });
  const all = { email: ["Integration", email], slack: ["Integration", slack], welcome: ["Workflow", welcome], cred: ["SubscriberCredentials", cred] } as const;
  return Object.fromEntries(Object.entries(all).map(([k, [type, r]]) => [k, pulumi.output(Object.fromEntries(outputKeys(type).map((o) => [o, r[o]])))]));
}

const dynamicMake: Make = (type, name, args) => {
  const notify = loadPackage() as unknown as Record<string, new (n: string, a: unknown) => Record<string, any>>;
  return new notify[type]!(name, args);
};
const nativeMake: Make = (type, name, args) => declare(type, name, args);

/** Replaces what differs between two emulators by nature (ids, times) with stable names. */
function normalize(value: unknown, state: { integrations: any[]; workflows: any[]; subscribers: any[] }): unknown {
  const names = new Map<string, string>();
  for (const i of state.integrations) names.set(i._id, `<integration ${i.identifier}>`);
  for (const w of state.workflows) {
    names.set(w._id, `<workflow ${w.workflowId}>`);
    if (w.slug) names.set(w.slug, `<workflow ${w.workflowId} slug>`); // derived from the _id
    for (const s of w.steps ?? []) for (const k of ["_id", "_templateId", "slug"]) if (s[k]) names.set(s[k], `<step ${w.workflowId}/${s.stepId} ${k}>`);
  }
  for (const s of state.subscribers) names.set(s._id, `<subscriber ${s.subscriberId}>`);
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return names.get(v) ?? (/^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(v) ? "<time>" : v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}

describe("the dynamic and the native front end, one scenario", () => {
  // An emulator and a stack per front end.
  const runs = Object.fromEntries(FRONT_ENDS.map((fe) => [fe, useStack({
    seed: async (emu) => {
      await emu.api("POST", "/v2/subscribers", { subscriberId: "alice", firstName: "Alice" });
      // The environment's primary email integration, made before: the service makes the first
      // active one primary on create, and the workflow's email step's issue would then depend on
      // whether the engine created the workflow before or after the scenario's integration.
      await emu.api("POST", "/v1/integrations", { identifier: "postmark-primary", providerId: "postmark", channel: "email", active: true, check: false });
    },
    program: async () => scenario(fe === "dynamic" ? dynamicMake : nativeMake),
    frontEnd: fe,
  })])) as Record<FrontEnd, StackFixture>;

  /** Runs `op` through both front ends; resolves with each one's normalized service state and outputs. */
  async function both(op: (ts: TestStack) => Promise<Record<string, { value: unknown }> | undefined>) {
    const out = {} as Record<FrontEnd, { service: unknown; outputs: unknown }>;
    for (const fe of ["dynamic", "native"] as const) {
      const { emu, ts } = runs[fe];
      const outputs = await op(ts);
      const state = await emu.state();
      // The engine creates independent resources in parallel, so the service's order is by arrival: compare by natural key.
      const by = (k: string) => (a: any, b: any) => String(a[k]).localeCompare(String(b[k]));
      const service = { integrations: [...state.integrations].sort(by("identifier")), workflows: [...state.workflows].sort(by("workflowId")), subscribers: [...state.subscribers].sort(by("subscriberId")) };
      out[fe] = { service: normalize(service, state), outputs: normalize(outputs && Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v.value])), state) };
    }
    return out;
  }

  it("up makes the same objects and gives the same outputs", async () => {
    const r = await both(async (ts) => (await ts.stack.up()).outputs);
    expect((r.native.service as any).workflows).toHaveLength(1);
    expect((r.native.outputs as any).email).toMatchObject({ identifier: "sendgrid-main", credentials: { apiKey: "SG.parity-key" } });
    expect((r.native.outputs as any).welcome.steps.map((s: { stepId: string }) => s.stepId)).toEqual(["inbox", "wait", "email"]);
    expect(r.native.service).toEqual(r.dynamic.service);
    expect(r.native.outputs).toEqual(r.dynamic.outputs);
  });

  it("the state places each of the package's resources where the program declares it, not in the package", async () => {
    // The engine records the frame after the resource class's constructor (`Resource.stackTrace(4)`
    // in @pulumi/pulumi's resource.js: Resource, CustomResource, the class, then its caller).
    const { resources } = (await runs.dynamic.ts.stack.exportStack()).deployment as { resources: { type: string; sourcePosition?: string }[] };
    const ours = resources.filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/notify:"));
    expect(ours).toHaveLength(4);
    const dynamicMakeLine = readFileSync(fileURLToPath(import.meta.url), "utf8").split("\n").findIndex((l) => l.includes("return new notify[type]!(name, args);")) + 1;
    for (const r of ours) expect(r.sourcePosition).toMatch(new RegExp(`/test/e2e/parity\\.test\\.ts#${dynamicMakeLine},\\d+$`));
  });

  it("an update makes the same change through both", async () => {
    settings.subject = "Welcome aboard";
    const r = await both(async (ts) => (await ts.stack.up()).outputs);
    expect(JSON.stringify(r.native.service)).toContain("Welcome aboard");
    expect(r.native.service).toEqual(r.dynamic.service);
    expect(r.native.outputs).toEqual(r.dynamic.outputs);
  });

  it("destroy leaves the same service behind", async () => {
    const r = await both(async (ts) => {
      await ts.stack.destroy();
      return undefined;
    });
    expect((r.native.service as any).workflows).toEqual([]);
    expect(r.native.service).toEqual(r.dynamic.service);
  });
});
