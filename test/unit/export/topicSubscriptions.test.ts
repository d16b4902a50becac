/**
 * The exporter and topic subscriptions: the read splits each topic's subscriptions into plain
 * memberships (the Topic's `subscribers`) and the others, each read whole (a stub client records
 * the calls); the model declares the others as TopicSubscriptions after their Topic and Workflows,
 * by their outputs, and skips, with the reason, one whose subscriber has the plain membership too.
 */
import { describe, expect, it } from "vitest";
import { buildModel, Ref, type RawEnvironment } from "../../../export/model";
import { readEnvironment } from "../../../export/read";
import { projectFiles } from "../../../export/project";
import type { NotifyClient } from "../../../provider/client";

const ENV = "env_a";
const now = "2026-01-01T00:00:00.000Z";
const workflow = (workflowId: string) => ({
  _id: `wf-${workflowId}`, workflowId, slug: workflowId, name: workflowId, description: "", tags: [], active: true, validatePayload: false,
  isTranslationEnabled: false, updatedAt: now, createdAt: now, origin: "external", preferences: {}, status: "ACTIVE", severity: "none",
  steps: [{ _id: "st-0", stepId: "inbox", name: "Inbox", type: "in_app", controlValues: { body: "hi" } }],
});
const premium = { "==": [{ var: "payload.tier" }, "premium"] };
const details = (identifier: string, name?: string) => ({
  id: `sub-${identifier}`, identifier, ...(name ? { name } : {}), contextKeys: [],
  preferences: [{ subscriptionId: identifier, workflow: { id: "wf-digest", identifier: "digest" }, enabled: true, condition: premium }],
});

function raw(): RawEnvironment {
  return {
    environment: { _id: ENV, name: "Alpha" },
    integrations: [], variables: [], layouts: [],
    workflows: [workflow("digest")],
    topics: [{ topic: { _id: "t-news", key: "news", name: "News" }, subscribers: ["ops"] }],
    topicSubscriptions: [
      { topic: "news", subscriber: "alice", identifier: "alice-vip", plainToo: false, subscription: details("alice-vip", "Alice, premium") },
      { topic: "news", subscriber: "ops", identifier: "ops-vip", plainToo: true, subscription: details("ops-vip") },
      { topic: "gone-topic", subscriber: "bob", identifier: "bob-vip", plainToo: false, subscription: { ...details("bob-vip"), contextKeys: ["tenant:acme"] } },
    ],
    unread: [],
  } as unknown as RawEnvironment;
}

describe("topic subscriptions in the model", () => {
  const model = buildModel(raw());
  const subs = model.resources.filter((r) => r.kind === "TopicSubscription");

  it("declares each subscription after its topic and workflows, by their outputs, with the id the provider's import takes", () => {
    expect(model.resources.map((r) => r.kind)).toEqual(["Workflow", "Topic", "TopicSubscription", "TopicSubscription"]);
    expect(subs.map((r) => [r.key, r.id])).toEqual([["TopicSubscription/alice-vip", "news/alice-vip"], ["TopicSubscription/bob-vip", "gone-topic/bob-vip"]]);
    expect(subs[0]!.inputs).toEqual({
      topic: new Ref("Topic/news", "key"), subscriber: "alice", identifier: "alice-vip", name: "Alice, premium",
      preferences: [{ workflowId: new Ref("Workflow/digest", "workflowId"), enabled: true, condition: premium }],
    });
    // A topic not exported stays a key; context keys are declared only when there are some.
    expect(subs[1]!.inputs).toMatchObject({ topic: "gone-topic", contextKeys: ["tenant:acme"] });
  });

  it("skips a subscription whose subscriber has the topic's plain membership too, saying why", () => {
    expect(model.skipped).toEqual([expect.objectContaining({ kind: "TopicSubscription", name: "ops-vip", reason: expect.stringMatching(/also has the plain membership of topic "news"/) })]);
  });

  it("writes the subscription with its references", () => {
    const ts = projectFiles(model, "typescript", { frontEnd: "dynamic", project: "p", packageVersion: "1.0.0", pulumiVersion: "3.0.0" })["notify.generated.ts"]!;
    expect(ts).toMatch(/new notify\.TopicSubscription\("alice-vip", \{\n {2}topic: news\.key,\n {2}subscriber: "alice",/);
    expect(ts).toContain("workflowId: digest.workflowId,");
  });
});

describe("reading topic subscriptions", () => {
  it("gives the Topic its plain memberships and reads every other subscription whole, marking a subscriber that has both", async () => {
    const calls: string[] = [];
    const listed = [
      { _id: "1", identifier: "tk_news:si_alice", subscriber: { subscriberId: "alice" }, contextKeys: [] },
      { _id: "2", identifier: "alice-vip", subscriber: { subscriberId: "alice" }, contextKeys: [] },
      { _id: "3", identifier: "bob-vip", subscriber: { subscriberId: "bob" } },
      // A context of its own makes a default identifier a subscription of its own.
      { _id: "4", identifier: "tk_news:si_cy:ctx_tenant:acme", subscriber: { subscriberId: "cy" }, contextKeys: ["tenant:acme"] },
    ];
    const api = {
      environments: { list: async () => [{ _id: ENV, name: "Alpha", apiKeys: [{ key: "k" }] }] },
      integrations: { list: async () => [] },
      layouts: { list: async () => ({ layouts: [], totalCount: 0 }) },
      workflows: { list: async () => ({ workflows: [], totalCount: 0 }) },
      topics: {
        list: async () => ({ data: [{ _id: "t-news", key: "news" }], next: null, totalCount: 1 }),
        listSubscriptions: async (key: string, q: { after?: string }) => {
          calls.push(`list ${key} after=${q.after ?? ""}`);
          return q.after ? { data: listed.slice(2), next: null } : { data: listed.slice(0, 2), next: "2" };
        },
      },
      topicSubscriptions: { get: async (key: string, identifier: string) => { calls.push(`get ${key}/${identifier}`); return details(identifier); } },
      environmentVariables: { list: async () => [] },
      contexts: { list: async () => ({ data: [], next: null }) },
      domains: { list: async () => ({ data: [], next: null }) },
    };
    const empty = { list: async () => [] };
    const client = new Proxy(api, { get: (t, k) => (k in t ? t[k as keyof typeof t] : empty) }) as unknown as NotifyClient;
    const r = await readEnvironment(client, { apiKey: "k", concurrency: 1 });
    expect(r.topics.map((t) => t.subscribers)).toEqual([["alice"]]);
    expect(r.topicSubscriptions!.map((s) => [s.identifier, s.subscriber, s.plainToo])).toEqual([
      ["alice-vip", "alice", true], ["bob-vip", "bob", false], ["tk_news:si_cy:ctx_tenant:acme", "cy", false],
    ]);
    expect(calls.filter((c) => c.startsWith("get "))).toEqual(["get news/alice-vip", "get news/bob-vip", "get news/tk_news:si_cy:ctx_tenant:acme"]);
  });
});
