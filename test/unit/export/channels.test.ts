/**
 * The exporter and the channel kinds: a connection's access token (which the service answers in
 * clear) becomes a stack config secret holding its value, never a literal of the program; its
 * integration is the exported Integration's output; its mode is written only where it is not the
 * default; an endpoint names its integration and connection by the exported resources' outputs;
 * and the read lists every connection and endpoint through the client.
 */
import { describe, expect, it } from "vitest";
import { buildModel, Ref, SecretRef, type RawEnvironment } from "../../../export/model";
import { readEnvironment } from "../../../export/read";
import { projectFiles } from "../../../export/project";
import type { NotifyClient } from "../../../provider/client";

const ENV = "env_a";
const now = "2026-01-01T00:00:00.000Z";
const TOKEN = "xoxb-exported-token";

const integration = { _id: "i1", _environmentId: ENV, _organizationId: "o", identifier: "slack-ops", name: "Slack", providerId: "slack", channel: "chat", active: true, deleted: false, primary: false, conditions: [] };
const connection = (identifier: string, over: Record<string, unknown>) => ({
  identifier, channel: "chat", providerId: "slack", integrationIdentifier: "slack-ops", subscriberId: null, contextKeys: [],
  workspace: { id: "T1" }, auth: { accessToken: TOKEN }, createdAt: now, updatedAt: now, ...over,
});

const endpoint = (identifier: string, over: Record<string, unknown>) => ({
  identifier, channel: "chat", providerId: "slack", integrationIdentifier: "slack-ops", connectionIdentifier: null, subscriberId: "alice", contextKeys: [],
  type: "slack_channel", endpoint: { channelId: "C1" }, createdAt: now, updatedAt: now, ...over,
});

function raw(): RawEnvironment {
  return {
    environment: { _id: ENV, name: "Alpha" }, integrations: [integration], workflows: [], layouts: [], topics: [], variables: [],
    channelConnections: [
      connection("alice-slack", { subscriberId: "alice", workspace: { id: "T1", name: "Acme" } }),
      connection("acme-slack", { contextKeys: ["tenant:acme"], auth: { accessToken: "xoxb-other" } }),
    ],
    channelEndpoints: [
      endpoint("alerts", { connectionIdentifier: "acme-slack", contextKeys: ["tenant:acme"] }),
      endpoint("elsewhere", { integrationIdentifier: "teams-gone", connectionIdentifier: "gone", type: "ms_teams_user", endpoint: { userId: "29:1" } }),
    ],
  } as unknown as RawEnvironment;
}

describe("the model of channel connections", () => {
  const model = buildModel(raw());
  const byKey = (key: string) => model.resources.find((r) => r.key === key)!;

  it("declares each connection by its identifier, its token a config secret with the value the service answered", () => {
    expect(model.resources.filter((r) => r.kind !== "ChannelEndpoint").map((r) => r.key)).toEqual(["Integration/slack-ops", "ChannelConnection/acme-slack", "ChannelConnection/alice-slack"]);
    const alice = byKey("ChannelConnection/alice-slack");
    expect(alice.id).toBe("alice-slack");
    expect(alice.inputs).toEqual({
      identifier: "alice-slack", integrationIdentifier: new Ref("Integration/slack-ops", "identifier"), subscriberId: "alice",
      workspace: { id: "T1", name: "Acme" }, auth: { accessToken: expect.any(SecretRef) },
    });
    const key = ((alice.inputs.auth as Record<string, unknown>).accessToken as SecretRef).key;
    expect(model.secrets).toContainEqual(expect.objectContaining({ key, value: TOKEN, what: "auth of channel connection alice-slack" }));
    expect(byKey("ChannelConnection/acme-slack").inputs).toMatchObject({ connectionMode: "shared", context: { tenant: "acme" } });
  });

  it("declares each endpoint after its integration and connection, naming them by their outputs where they are exported", () => {
    expect(model.resources.map((r) => r.kind).slice(-2)).toEqual(["ChannelEndpoint", "ChannelEndpoint"]);
    expect(byKey("ChannelEndpoint/alerts").inputs).toEqual({
      identifier: "alerts", subscriberId: "alice", integrationIdentifier: new Ref("Integration/slack-ops", "identifier"), type: "slack_channel",
      endpoint: { channelId: "C1" }, connectionIdentifier: new Ref("ChannelConnection/acme-slack", "identifier"), context: { tenant: "acme" },
    });
    expect(byKey("ChannelEndpoint/elsewhere").inputs).toMatchObject({ integrationIdentifier: "teams-gone", connectionIdentifier: "gone", endpoint: { userId: "29:1" } });
  });

  it("writes no token in the program", () => {
    for (const language of ["typescript", "python", "go"] as const) {
      const files = projectFiles(model, language, { frontEnd: "native", project: "p", packageVersion: "1.0.0", pulumiVersion: "3.0.0" });
      const text = Object.entries(files).filter(([f]) => f !== "README.md").map(([, t]) => t).join("\n");
      expect(text, language).not.toContain(TOKEN);
      expect(text, language).not.toContain("xoxb-other");
    }
  });
});

describe("the channel kinds beside an exported subscriber", () => {
  // Exported with --subscriber alice: the connection and endpoint of alice name her by the
  // Subscriber's output, as her credentials and preferences do, so the engine makes (or imports) her
  // first; bob, not exported, stays a plain string.
  const alice = { _id: "s1", subscriberId: "alice", _environmentId: ENV, _organizationId: "o", createdAt: now, updatedAt: now };
  const model = buildModel({
    ...raw(),
    subscribers: [alice],
    channelConnections: [connection("alice-slack", { subscriberId: "alice" }), connection("bob-slack", { subscriberId: "bob" })],
    channelEndpoints: [endpoint("alice-dm", {}), endpoint("bob-dm", { subscriberId: "bob" })],
  } as unknown as RawEnvironment);
  const inputsOf = (key: string) => model.resources.find((r) => r.key === key)!.inputs;

  it("names an exported subscriber by the Subscriber's subscriberId output", () => {
    expect(inputsOf("ChannelConnection/alice-slack").subscriberId).toEqual(new Ref("Subscriber/alice", "subscriberId"));
    expect(inputsOf("ChannelEndpoint/alice-dm").subscriberId).toEqual(new Ref("Subscriber/alice", "subscriberId"));
    expect(inputsOf("ChannelConnection/bob-slack").subscriberId).toBe("bob");
    expect(inputsOf("ChannelEndpoint/bob-dm").subscriberId).toBe("bob");
  });

  it("writes the reference in every language's program", () => {
    for (const language of ["typescript", "python", "go", "yaml"] as const) {
      const files = projectFiles(model, language, { frontEnd: "native", project: "p", packageVersion: "1.0.0", pulumiVersion: "3.0.0" });
      const text = Object.entries(files).filter(([f]) => f !== "README.md").map(([, t]) => t).join("\n");
      // One reference from each of alice's connection and endpoint; bob's stay literals.
      const refs = text.match(language === "yaml" ? /\$\{alice\.subscriberId\}/g : language === "go" ? /alice\.SubscriberId/g : language === "python" ? /alice\.subscriber_id/g : /alice\.subscriberId/g);
      expect(refs?.length, language).toBe(2);
    }
  });
});

describe("reading channel connections", () => {
  it("lists every connection and endpoint of the environment through the client", async () => {
    const calls: string[] = [];
    const api: Record<string, unknown> = {
      environments: { list: async () => [{ _id: ENV, name: "Alpha", apiKeys: [{ key: "k" }] }] },
      // The paged listings of an environment that holds nothing else.
      layouts: { list: async () => ({ layouts: [], totalCount: 0 }) },
      workflows: { list: async () => ({ workflows: [], totalCount: 0 }) },
      topics: { list: async () => ({ data: [], next: null }) },
      contexts: { list: async () => ({ data: [], next: null }) },
      domains: { list: async () => ({ data: [], next: null }) },
      channelConnections: { list: async () => { calls.push("channel connections"); return [connection("c1", { subscriberId: "alice" })]; } },
      channelEndpoints: { list: async () => { calls.push("channel endpoints"); return [endpoint("e1", {})]; } },
    };
    const empty = { list: async () => [] };
    const client = new Proxy(api, { get: (t, k) => (k in t ? t[k as string] : empty) }) as unknown as NotifyClient;
    const lines: string[] = [];
    const r = await readEnvironment(client, { apiKey: "k", progress: (l) => lines.push(l) });
    expect(calls).toEqual(["channel connections", "channel endpoints"]);
    expect(r.channelConnections!.map((c) => c.identifier)).toEqual(["c1"]);
    expect(r.channelEndpoints!.map((c) => c.identifier)).toEqual(["e1"]);
    expect(lines).toEqual(expect.arrayContaining(["channel connections: 1", "channel endpoints: 1"]));
  });
});
