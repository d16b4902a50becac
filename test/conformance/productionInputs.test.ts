/**
 * Write strictly, as production does: `check` accepts what production accepts and refuses what it
 * refuses, before any request, naming the field and what is allowed (production-notes.md, Second
 * pass: "Requests production accepts that the project refuses today" and "Requests production
 * refuses that the project accepts today"). Also the messages the provider gives for production's
 * own refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotifyApiError, NotifyClient } from "../../provider/client";
import { getEvents } from "../../provider/functions";
import { provider as workflows } from "../../provider/resources/workflow";
import { credentialsHint, nearProviderId, provider as credentials, SUBSCRIBER_CREDENTIALS } from "../../provider/resources/subscriberCredentials";
import { SUBSCRIBER_PROVIDERS } from "../../provider/schemas";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { impl } from "../helpers/implementation";

const wf = (steps: unknown[], extra: Record<string, unknown> = {}) => ({ workflowId: "w", name: "W", steps, ...extra });
const failures = async (inputs: Record<string, unknown>) => (await workflows.check({}, inputs)).failures;
const credFailures = async (inputs: Record<string, unknown>) =>
  (await credentials.check({}, { subscriberId: "alice", credentials: { webhookUrl: "https://h.example.com/x" }, ...inputs })).failures;

describe("workflow inputs production accepts", () => {
  it("accepts the email controls from, replyTo, preheader and useProviderDefaults", async () => {
    expect(await failures(wf([{ name: "Email", type: "email", controlValues: {
      subject: "S", body: "B", from: { email: "team@example.com", name: "Team" }, replyTo: "help@example.com", preheader: "P", useProviderDefaults: true,
    } }]))).toEqual([]);
  });

  it("accepts the chat control editorType block or text, and refuses another", async () => {
    expect(await failures(wf([{ name: "Chat", type: "chat", controlValues: { body: "B", editorType: "text" } }]))).toEqual([]);
    expect(await failures(wf([{ name: "Chat", type: "chat", controlValues: { body: "B", editorType: "html" } }]))).toEqual([
      { property: "steps[0].controlValues.editorType", reason: 'steps[0].controlValues.editorType: must be one of "block", "text" (given "html")' },
    ]);
  });

  it("accepts http_request steps and checks their method, url and key-value lists", async () => {
    expect(await failures(wf([{ name: "Call", type: "http_request", controlValues: {
      method: "PATCH", url: "https://h.example.com", headers: [{ key: "a", value: "b" }], body: "{}", responseBodySchema: { type: "object" },
      enforceSchemaValidation: true, continueOnFailure: false,
    } }]))).toEqual([]);
    const bad = await failures(wf([{ name: "Call", type: "http_request", controlValues: { method: "HEAD", headers: [{ key: "a" }] } }]));
    expect(bad.map((f) => f.reason)).toEqual([
      'steps[0].controlValues.method: must be one of "GET", "POST", "PUT", "PATCH", "DELETE" (given "HEAD")',
      "steps[0].controlValues.url: an http_request step requires a url (string)",
      "steps[0].controlValues.headers[0].value: is required (string)",
    ]);
    expect((await failures(wf([{ name: "Call", type: "http_request" }]))).map((f) => f.reason)).toEqual(["steps[0].controlValues: an http_request step requires controlValues with a method and a url"]);
  });

  it("takes workflow and step ids by the service's slug rule (dots between segments, no separator at either end)", async () => {
    expect(await failures(wf([{ name: "Inbox", type: "in_app", stepId: "inbox.v2", controlValues: { body: "b" } }], { workflowId: "news.daily" }))).toEqual([]);
    for (const workflowId of ["news-", "-news", "news..daily", "news daily"]) {
      expect((await failures(wf([{ name: "Inbox", type: "in_app", controlValues: { body: "b" } }], { workflowId }))).map((f) => f.property), workflowId).toEqual(["workflowId"]);
    }
  });
});

describe("inputs production refuses", () => {
  it("refuses a throttle unit other than minutes, hours or days, and an amount below 1", async () => {
    expect(await failures(wf([{ name: "T", type: "throttle", controlValues: { type: "fixed", amount: 2, unit: "days", threshold: 1 } }]))).toEqual([]);
    expect((await failures(wf([{ name: "T", type: "throttle", controlValues: { type: "fixed", amount: 0, unit: "weeks" } }]))).map((f) => f.reason)).toEqual([
      "steps[0].controlValues.amount: Too small: expected number to be >=1",
      'steps[0].controlValues.unit: must be one of "minutes", "hours", "days" (given "weeks")',
    ]);
  });

  // Found by the property tests (test/component/provider/resources/properties.test.ts): the
  // contract's InAppControlDto gives body and subject minLength 1, DelayControlDto,
  // DigestControlDto and LookBackWindowDto amount minimum 1.
  it("refuses an empty in-app subject and a delay or digest amount below 1, as the contract does", async () => {
    const reasons = async (s: Record<string, unknown>) => (await failures(wf([s]))).map((f) => f.reason);
    expect(await reasons({ name: "Inbox", type: "in_app", controlValues: { body: "b", subject: "" } })).toEqual(["steps[0].controlValues.subject: must not be empty (leave it out instead)"]);
    expect(await reasons({ name: "Wait", type: "delay", controlValues: { amount: 0, unit: "hours" } })).toEqual(["steps[0].controlValues.amount: Too small: expected number to be >=1"]);
    expect(await reasons({ name: "Digest", type: "digest", controlValues: { amount: 0, unit: "hours" } })).toEqual(["steps[0].controlValues.amount: Too small: expected number to be >=1"]);
    expect(await reasons({ name: "Email", type: "email", controlValues: { subject: "", body: "b" } })).toEqual(["steps[0].controlValues.subject: must not be empty"]);
  });

  it("refuses step types in the getEvents channels filter before any request", async () => {
    await expect(getEvents({ channels: ["digest" as never] })).rejects.toThrow(/getEvents: invalid arguments: channels\[0\]: must be one of "in_app", "email", "sms", "chat", "push", "tool"/);
    // A channel type passes the check (and then needs a connection, which this process has not).
    await expect(getEvents({ channels: ["tool"] })).rejects.toThrow(/no connection/);
  });
});

describe("subscriber provider ids", () => {
  it("accepts the contract's newer providers and an unknown id of the same shape", async () => {
    for (const providerId of ["webex-messaging", "line", "telegram", "sendblue", "novu-web-chat", "novu-slack", "brand-new_chat"]) {
      expect(await credFailures({ providerId }), providerId).toEqual([]);
    }
  });

  // production-notes.md, Second pass: the service's chat/push list also holds webex-messaging, line,
  // telegram, sendblue and its own web chat (`novu-web-chat`: the chat provider schemas of the
  // service's packages/shared/src/consts/providers/, spelt `platform-web-chat` in this project).
  it("knows the newer chat providers in the typo rule, and names every known id in the schema description", async () => {
    for (const id of ["webex-messaging", "line", "telegram", "sendblue", "platform-web-chat"]) {
      expect(SUBSCRIBER_PROVIDERS, id).toContain(id);
      expect(SUBSCRIBER_CREDENTIALS.inputs.providerId.doc, id).toContain(`\`${id}\``);
    }
    expect(nearProviderId("platform-webchat")).toBe("platform-web-chat");
    expect(nearProviderId("telegramm")).toBe("telegram");
    expect(nearProviderId("sendblu")).toBe("sendblue");
    for (const id of SUBSCRIBER_PROVIDERS) expect(SUBSCRIBER_CREDENTIALS.inputs.providerId.doc).toContain(`\`${id}\``);
  });

  it("refuses a near miss of a known id with a suggestion, and an id of another shape naming the rule", async () => {
    expect(nearProviderId("slak")).toBe("slack");
    expect(nearProviderId("Slack")).toBe("slack");
    expect(nearProviderId("onesignal")).toBe("one-signal");
    expect(nearProviderId("linear")).toBeUndefined();
    const [typo] = await credFailures({ providerId: "slak" });
    expect(typo!.reason).toMatch(/^providerId: unknown provider "slak": did you mean "slack"\? Known: slack, discord/);
    const [shape] = await credFailures({ providerId: "My Provider" });
    expect(shape!.reason).toMatch(/^providerId: must be a provider id \(lowercase letters and digits, with - or _ between them\): one of slack, /);
  });

  it("refuses a repeated device token, which the service would keep once", async () => {
    const [f] = await credFailures({ providerId: "fcm", credentials: { deviceTokens: ["a", "b", "a"] } });
    expect(f!.reason).toBe("credentials.deviceTokens: must not repeat a token (the service keeps one of each)");
  });
});

describe("production's refusals of a credentials write", () => {
  const apiError = (serviceMessage: string, status = 400) =>
    new NotifyApiError({ status, method: "PUT", path: "/v1/subscribers/{subscriberId}/credentials", serviceMessage, attempts: 1 });

  it("says to declare an active integration and pass its identifier when the environment has none", () => {
    const hint = credentialsHint(apiError("Subscribers environment (e1) do not have active slack integration."), { subscriberId: "alice", providerId: "slack" });
    expect(hint).toBe("Declare an active slack Integration (active: true) in this stack and pass its identifier as integrationIdentifier " +
      "(integrationIdentifier: integration.identifier), or list it in dependsOn, so that it exists and is active before the credentials are set");
    expect(credentialsHint(apiError("SubscriberId: alice not found"), { subscriberId: "alice", providerId: "slack" })).toMatch(/^Subscriber "alice" does not exist; create it first/);
    expect(credentialsHint(apiError("something else"), { subscriberId: "alice", providerId: "slack" })).toBeUndefined();
  });

  describe("against the emulator", () => {
    let emu: TestEmulator;
    let disconnect = () => {};
    beforeAll(async () => {
      emu = await startTestEmulator();
      disconnect = emu.connectEnvironment();
      await emu.api("POST", "/v2/subscribers", { subscriberId: "alice" });
    });
    afterAll(async () => {
      disconnect();
      await emu.close();
    });

    it("fails create with that advice when no active integration of the provider exists", async () => {
      await emu.api("POST", "/v1/integrations", { identifier: "slack-off", providerId: "slack", channel: "chat", active: false });
      await expect(credentials.create({ subscriberId: "alice", providerId: "slack", integrationIdentifier: "slack-off", credentials: { webhookUrl: "https://h.example.com/x" } }))
        .rejects.toThrow(/^Unable to set slack credentials of subscriber "alice": 400 Bad Request: Subscribers environment \(\w+\) do not have active slack integration\. Declare an active slack Integration/);
    });

    // Production's entry is { providerId, _integrationId, credentials } (update-subscriber-channel
    // use case, addChannelToSubscriber); api.md's may carry integrationIdentifier. Both are found.
    it("finds its entry by the named integration's _id, as production stores it, and by integrationIdentifier where a server keeps it", async () => {
      const slack = (await emu.api("POST", "/v1/integrations", { identifier: "slack-entry", providerId: "slack", channel: "chat", active: true })).body;
      const inputs = { subscriberId: "alice", providerId: "slack", integrationIdentifier: "slack-entry", credentials: { webhookUrl: "https://h.example.com/e" } };
      const { id, outs } = await credentials.create(inputs);
      const entry = (await emu.api("GET", "/v2/subscribers/alice")).body.channels.find((c: { providerId: string }) => c.providerId === "slack");
      expect(entry).toEqual({ providerId: "slack", _integrationId: slack._id, credentials: { webhookUrl: "https://h.example.com/e" } });
      expect(outs).toMatchObject({ integrationIdentifier: "slack-entry", integrationId: slack._id });
      const read = await credentials.read(id, outs);
      expect((read as { inputs: Record<string, unknown> }).inputs).toEqual(inputs);

      await emu.api("POST", "/__emulator/seed", { subscribers: [{ subscriberId: "carol", channels: [{ providerId: "discord", integrationIdentifier: "discord-x", _integrationId: "0123456789abcdef01234567", credentials: { webhookUrl: "https://h.example.com/c" } }] }] });
      const carol = await credentials.read("carol/discord/discord-x", { declaredKeys: ["subscriberId", "providerId", "integrationIdentifier", "credentials"], subscriberId: "carol", providerId: "discord", integrationIdentifier: "discord-x", credentials: { webhookUrl: "https://h.example.com/c" } });
      expect(carol.id).toBe("carol/discord/discord-x");
      await credentials.delete(id, outs);
    });

    it("never shows a credential field production drops as drift, and shows a kept one changed by hand", async () => {
      await emu.api("POST", "/v1/integrations", { identifier: "grafana", providerId: "grafana-on-call", channel: "chat", active: true });
      const inputs = { subscriberId: "alice", providerId: "grafana-on-call", integrationIdentifier: "grafana", credentials: { webhookUrl: "https://h.example.com/g", alertUid: "a1", title: "T" } };
      const { id, outs } = await credentials.create(inputs);
      const stored = (await emu.api("GET", "/v2/subscribers/alice")).body.channels.find((c: { providerId: string }) => c.providerId === "grafana-on-call");
      expect(stored.credentials).toEqual({ webhookUrl: "https://h.example.com/g" });
      const read = await credentials.read(id, outs);
      expect((read as { inputs: Record<string, unknown> }).inputs.credentials).toEqual(inputs.credentials);
      expect((await credentials.diff(id, read.props, inputs)).changes).toBe(false);
      await emu.api("PUT", "/v1/subscribers/alice/credentials", { providerId: "grafana-on-call", integrationIdentifier: "grafana", credentials: { webhookUrl: "https://h.example.com/hand" } });
      const drifted = await credentials.read(id, read.props);
      expect((drifted as { inputs: { credentials: Record<string, unknown> } }).inputs.credentials).toEqual({ ...inputs.credentials, webhookUrl: "https://h.example.com/hand" });
    });
  });
});

// The service deletes an integration only within the API key's environment
// (apps/api/src/app/integrations/usecases/remove-integration/remove-integration.usecase.ts:
// `delete({ _environmentId: command.environmentId, _id })`), while its listing spans the
// organisation. Found by the property tests (test/component/provider/resources/properties.test.ts):
// a 404 there counted as deleted.
describe("an integration in another environment of the organisation", () => {
  it("fails its delete, naming the environment, instead of counting the service's 404 as done", async () => {
    const emu = await startTestEmulator();
    const disconnect = emu.connectEnvironment();
    try {
      const integrations = impl("integration");
      const { id, outs } = await integrations.create({ identifier: "elsewhere", providerId: "sendgrid", channel: "email", environmentId: "env_other" });
      await expect(integrations.delete(id, outs)).rejects.toThrow(
        /^Unable to delete integration "elsewhere": 404 Not Found: .*\. The integration is in environment env_other, which this API key cannot change; delete it with that environment's API key/);
      const mine = await integrations.create({ identifier: "mine", providerId: "sendgrid", channel: "email" });
      await integrations.delete(mine.id, mine.outs);
      await integrations.delete(mine.id, mine.outs); // gone already: done
    } finally {
      disconnect();
      await emu.close();
    }
  });
});

describe("production's validation failures", () => {
  it("name the validator's messages from errors.general (422 Validation Error)", async () => {
    const emu = await startTestEmulator();
    try {
      const client = new NotifyClient({ apiUrl: emu.url, apiKey: emu.key });
      const err = await client.workflows.create({ workflowId: "t", name: "T", steps: [{ name: "T", type: "throttle", controlValues: { type: "fixed", amount: 1, unit: "weeks" } }] })
        .then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(NotifyApiError);
      expect((err as Error).message).toBe("422 Unprocessable Entity: Validation Error (steps.0.controlValues.unit: must be equal to one of the allowed values: minutes, hours, days)");
    } finally {
      await emu.close();
    }
  });
});
