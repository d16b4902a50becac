/**
 * The exported TypeScript project with each TypeScript a user may have: written from a model of
 * every kind (a workflow with a step of every kind among them) on both front ends, it type-checks
 * with every TypeScript the project pins (test/helpers/typescript.ts: 5.x and 6.x). TypeScript 6
 * refuses the `moduleResolution: "node"` the exporter used to write (error TS5107, which stopped
 * the first `pulumi up`); the manifest asks for a TypeScript that Pulumi's runtime accepts.
 * The project installs this package by name, whose types are the built declarations (`dist/`,
 * so this layer builds first), and the native SDK, built here. A resource declared with dependsOn
 * (a subscriber's preferences for a workflow, on its global ones) names a variable declared before.
 */
import { createRequire } from "node:module";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildModel, type RawEnvironment } from "../../../../export/model";
import { projectFiles } from "../../../../export/project";
import { TYPESCRIPT_RANGE } from "../../../../export/render/typescript";
import { FRONT_ENDS } from "../../../../export/render/common";
import { SECRET_MASK, type WorkflowStepKind } from "../../../../provider/schemas";
import { linkProjectDir } from "../../../../scripts/workspace";
import { buildNodejsSdk, linkNodejsSdk } from "../../../../scripts/nodejs-sdk";
import { ROOT } from "../../../helpers/pulumi";
import { runTsc, TYPESCRIPTS } from "../../../helpers/typescript";

const ENV = "env_a";
const now = "2026-01-01T00:00:00.000Z";

/** Control values of each step kind, as the service holds them (a new kind fails to compile here until it has some). */
const CONTROLS = {
  in_app: { body: "Hi {{subscriber.firstName}}", primaryAction: { label: "Open", redirect: { url: "https://example.com" } } },
  email: { subject: "Welcome", body: "<p>Hi</p>", editorType: "html", layoutId: "brand" },
  sms: { body: "Hi" },
  chat: { body: "Hi", editorType: "text" },
  push: { subject: "Hi", body: "There" },
  digest: { amount: 1, unit: "hours", digestKey: "{{payload.key}}" },
  delay: { type: "regular", amount: 5, unit: "minutes" },
  throttle: { type: "fixed", amount: 2, unit: "hours" },
  custom: { anything: { nested: [1, "two"] } },
  http_request: { method: "POST", url: "https://hooks.example.com", headers: [{ key: "x-token", value: "t" }], body: [{ key: "a", value: "b" }] },
} satisfies Record<WorkflowStepKind, Record<string, unknown>>;

/** An environment with an object of every kind the exporter declares, secrets among them. */
function raw(): RawEnvironment {
  return {
    environment: { _id: ENV, name: "Alpha" },
    integrations: [{
      _id: "i1", _environmentId: ENV, _organizationId: "org", name: "SendGrid", identifier: "sendgrid-main", providerId: "sendgrid", channel: "email",
      active: true, primary: true, conditions: [], deleted: false,
      credentials: { apiKey: "SG.secret", from: "a@example.com" }, configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: "whsec" },
    }],
    workflows: [{
      _id: "wf1", workflowId: "welcome", slug: "welcome", name: "Welcome", description: "", tags: ["onboarding"], active: true, validatePayload: false,
      isTranslationEnabled: true, updatedAt: now, createdAt: now, origin: "external", status: "ACTIVE", severity: "high",
      preferences: { workflow: { all: { enabled: true, readOnly: false }, channels: { email: { enabled: true } } } },
      steps: Object.entries(CONTROLS).map(([type, controlValues], i) => ({ _id: `st-${i}`, stepId: `step-${i}`, name: `Step ${type}`, type, controlValues })),
    }],
    layouts: [{
      _id: "l1", layoutId: "brand", slug: "brand", name: "Brand", isDefault: false, isTranslationEnabled: false, createdAt: now, updatedAt: now,
      controls: { values: { email: { body: "<html><body>{{ content }}</body></html>", editorType: "html" } } },
    }],
    topics: [{ topic: { _id: "t1", key: "news:daily", name: "News", createdAt: now }, subscribers: ["alice", "bob"] }],
    variables: [
      { _id: "v1", _organizationId: "org", key: "API_TOKEN", type: "string", isSecret: true, values: [{ _environmentId: ENV, value: SECRET_MASK }] },
      { _id: "v2", _organizationId: "org", key: "BASE_URL", type: "string", isSecret: false, values: [{ _environmentId: ENV, value: "https://x" }] },
    ],
    environments: [
      { _id: ENV, name: "Alpha", _organizationId: "org", identifier: ENV, type: "prod", color: "#112233" },
      { _id: "env_b", name: "Beta", _organizationId: "org", identifier: "env_b", type: "dev", color: "#445566", _parentId: ENV },
    ],
    subscribers: [{
      _id: "s1", subscriberId: "alice", _environmentId: ENV, _organizationId: "org", createdAt: now, updatedAt: now,
      channels: [{ providerId: "sendgrid", _integrationId: "i1", credentials: { webhookUrl: "https://hooks.example.com/secret" } }],
    }],
    // Alice's global preferences, and her own for two workflows: "alice-billing-preferences" sorts
    // before "alice-preferences", on which it depends (a variable used before its declaration does not compile).
    subscriberPreferences: [{
      subscriberId: "alice",
      preferences: {
        global: { enabled: true, channels: { email: false, in_app: true } },
        workflows: ["billing", "welcome"].map((identifier) => ({ enabled: true, channels: { email: true, in_app: true }, overrides: [], workflow: { identifier, name: identifier }, updatedAt: now })),
      },
    }],
    contexts: [{ type: "tenant", id: "acme", data: { plan: "enterprise", limits: { seats: 10 } }, createdAt: now }],
    translations: [{ resourceType: "workflow", resourceId: "welcome", locale: "fr_FR", content: { hello: "Bonjour" }, createdAt: now, updatedAt: now }],
    domains: [{
      domain: {
        _id: "d1", name: "mail.example.com", status: "verified", mxRecordConfigured: true, createdAt: now, data: { owner: "ops" },
        expectedDnsRecords: [{ type: "MX", name: "mail.example.com", content: "inbound.example.com", ttl: "Auto", priority: 10 }],
      },
      routes: [{ address: "support", type: "webhook", data: { team: "care" } }],
    }],
  } as unknown as RawEnvironment;
}

describe("the exported TypeScript project with each TypeScript", () => {
  const model = buildModel(raw());
  const tmp = mkdtempSync(path.join(os.tmpdir(), "notify-export-ts-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("declares every kind, each step kind among them", () => {
    expect(model.skipped).toEqual([]);
    expect(new Set(model.resources.map((r) => r.kind))).toEqual(new Set(["Integration", "Layout", "Workflow", "Translation", "Topic", "EnvironmentVariable", "Context", "Domain", "Environment", "Subscriber", "SubscriberCredentials", "SubscriberPreferences"]));
    const steps = model.resources.find((r) => r.kind === "Workflow")!.inputs.steps as { type: string }[];
    expect(steps.map((s) => s.type)).toEqual(Object.keys(CONTROLS));
  });

  it("declares a subscriber's preferences for a workflow after its global ones, with dependsOn on them", () => {
    expect(model.resources.filter((r) => r.kind === "SubscriberPreferences").map((r) => [r.name, r.dependsOn])).toEqual([
      ["alice-preferences", undefined],
      ["alice-billing-preferences", ["SubscriberPreferences/alice-preferences"]],
      ["alice-welcome-preferences", ["SubscriberPreferences/alice-preferences"]],
    ]);
    const files = projectFiles(model, "typescript", { frontEnd: "dynamic", project: "p", packageVersion: "1.0.0", pulumiVersion: "3.0.0" });
    expect(files["notify.generated.ts"]!.match(/^export const \w+ = new notify\.SubscriberPreferences\("alice-\w+-preferences", \{[^;]*\}, \{ dependsOn: \[alicePreferences\] \}\);$/gm)).toHaveLength(2);
  });

  it("asks for a TypeScript that @pulumi/pulumi accepts, which every pinned one is", () => {
    // semver as @pulumi/pulumi itself resolves it.
    const pulumiPkg = path.join(ROOT, "node_modules/@pulumi/pulumi/package.json");
    const semver = createRequire(pulumiPkg)("semver") as { satisfies(v: string, r: string): boolean; subset(a: string, b: string): boolean };
    const accepted = (JSON.parse(readFileSync(pulumiPkg, "utf8")) as { peerDependencies: Record<string, string> }).peerDependencies.typescript!;
    expect(semver.subset(TYPESCRIPT_RANGE, accepted)).toBe(true);
    const pkg = JSON.parse(projectFiles(model, "typescript", { frontEnd: "dynamic", project: "p", packageVersion: "1.0.0", pulumiVersion: "3.0.0" })["package.json"]!);
    expect(pkg.devDependencies.typescript).toBe(TYPESCRIPT_RANGE);
    expect(TYPESCRIPTS.map((t) => t.name)).toContain("typescript");
    expect(TYPESCRIPTS.length).toBeGreaterThan(1);
    for (const ts of TYPESCRIPTS) expect(semver.satisfies(ts.version, TYPESCRIPT_RANGE)).toBe(true);
    expect(new Set(TYPESCRIPTS.map((t) => t.version.split(".")[0])).size).toBe(TYPESCRIPTS.length);
  });

  for (const frontEnd of FRONT_ENDS) {
    it(`type-checks on the ${frontEnd} front end with every pinned TypeScript, without an error or a deprecation`, () => {
      const dir = path.join(tmp, frontEnd);
      linkProjectDir(dir);
      if (frontEnd === "native") {
        buildNodejsSdk();
        linkNodejsSdk(dir);
      }
      for (const [name, text] of Object.entries(projectFiles(model, "typescript", { frontEnd, project: "notify-alpha", packageVersion: "0.1.0", pulumiVersion: "3.0.0" }))) {
        writeFileSync(path.join(dir, name), text);
      }
      for (const ts of TYPESCRIPTS) {
        expect({ version: ts.version, ...runTsc(ts, ["-p", dir, "--noEmit"], dir) }).toEqual({ version: ts.version, status: 0, output: "" });
      }
    });
  }
});
