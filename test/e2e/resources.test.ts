import { describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import { exportedState, loadPackage, previewDiffs } from "../helpers/pulumi";
import { EMULATOR_MODES, useStack } from "../helpers/stack";
import { previewShown } from "../helpers/shownDiff";

const SENDGRID_KEY = "SG.super-secret-sendgrid-key";
const SLACK_HOOK = "https://hooks.slack.example/services/T000/B000/secret-hook";

interface Spec {
  emailName: string;
  emailProvider: string;
  emailActive: boolean;
  welcomeName: string;
  welcomeWorkflowId: string;
  emailSubject: string;
  stepOrder: "normal" | "reversed";
  hook: string;
  adopt: boolean;
}

const initial = (): Spec => ({
  emailName: "SendGrid", emailProvider: "sendgrid", emailActive: true, welcomeName: "Welcome", welcomeWorkflowId: "welcome",
  emailSubject: "Welcome", stepOrder: "normal", hook: SLACK_HOOK, adopt: false,
});

function program(spec: Spec): automation.PulumiFn {
  return async () => {
    const notify = loadPackage();
    const email = new notify.Integration("sendgrid", {
      identifier: "sendgrid-main", name: spec.emailName, providerId: spec.emailProvider, channel: "email",
      credentials: { apiKey: SENDGRID_KEY, from: "no-reply@example.com" }, active: spec.emailActive, adopt: spec.adopt,
    });
    const slack = new notify.Integration("slack", {
      identifier: "slack-main", name: "Slack", providerId: "slack", channel: "chat", active: true, adopt: spec.adopt,
    });
    const steps = [
      { name: "Inbox", type: "in_app" as const, controlValues: { body: "Hi {{subscriber.firstName}}" } },
      // One declared step id, beside two the service generates.
      { name: "Wait", type: "delay" as const, stepId: "pause", controlValues: { type: "regular", amount: 1, unit: "hours" } },
      { name: "Email", type: "email" as const, controlValues: { subject: spec.emailSubject, body: "<p>Hi</p>" } },
    ];
    const welcome = new notify.Workflow("welcome", {
      workflowId: spec.welcomeWorkflowId, name: spec.welcomeName, adopt: spec.adopt,
      steps: spec.stepOrder === "normal" ? steps : [...steps].reverse(),
    });
    const cred = new notify.SubscriberCredentials("alice-slack", {
      subscriberId: "alice", providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: spec.hook }, adopt: spec.adopt,
    }, { dependsOn: [slack] });
    return { emailId: email.id, welcomeSteps: welcome.steps, welcomeId: welcome.id, credId: cred.id };
  };
}

describe.each(EMULATOR_MODES)("resources against the emulator in %s mode", (mode) => {
  const spec = initial();
  const { emu, ts } = useStack({
    emulator: { mode }, program: program(spec),
    seed: async (e) => void (await e.api("POST", "/v2/subscribers", { subscriberId: "alice", firstName: "Alice" })),
  });

  it("creates all three kinds, and the next preview is empty", async () => {
    const up = await ts.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(5);
    const state = await emu.state();
    expect(state.integrations.filter((i) => !i.deleted).map((i) => i.identifier).sort()).toEqual(["sendgrid-main", "slack-main"]);
    expect(state.workflows.map((w) => w.workflowId)).toEqual(["welcome"]);
    expect(state.subscribers[0].channels[0].credentials.webhookUrl).toBe(SLACK_HOOK);
    expect(up.outputs.welcomeSteps!.value.map((s: { stepId: string }) => s.stepId)).toEqual(["inbox", "pause", "email"]);
    await emu.clearRequests();
    await ts.stack.preview({ expectNoChanges: true });
    // A no-op preview costs the service nothing.
    expect(await emu.operationRequests()).toHaveLength(0);
  });

  it("finds no drift on a refresh right after up: no refresh diff, and the inputs in state unchanged", async () => {
    let shown = "";
    await ts.stack.preview({ refresh: true, expectNoChanges: true, onOutput: (s) => { shown += s; } });
    // The engine prints "refresh [diff: ...]" for each resource whose read returns other inputs.
    expect(shown.split("\n").filter((l) => l.includes("refresh [diff"))).toEqual([]);
    // Secret values are left out: the engine encrypts them anew on each write.
    const inputs = async () => Object.fromEntries((await exportedState(ts.stack)).dynamic
      .map((r) => [r.urn, JSON.stringify(r.inputs, (_k, v) => (v && typeof v === "object" && "ciphertext" in v ? "[secret]" : v))]));
    const before = await inputs();
    expect(Object.values(before).find((x) => x.includes('"Wait"'))).toMatch(/"stepId":"pause"/);
    await ts.stack.refresh({ expectNoChanges: true });
    expect(await inputs()).toEqual(before);
  });

  it("keeps the API key and every credential out of the state in plain text, and each __provider small", async () => {
    const { text, dynamic, resources } = await exportedState(ts.stack);
    expect(text).not.toContain(emu.key);
    // The key set with `pulumi config set --secret notify:apiKey` is stored, encrypted, as an input
    // of the default provider (the dynamic-provider plugin takes the stack's config as its inputs),
    // and of no notify resource. Only NOTIFY_API_KEY keeps it out of state entirely (reliability test).
    const providers = resources.filter((r) => String(r.type).startsWith("pulumi:providers:"));
    const keyInput = providers.map((r) => (r.inputs as Record<string, unknown>)["notify:apiKey"]).filter((v) => v !== undefined);
    expect(keyInput).toHaveLength(1);
    expect(keyInput[0]).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: expect.any(String) });
    for (const r of dynamic) expect(Object.keys(r.inputs as object)).not.toContain("notify:apiKey");
    expect(text).not.toContain(SENDGRID_KEY);
    expect(text).not.toContain("secret-hook");
    for (const r of dynamic) {
      const p = String((r.inputs as Record<string, unknown>).__provider);
      // One line that requires the implementation by package path (the budget is 4 KB).
      expect(p.length).toBeLessThanOrEqual(256);
      expect(p).toMatch(/^exports\.handler = \(\) => require\("pulumi-notify\/dist\/provider\/resources\/\w+"\)\.dynamicProvider;\n$/);
      expect(p).not.toContain(emu.key);
    }
  });

  it("updates a mutable field in place and names exactly that field", async () => {
    spec.emailName = "SendGrid (main)";
    const { diffs } = await previewDiffs(ts.stack);
    expect(diffs).toEqual({ sendgrid: { op: "update", keys: ["name"] } });
    const before = (await emu.state()).integrations.find((i) => i.identifier === "sendgrid-main")._id;
    const up = await ts.stack.up();
    expect(up.summary.resourceChanges?.update).toBe(1);
    expect((await emu.state()).integrations.find((i) => i.identifier === "sendgrid-main")).toMatchObject({ _id: before, name: "SendGrid (main)" });
    await ts.stack.preview({ expectNoChanges: true });
  });

  it("keeps each step's identity when a step changes or the list is reordered", async () => {
    const ids = () => emu.state().then((s) => Object.fromEntries(s.workflows[0].steps.map((x: any) => [x.name, x._id])));
    const before = await ids();
    spec.emailSubject = "Welcome aboard";
    const { diffs } = await previewDiffs(ts.stack);
    expect(diffs).toEqual({ welcome: { op: "update", keys: ["steps"] } });
    await ts.stack.up();
    spec.stepOrder = "reversed";
    await ts.stack.up();
    const wf = (await emu.state()).workflows[0];
    expect(wf.steps.map((s: any) => s.name)).toEqual(["Email", "Wait", "Inbox"]);
    expect(wf.steps.find((s: any) => s.name === "Email").controlValues.subject).toBe("Welcome aboard");
    expect(await ids()).toEqual(before);
    await ts.stack.preview({ expectNoChanges: true });
    spec.stepOrder = "normal";
    await ts.stack.up();
  });

  it("replaces on an immutable field", async () => {
    spec.emailProvider = "mailgun";
    const { diffs } = await previewDiffs(ts.stack);
    expect(diffs.sendgrid?.op).toMatch(/replace/);
    await ts.stack.up();
    const live = (await emu.state()).integrations.filter((i) => i.identifier === "sendgrid-main" && !i.deleted);
    expect(live).toHaveLength(1);
    expect(live[0].providerId).toBe("mailgun");
    await ts.stack.preview({ expectNoChanges: true });
  });

  it("shows drift made through the API on refresh, and up restores it", async () => {
    const s = await emu.state();
    const integ = s.integrations.find((i) => i.identifier === "sendgrid-main" && !i.deleted);
    await emu.api("PUT", `/v1/integrations/${integ._id}`, { name: "Renamed by hand" });
    const wf = s.workflows[0];
    const stepsBody = wf.steps.map((st: any) => ({ _id: st._id, name: st.name, type: st.type, controlValues: st.name === "Email" ? { ...st.controlValues, subject: "Hand edit" } : st.controlValues }));
    await emu.api("PUT", `/v2/workflows/${wf._id}`, { name: wf.name, steps: stepsBody, preferences: {}, origin: "platform-cloud" });
    await emu.api("PUT", "/v1/subscribers/alice/credentials", { providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: "https://hooks.slack.example/changed" } });

    const { shown } = await previewShown(ts.stack, { refresh: true });
    expect(shown.sendgrid).toMatchObject({ op: "update", keys: ["name"] });
    expect(shown.welcome).toMatchObject({ op: "update", keys: ["steps"] });
    // A secret's drift is named too (`[diff: ~credentials]`), its values `[secret]` on both sides.
    expect(shown["alice-slack"]).toMatchObject({ op: "update", keys: ["credentials"] });

    await ts.stack.up({ refresh: true });
    const after = await emu.state();
    expect(after.integrations.find((i) => i._id === integ._id).name).toBe("SendGrid (main)");
    expect(after.workflows[0].steps.find((x: any) => x.name === "Email").controlValues.subject).toBe("Welcome aboard");
    expect(after.subscribers[0].channels[0].credentials.webhookUrl).toBe(SLACK_HOOK);
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("drops an object deleted behind the engine's back on refresh, and up recreates it", async () => {
    const wf = (await emu.state()).workflows[0];
    await emu.api("DELETE", `/v2/workflows/${wf._id}`);
    const refresh = await ts.stack.refresh();
    expect(refresh.summary.resourceChanges?.delete).toBe(1);
    const up = await ts.stack.up();
    expect(up.summary.resourceChanges?.create).toBe(1);
    expect((await emu.state()).workflows).toHaveLength(1);
  });

  it("destroys everything it made", async () => {
    await ts.stack.destroy();
    const s = await emu.state();
    expect(s.integrations.filter((i) => !i.deleted)).toHaveLength(0);
    expect(s.workflows).toHaveLength(0);
    expect(s.subscribers[0].channels).toHaveLength(0);
  });

  it("refuses to take over existing objects without adopt, and manages them with it", async () => {
    await emu.api("POST", "/v1/integrations", { identifier: "sendgrid-main", providerId: "mailgun", channel: "email", name: "Pre-existing" });
    await emu.api("POST", "/v2/workflows", { workflowId: "welcome", name: "Pre-existing", steps: [] });
    await expect(ts.stack.up()).rejects.toThrow(/set adopt: true/);
    spec.adopt = true;
    await ts.stack.up();
    const s = await emu.state();
    expect(s.integrations.filter((i) => i.identifier === "sendgrid-main" && !i.deleted)).toHaveLength(1);
    expect(s.integrations.find((i) => i.identifier === "sendgrid-main" && !i.deleted).name).toBe("SendGrid (main)");
    expect(s.workflows).toHaveLength(1);
    expect(s.workflows[0].name).toBe("Welcome");
    await ts.stack.preview({ expectNoChanges: true });
    await ts.stack.destroy();
    expect((await emu.state()).workflows).toHaveLength(0);
  });
});
