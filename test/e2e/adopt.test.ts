/**
 * Adoption that writes nothing, through the dynamic resources (the package's classes) under the
 * real engine: an environment made through the API (objects of each of its kinds, as the
 * dashboard would leave them) is declared as it is, every resource with `adopt: true`, secrets
 * read from stack config. The first `up` sends reads, and one write only: the integration's
 * credentials, which production never returns, so they cannot be compared. Then `preview` shows
 * no change and `preview --refresh` no drift. A second program that differs in one field of one
 * object writes that object alone.
 * (test/component/provider/resources/adopt.test.ts asserts each module's exact requests;
 * test/e2e/nativeSdk.test.ts the native front end's `import` option.)
 */
import { describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import type * as pulumiModule from "@pulumi/pulumi";
import { loadPackage, nativeRequire } from "../helpers/pulumi";
import type { TestEmulator } from "../helpers/emulator";
import { useStack } from "../helpers/stack";

const pulumi = nativeRequire("@pulumi/pulumi") as typeof pulumiModule;

const SENDGRID_KEY = "SG.adopted-secret-key";
const SLACK_HOOK = "https://hooks.slack.example/services/T000/B000/adopted";
const HTML = "<html><body>{{ content }}</body></html>";
const STEPS = [
  { name: "Inbox", type: "in_app" as const, controlValues: { body: "Hi {{subscriber.firstName}}" } },
  { name: "Email", type: "email" as const, controlValues: { subject: "Welcome", body: "<p>Hi</p>", editorType: "html" } },
];


describe("adopting an existing environment through the dynamic resources", () => {
  let devColor = "";
  /** The topic's name the program declares, and how many resources its last run declared. */
  const spec = { topicName: "News", declared: 0 };

  const program: automation.PulumiFn = async () => {
    const notify = loadPackage();
    // Counted as they register, so the expected plan follows the program.
    spec.declared = 0;
    pulumi.runtime.registerStackTransformation(() => void spec.declared++);
    const config = new pulumi.Config();
    new notify.Integration("sendgrid", {
      identifier: "sendgrid-main", name: "SendGrid", providerId: "sendgrid", channel: "email", active: true,
      credentials: config.requireSecretObject<{ apiKey: string }>("sendgridCredentials"), adopt: true,
    });
    const slack = new notify.Integration("slack", { identifier: "slack-main", name: "Slack", providerId: "slack", channel: "chat", active: true, adopt: true });
    new notify.SubscriberCredentials("alice-slack", {
      subscriberId: "alice", providerId: "slack", integrationIdentifier: slack.identifier,
      credentials: { webhookUrl: config.requireSecret("slackHook") }, adopt: true,
    });
    new notify.Workflow("welcome", { workflowId: "welcome", name: "Welcome", tags: ["onboarding"], steps: STEPS, adopt: true });
    new notify.Environment("dev", { name: "Development", color: devColor, adopt: true });
    new notify.EnvironmentVariable("base-url", { key: "BASE_URL", values: { env_env0: "https://app.example.com" }, adopt: true });
    new notify.Layout("brand", { layoutId: "brand", name: "Brand", controlValues: { email: { body: HTML, editorType: "html" } }, adopt: true });
    new notify.Topic("news", { key: "news", name: spec.topicName, subscribers: ["alice", "bob"], adopt: true });
  };

  /** The secrets the program reads from stack config. */
  const secrets = {
    "notify-test:sendgridCredentials": { value: JSON.stringify({ apiKey: SENDGRID_KEY }), secret: true },
    "notify-test:slackHook": { value: SLACK_HOOK, secret: true },
  };

  const seed = async (emu: TestEmulator) => {
    const ok = async (method: string, p: string, body?: unknown) => {
      const r = await emu.api(method, p, body);
      if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    };
    for (const subscriberId of ["alice", "bob"]) await ok("POST", "/v2/subscribers", { subscriberId });
    await ok("POST", "/v1/integrations", { identifier: "sendgrid-main", name: "SendGrid", providerId: "sendgrid", channel: "email", active: true, check: false, credentials: { apiKey: SENDGRID_KEY } });
    await ok("POST", "/v1/integrations", { identifier: "slack-main", name: "Slack", providerId: "slack", channel: "chat", active: true, check: false });
    await ok("PUT", "/v1/subscribers/alice/credentials", { providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: SLACK_HOOK } });
    await ok("POST", "/v2/workflows", { workflowId: "welcome", name: "Welcome", tags: ["onboarding"], steps: STEPS });
    devColor = (await ok("GET", "/v1/environments")).find((e: { name: string }) => e.name === "Development").color;
    await ok("POST", "/v1/environment-variables", { key: "BASE_URL", type: "string", values: [{ _environmentId: "env_env0", value: "https://app.example.com" }] });
    await ok("POST", "/v2/layouts", { layoutId: "brand", name: "Brand" });
    await ok("PUT", "/v2/layouts/brand", { name: "Brand", controlValues: { email: { body: HTML, editorType: "html" } } });
    await ok("POST", "/v2/topics", { key: "news", name: "News" });
    await ok("POST", "/v2/topics/news/subscriptions", { subscriptions: ["alice", "bob"] });
  };
  const { emu, ts, stack } = useStack({ program, config: secrets, seed });

  const writes = async () => (await emu.requests()).filter((r) => r.method !== "GET" && !r.path.startsWith("/__emulator")).map((r) => `${r.method} ${r.route}`);

  it("takes every object over with reads alone, but for the credentials the service hides", async () => {
    await emu.clearRequests();
    const up = await ts.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(spec.declared).toBeGreaterThan(0);
    expect(up.summary.resourceChanges?.create).toBe(1 + spec.declared); // the stack and each resource
    // Production does not return an integration's credentials: declared, they are written, once.
    expect(await writes()).toEqual(["PUT /v1/integrations/{integrationId}"]);
  });

  it("then previews no change, and no drift with refresh, with no write", async () => {
    await emu.clearRequests();
    await ts.stack.preview({ expectNoChanges: true });
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
    expect(await writes()).toEqual([]);
  });

  it("a program that differs in one field writes that field of that object alone", async () => {
    // A new stack over the same objects, so that the topic is adopted again, now with another name.
    const other = await stack({ program, projectName: "notify-test", config: secrets });
    try {
      spec.topicName = "Daily news";
      await emu.clearRequests();
      await other.stack.up();
      // Resources apply concurrently: the writes in any order.
      expect((await writes()).sort()).toEqual(["PATCH /v2/topics/{topicKey}", "PUT /v1/integrations/{integrationId}"]);
      expect((await emu.api("GET", "/v2/topics/news")).body.name).toBe("Daily news");
      await other.stack.preview({ expectNoChanges: true, refresh: true });
    } finally {
      spec.topicName = "News";
    }
  });
});
