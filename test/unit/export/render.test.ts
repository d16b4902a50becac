/**
 * The exporter's pure parts: the model built from objects as the service returns them (what is
 * declared, referenced, secret, skipped), and the three renderers' literals and programs.
 */
import { describe, expect, it } from "vitest";
import { buildModel, Ref, SecretRef, type RawEnvironment } from "../../../export/model";
import { configSetLines, importFile, projectFiles } from "../../../export/project";
import { tsValue } from "../../../export/render/typescript";
import { pyValue } from "../../../export/render/python";
import { goValue } from "../../../export/render/go";
import { packageSchema } from "../../../export/render/schema";
import { SECRET_MASK } from "../../../provider/schemas";

const ENV = "env_a";
const now = "2026-01-01T00:00:00.000Z";
const NASTY = "a \"quoted\" \\ back\nslash ${x} {{ y }} \u00e9t\u00e9 \u2028 \t tab";

const integration = (identifier: string, extra: Record<string, unknown> = {}) => ({
  _id: `id-${identifier}`, _environmentId: ENV, _organizationId: "org", name: identifier, identifier, providerId: "sendgrid", channel: "email",
  active: true, primary: false, conditions: [], configurations: {}, deleted: false, ...extra,
});
const workflow = (workflowId: string, steps: { name: string; type: string; controlValues?: Record<string, unknown> }[]) => ({
  _id: `wf-${workflowId}`, workflowId, slug: workflowId, name: workflowId, description: "", tags: [], active: false, validatePayload: false,
  isTranslationEnabled: false, updatedAt: now, createdAt: now, origin: "external", preferences: {}, status: "ACTIVE", severity: "none",
  steps: steps.map((s, i) => ({ _id: `st-${i}`, stepId: s.name.toLowerCase(), ...s, controlValues: s.controlValues ?? {} })),
});
const layout = (layoutId: string) => ({
  _id: `l-${layoutId}`, layoutId, slug: layoutId, name: layoutId, isDefault: false, isTranslationEnabled: false, createdAt: now, updatedAt: now,
  controls: { values: { email: { body: "<html><body>{{ content }}</body></html>", editorType: "html" } } },
});

/** A small environment with one of everything, and objects the provider cannot express. */
function raw(): RawEnvironment {
  return {
    environment: { _id: ENV, name: "Alpha" },
    integrations: [
      integration("sg", { credentials: { apiKey: "SG.secret", from: "a@example.com" }, configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: "whsec" } }),
      integration("agent", { channel: undefined, kind: "agent" }),
      integration("deleted", { deleted: true }),
      integration("elsewhere", { _environmentId: "env_b" }),
    ],
    workflows: [
      workflow("welcome", [
        { name: "Mail", type: "email", controlValues: { subject: NASTY, body: "<p>x</p>", layoutId: "brand" } },
        { name: "Hook", type: "http_request", controlValues: { method: "POST", url: "https://h.example.com", headers: [{ key: "k", value: "v" }] } },
      ]),
      workflow("agentic", [{ name: "Think", type: "ai_agent", controlValues: {} }]),
    ],
    layouts: [layout("brand")],
    topics: [{ topic: { _id: "t1", key: "news:daily", name: "News", createdAt: now }, subscribers: ["b", "a"] }],
    variables: [
      { _id: "v1", _organizationId: "org", key: "TOKEN", type: "string", isSecret: true, values: [{ _environmentId: ENV, value: SECRET_MASK }, { _environmentId: "env_b", value: SECRET_MASK }] },
      { _id: "v2", _organizationId: "org", key: "BASE", type: "string", isSecret: false, values: [{ _environmentId: ENV, value: "https://x" }] },
    ],
    subscribers: [{
      _id: "s1", subscriberId: "alice", _environmentId: ENV, _organizationId: "org", createdAt: now, updatedAt: now,
      channels: [{ providerId: "slack", _integrationId: "id-sg", credentials: { webhookUrl: "https://hooks.example.com/secret" } }],
    }],
  } as unknown as RawEnvironment;
}

describe("the model", () => {
  const model = buildModel(raw());
  const byKey = (key: string) => model.resources.find((r) => r.key === key)!;

  it("declares the key's environment's objects in kind order, each with the id import takes", () => {
    expect(model.resources.map((r) => [r.key, r.id])).toEqual([
      ["Integration/sg", "id-sg"], ["Layout/brand", "brand"], ["Workflow/welcome", "wf-welcome"], ["Subscriber/alice", "alice"], ["Topic/news:daily", "news:daily"],
      ["EnvironmentVariable/BASE", "BASE"], ["EnvironmentVariable/TOKEN", "TOKEN"], ["SubscriberCredentials/alice-slack-sg", "alice/slack/sg"],
    ]);
  });

  // Only the choices a subscriber made are declared (the rest are the service's defaults): global
  // ones with a channel off or a schedule, a workflow's that it chose and that differ from its global ones.
  it("declares the preferences a subscriber chose, naming its Subscriber and the workflow by their outputs", () => {
    const withPrefs = raw();
    const entry = (identifier: string, channels: Record<string, boolean>, updatedAt?: string) => ({ enabled: true, channels, overrides: [], workflow: { identifier, name: identifier }, ...(updatedAt ? { updatedAt } : {}) });
    withPrefs.subscriberPreferences = [{
      subscriberId: "alice",
      preferences: {
        global: { enabled: true, channels: { email: false, in_app: true }, schedule: { isEnabled: true } },
        workflows: [entry("welcome", { email: true, in_app: true }, now), entry("agentic", { email: false, in_app: true })],
      },
    }];
    const prefs = buildModel(withPrefs).resources.filter((r) => r.kind === "SubscriberPreferences");
    expect(prefs.map((r) => [r.key, r.id])).toEqual([["SubscriberPreferences/alice-preferences", "alice"], ["SubscriberPreferences/alice-welcome-preferences", "alice/welcome"]]);
    expect(prefs[0]!.inputs).toEqual({ subscriberId: new Ref("Subscriber/alice", "subscriberId"), channels: { email: false, in_app: true }, schedule: { isEnabled: true } });
    expect(prefs[1]!.inputs).toEqual({ subscriberId: new Ref("Subscriber/alice", "subscriberId"), workflowId: new Ref("Workflow/welcome", "workflowId"), channels: { email: true, in_app: true } });
    // After the global ones, which docs/subscribers.md asks for: a global write clears the per-workflow choices.
    expect(prefs.map((r) => r.dependsOn)).toEqual([undefined, ["SubscriberPreferences/alice-preferences"]]);
  });

  it("declares a workflow's preferences after the subscriber's global ones, before them in name order or not, and without dependsOn when there are none", () => {
    const withPrefs = raw();
    const entry = (identifier: string, channels: Record<string, boolean>) => ({ enabled: true, channels, overrides: [], workflow: { identifier, name: identifier }, updatedAt: now });
    withPrefs.subscriberPreferences = [
      // "alice-digest-preferences" sorts before "alice-preferences": moved after it.
      { subscriberId: "alice", preferences: { global: { enabled: true, channels: { email: false } }, workflows: [entry("digest", { email: true }), entry("welcome", { email: true })] } },
      // Bob chose nothing globally: his workflow's preferences depend on nothing.
      { subscriberId: "bob", preferences: { global: { enabled: true, channels: { email: true } }, workflows: [entry("welcome", { email: false })] } },
    ];
    const prefs = buildModel(withPrefs).resources.filter((r) => r.kind === "SubscriberPreferences");
    expect(prefs.map((r) => [r.name, r.dependsOn])).toEqual([
      ["alice-preferences", undefined],
      ["alice-digest-preferences", ["SubscriberPreferences/alice-preferences"]],
      ["alice-welcome-preferences", ["SubscriberPreferences/alice-preferences"]],
      ["bob-welcome-preferences", undefined],
    ]);
  });

  it("skips what the provider cannot declare, saying why", () => {
    expect(model.skipped.map((s) => [s.kind, s.name, s.reason.split(":")[0]])).toEqual([
      ["Integration", "agent", "the provider cannot declare it"],
      ["Workflow", "agentic", "the provider cannot declare it"],
      ["EnvironmentVariable", "TOKEN", "its values in other environments (env_b)"],
    ]);
    expect(model.skipped[1]!.reason).toContain("steps.0.type");
  });

  it("references the layout an email step names, and the integration and subscriber credentials belong to", () => {
    const steps = byKey("Workflow/welcome").inputs.steps as { controlValues: Record<string, unknown> }[];
    expect(steps[0]!.controlValues.layoutId).toEqual(new Ref("Layout/brand", "layoutId"));
    expect(byKey("SubscriberCredentials/alice-slack-sg").inputs.integrationIdentifier).toEqual(new Ref("Integration/sg", "identifier"));
    // The Subscriber's output, so the engine makes the subscriber before its credentials.
    expect(byKey("SubscriberCredentials/alice-slack-sg").inputs.subscriberId).toEqual(new Ref("Subscriber/alice", "subscriberId"));
  });

  it("makes every secret string a config key, knowing the values the service returned and not the masked ones", () => {
    expect(model.secrets.map((s) => [s.key, s.value])).toEqual([
      ["integration-sg-credentials-apiKey", "SG.secret"],
      ["integration-sg-credentials-from", "a@example.com"],
      ["integration-sg-configurations-inboundWebhookSigningKey", "whsec"],
      ["environment-variable-TOKEN-value", undefined],
      ["subscriber-credentials-alice-slack-sg-credentials-webhookUrl", "https://hooks.example.com/secret"],
    ]);
    expect(byKey("Integration/sg").inputs.configurations).toEqual({ inboundWebhookEnabled: true, inboundWebhookSigningKey: new SecretRef("integration-sg-configurations-inboundWebhookSigningKey") });
    expect(byKey("EnvironmentVariable/BASE").inputs.values).toEqual({ [ENV]: "https://x" });
    expect(byKey("Topic/news:daily").inputs.subscribers).toEqual(["a", "b"]);
  });

  it("declares the organisation's other environments when listed, a parent as the other Environment's output", () => {
    const env = (id: string, name: string, parent?: string) => ({ _id: id, name, _organizationId: "org", identifier: id, type: "prod", color: "#112233", _parentId: parent, apiKeys: [{ key: "env-api-key-clear" }] });
    const m = buildModel({ ...raw(), environments: [env(ENV, "Alpha"), env("env_dev", "Development"), env("env_b", "Beta", "env_dev")] as never });
    expect(m.resources.filter((r) => r.kind === "Environment").map((r) => [r.name, r.id, r.inputs])).toEqual([
      ["Beta", "env_b", { name: "Beta", color: "#112233", parentId: new Ref("Environment/Development", "environmentId") }],
      ["Development", "env_dev", { name: "Development", color: "#112233" }],
    ]);
    // The API keys the listing shows are outputs, never declared.
    expect(JSON.stringify(m.resources)).not.toContain("env-api-key-clear");
  });

  it("is the same whatever order the service lists objects in", () => {
    const r = raw();
    r.integrations.reverse();
    r.workflows.reverse();
    r.variables.reverse();
    expect(buildModel(r)).toEqual(model);
  });

  it("renders no secret value into any file of any language, and prints the config lines", () => {
    for (const language of ["typescript", "python", "go"] as const) {
      const files = projectFiles(model, language, { frontEnd: language === "typescript" ? "dynamic" : "native", project: "p", packageVersion: "1.0.0", pulumiVersion: "3.0.0" });
      const text = Object.values(files).join("\n");
      for (const secret of ["SG.secret", "whsec", "https://hooks.example.com/secret"]) expect(text).not.toContain(secret);
      expect(text).toContain("environment-variable-TOKEN-value");
    }
    expect(configSetLines(model, true)[0]).toBe("pulumi config set --secret integration-sg-credentials-apiKey 'SG.secret'");
    expect(configSetLines(model, true)[3]).toBe("pulumi config set --secret environment-variable-TOKEN-value <value>");
    expect(JSON.parse(importFile(model)).resources[0]).toEqual({ type: "notify:index:Integration", name: "sg", id: "id-sg" });
  });
});

describe("literals", () => {
  const names = new Map([["Layout/brand", "brand"]]);
  const schema = packageSchema();

  it("TypeScript: strings escaped so they read back exactly, keys quoted when not identifiers, references and secrets as code", () => {
    const text = tsValue({ s: NASTY, "a-b": 1, n: null, r: new Ref("Layout/brand", "layoutId"), k: new SecretRef("key") }, names);
    expect(text).toContain(`s: ${JSON.stringify(NASTY)}`);
    expect(text).toContain(`"a-b": 1`);
    expect(text).toContain("r: brand.layoutId");
    expect(text).toContain(`k: config.requireSecret("key")`);
    // eslint-disable-next-line no-new-func
    expect(new Function("brand", "config", `return ${text};`)({ layoutId: "L" }, { requireSecret: (k: string) => `<${k}>` })).toEqual({ s: NASTY, "a-b": 1, n: null, r: "L", k: "<key>" });
  });

  it("Python: True/False/None, Args classes for object types, snake_case keywords, plain dicts for JSON", () => {
    expect(pyValue(true, { type: "boolean" }, names, schema)).toBe("True");
    expect(pyValue(null, undefined, names, schema)).toBe("None");
    expect(pyValue({ webhookUrl: "x" }, { $ref: "#/types/notify:index:ChannelCredentials" }, names, schema)).toBe('notify.ChannelCredentialsArgs(\n    webhook_url="x",\n)');
    expect(pyValue({ "a-b": [1, 2.5] }, { type: "object", additionalProperties: { $ref: "pulumi.json#/Any" } }, names, schema)).toBe('{\n    "a-b": [\n        1,\n        2.5,\n    ],\n}');
    expect(pyValue(NASTY, { type: "string" }, names, schema)).toBe(JSON.stringify(NASTY));
  });

  it("Go: typed SDK collections and enums, pulumi.Map for JSON, references as fields", () => {
    expect(goValue(["a"], { type: "array", items: { type: "string" } }, names, schema)).toBe('pulumi.StringArray{\n\tpulumi.String("a"),\n}');
    expect(goValue("email", { $ref: "#/types/notify:index:Channel" }, names, schema)).toBe('notify.Channel("email")');
    expect(goValue({ x: 1, r: new Ref("Layout/brand", "layoutId") }, { type: "object", additionalProperties: { $ref: "pulumi.json#/Any" } }, names, schema))
      .toBe('pulumi.Map{\n\t"x": pulumi.Float64(1),\n\t"r": brand.LayoutId,\n}');
    expect(goValue({ e: "v" }, { type: "object", additionalProperties: { type: "string" } }, names, schema)).toBe('pulumi.StringMap{\n\t"e": pulumi.String("v"),\n}');
  });
});
