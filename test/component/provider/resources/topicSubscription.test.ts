/**
 * The TopicSubscription implementation module, and the Topic's side of "one membership, one way"
 * (from source), against an emulator in this process: what each lifecycle step sends and refuses,
 * read off the emulator's request log. The service's facts are cited in
 * test/conformance/topicSubscriptions.test.ts; here, what the provider makes of them.
 */
import { describe, expect, it } from "vitest";
import { checked, emulatorPerBlock, impl } from "../../../helpers/implementation";
import * as config from "../../../../provider/config";
import { getTopicSubscriptions } from "../../../../provider/functions";
import * as lifecycle from "../../../../provider/resources/lifecycle";

describe.each(["production", "spec"] as const)("TopicSubscription lifecycle (%s mode)", (mode) => {
  const emulator = emulatorPerBlock({ mode }, async (emu) => {
    for (const subscriberId of ["alice", "bob"]) await emu.api("POST", "/v2/subscribers", { subscriberId });
    for (const workflowId of ["digest", "alerts"]) {
      await emu.api("POST", "/v2/workflows", { workflowId, name: workflowId, active: true, steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "hi" } }] });
    }
    await emu.api("POST", "/v2/topics", { key: "news" });
  });
  const sub = impl("topicSubscription");
  const topic = impl("topic");
  const api = (method: string, path: string, body?: unknown) => emulator().api(method, path, body);
  const writes = async () => (await emulator().requests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.route} ${r.status}`);
  const vip = { topic: "news", subscriber: "alice", identifier: "alice-vip" };
  const premium = { "==": [{ var: "payload.tier" }, "premium"] };

  it("creates with one subscribe naming the identifier, with the preferences in the filter form with enabled, and reads them back equal", async () => {
    const inputs = await checked(sub, { ...vip, name: "Alice, premium", preferences: [{ workflowId: "digest", condition: premium }, { workflowId: "alerts", enabled: false }] });
    // Sorted by workflow, enabled filled in: the declaration in the one form the service's answer compares with.
    expect(inputs.preferences).toEqual([{ workflowId: "alerts", enabled: false }, { workflowId: "digest", enabled: true, condition: premium }]);
    const { id, outs } = await sub.create(inputs);
    expect(id).toBe("news/alice-vip");
    const log = (await emulator().requests()).map((r) => `${r.method} ${r.route} ${JSON.stringify(r.body ?? null)}`);
    expect(log.filter((l) => !l.startsWith("GET "))).toEqual(['POST /v2/topics/{topicKey}/subscriptions {"subscriptions":[{"subscriberId":"alice","identifier":"alice-vip","name":"Alice, premium"}],' +
      `"preferences":[{"filter":{"workflowIds":["alerts"]},"enabled":false},{"filter":{"workflowIds":["digest"]},"enabled":true,"condition":${JSON.stringify(premium)}}]}`]);
    expect((await sub.diff(id, outs, inputs)).changes).toBe(false);
    const read = await sub.read(id, outs);
    expect(read.inputs).toEqual(inputs);
  });

  it("shows a preference added by hand as drift of the whole list, and the update replaces the list with the declared one", async () => {
    const inputs = await checked(sub, { ...vip, preferences: [{ workflowId: "digest", enabled: false }] });
    const { id, outs } = await sub.create(inputs);
    await api("PATCH", "/v2/topics/news/subscriptions/alice-vip", { preferences: [{ filter: { workflowIds: ["digest"] }, enabled: false }, { filter: { workflowIds: ["alerts"] }, enabled: false }] });
    const read = await sub.read(id, outs);
    const diff = await sub.diff(id, read.props, inputs);
    expect(diff.changed).toEqual(["preferences"]);
    expect(diff.replaces).toEqual([]);
    await emulator().clearRequests();
    const { outs: after } = await sub.update(id, read.props, inputs);
    expect(await writes()).toEqual(["PATCH /v2/topics/{topicKey}/subscriptions/{identifier} 200"]);
    expect(after.preferences).toEqual(inputs.preferences);
    expect((await api("GET", "/v2/topics/news/subscriptions/alice-vip")).body.preferences).toHaveLength(1);
  });

  // The service's GET answers 204 for a subscription that is gone (topics.controller.ts).
  it("reads a subscription deleted by hand, or with its topic, as gone", async () => {
    const a = await sub.create(await checked(sub, vip));
    await api("DELETE", "/v2/topics/news/subscriptions", { subscriptions: [{ identifier: "alice-vip" }] });
    expect((await sub.read(a.id, a.outs)).id).toBe("");
    const b = await sub.create(await checked(sub, vip));
    await api("DELETE", "/v2/topics/news");
    expect((await sub.read(b.id, b.outs)).id).toBe("");
    // Deleting what is gone counts as done.
    await sub.delete(b.id, b.outs);
  });

  it("deletes by the identifier alone, leaving the subscriber's other subscriptions of the topic", async () => {
    const a = await sub.create(await checked(sub, vip));
    await sub.create(await checked(sub, { ...vip, identifier: "alice-other" }));
    await emulator().clearRequests();
    await sub.delete(a.id, a.outs);
    expect((await emulator().requests()).map((r) => JSON.stringify(r.body))).toEqual(['{"subscriptions":[{"identifier":"alice-vip"}]}']);
    expect((await api("GET", "/v2/topics/news/subscriptions/alice-other")).status).toBe(200);
  });

  it("imports by `<topic key>/<identifier>`, finding the subscriber the service's answer does not name", async () => {
    const { id } = await sub.create(await checked(sub, { ...vip, name: "VIP" }));
    const first = await sub.read(id, { declaredKeys: ["topic", "subscriber", "identifier", "name", "preferences", "contextKeys"] });
    expect(first.props).toMatchObject({ topic: "news", subscriber: "alice", identifier: "alice-vip", name: "VIP", preferences: [] });
  });

  // Found by the exported program through the native plugin (test/e2e/export.test.ts): an import's
  // state declared `contextKeys: []`, which a program leaving them out removes, a replacement.
  it("imports no context keys when the service holds none, so a program leaving them out (or declaring none) shows no change", async () => {
    const { id } = await sub.create(await checked(sub, { ...vip, name: "VIP" }));
    // What the native plugin's id-only read does: every input key declared, then those the service returned.
    const first = await sub.read(id, { declaredKeys: ["topic", "subscriber", "identifier", "name", "preferences", "contextKeys"] });
    const present = Object.keys(first.props).filter((k) => ["topic", "subscriber", "identifier", "name", "preferences", "contextKeys"].includes(k));
    const imported = await sub.read(id, { ...first.props, declaredKeys: present });
    expect(present).not.toContain("contextKeys");
    for (const program of [{ ...vip, name: "VIP", preferences: [] }, { ...vip, name: "VIP", preferences: [], contextKeys: [] }]) {
      const declared = await checked(sub, program);
      expect(declared).not.toHaveProperty("contextKeys");
      expect((await sub.diff(id, imported.props, declared)).changes).toBe(false);
    }
  });

  it("fails a preference for a workflow the environment lacks, naming it, and removes the subscription it made", async () => {
    const inputs = await checked(sub, { ...vip, preferences: [{ workflowId: "digest" }, { workflowId: "ghost" }] });
    await expect(sub.create(inputs)).rejects.toThrow(/preferences\[1\]\.workflowId: no workflow "ghost" in this environment \(the service skips an unknown workflow without an error\)/);
    expect((await api("GET", "/v2/topics/news/subscriptions/alice-vip")).status).toBe(204);
  });

  it("fails a subscription of a topic that does not exist rather than let the subscribe make it", async () => {
    await expect(sub.create(await checked(sub, { ...vip, topic: "nowhere" }))).rejects.toThrow(/topic "nowhere" does not exist: declare it with a Topic/);
    expect((await api("GET", "/v2/topics/nowhere")).status).toBe(404);
  });

  it("fails a subscription of a subscriber that does not exist, naming it", async () => {
    await expect(sub.create(await checked(sub, { ...vip, subscriber: "ghost" }))).rejects.toThrow(/SUBSCRIBER_NOT_FOUND.*subscriber "ghost" does not exist/);
  });

  // The service takes context only with the organisation's context preferences on (create-subscriptions.usecase.ts).
  it("fails context keys the service ignores, and leaves nothing; takes them with context preferences on", async () => {
    const inputs = await checked(sub, { ...vip, contextKeys: ["tenant:acme"] });
    await expect(sub.create(inputs)).rejects.toThrow(/contextKeys: the service stored \[\] for \["tenant:acme"\]: it takes context only while the organisation's context preferences are on/);
    expect((await api("GET", "/v2/topics/news/subscriptions/alice-vip")).status).toBe(204);
    await api("POST", "/__emulator/behaviour", { contextPreferences: true });
    try {
      const { id, outs } = await sub.create(inputs);
      expect(outs.contextKeys).toEqual(["tenant:acme"]);
      expect((await sub.read(id, outs)).inputs).toEqual(inputs);
    } finally {
      await api("POST", "/__emulator/behaviour", { contextPreferences: false });
    }
  });

  // The real 3.15.0 server's subscribe answered no contextKeys (production-notes.md, seventh pass):
  // unknown, not none; the subscription is read for what the service stored.
  it("on a server whose subscribe answers no contextKeys, reads them: refuses those ignored, takes those stored, with no drift", async () => {
    await api("POST", "/__emulator/behaviour", { bareSubscribeAnswers: true });
    try {
      const inputs = await checked(sub, { ...vip, contextKeys: ["tenant:acme"] });
      await expect(sub.create(inputs)).rejects.toThrow(/contextKeys: the service stored \[\] for \["tenant:acme"\]/);
      expect((await api("GET", "/v2/topics/news/subscriptions/alice-vip")).status).toBe(204);
      await api("POST", "/__emulator/behaviour", { contextPreferences: true });
      const { id, outs } = await sub.create(inputs);
      expect(outs.contextKeys).toEqual(["tenant:acme"]);
      const read = await sub.read(id, outs);
      expect((await sub.diff(id, read.props, inputs)).changes).toBe(false);
      // Without context asked, nothing more is read than on a server that answers contextKeys.
      const requestsOfCreate = async () => {
        const made = await sub.create(await checked(sub, vip));
        const n = (await emulator().requests()).length;
        await sub.delete(made.id, made.outs);
        await emulator().clearRequests();
        return n;
      };
      await sub.delete(id, outs);
      await emulator().clearRequests();
      const bare = await requestsOfCreate();
      await api("POST", "/__emulator/behaviour", { bareSubscribeAnswers: false });
      expect(await requestsOfCreate()).toBe(bare);
    } finally {
      await api("POST", "/__emulator/behaviour", { bareSubscribeAnswers: false, contextPreferences: false });
    }
  });

  it("refuses an existing identifier without adopt, naming adopt: true, and takes it over with it", async () => {
    await api("POST", "/v2/topics/news/subscriptions", { subscriptions: [{ subscriberId: "alice", identifier: "alice-vip", name: "Made by hand" }] });
    await expect(sub.create(await checked(sub, { ...vip, name: "VIP" }))).rejects.toThrow(/set adopt: true/);
    const { outs } = await sub.create(await checked(sub, { ...vip, name: "VIP", adopt: true }));
    expect(outs.name).toBe("VIP");
  });

  it("does not adopt a subscription of another subscriber under the identifier declared", async () => {
    await api("POST", "/v2/topics/news/subscriptions", { subscriptions: [{ subscriberId: "bob", identifier: "alice-vip" }] });
    await expect(sub.create(await checked(sub, { ...vip, adopt: true }))).rejects.toThrow(/differs in subscriber/);
  });

  it("replaces, deleting first, when the subscriber changes under the same identifier (an identifier is unique in the environment)", async () => {
    const inputs = await checked(sub, vip);
    const { id, outs } = await sub.create(inputs);
    const diff = await sub.diff(id, outs, await checked(sub, { ...vip, subscriber: "bob" }));
    expect(diff).toMatchObject({ replaces: ["subscriber"], deleteBeforeReplace: true });
    expect((await sub.diff(id, outs, await checked(sub, { ...vip, identifier: "alice-vip2" }))).deleteBeforeReplace).toBeUndefined();
  });

  it("getTopicSubscriptions lists a topic's subscriptions, each read whole and marked plain or not; an unknown topic fails", async () => {
    await api("POST", "/v2/topics/news/subscriptions", { subscriptions: ["bob"] });
    await sub.create(await checked(sub, { ...vip, name: "VIP", preferences: [{ workflowId: "digest", condition: premium }] }));
    const { subscriptions } = await getTopicSubscriptions({ topicKey: "news" });
    expect(subscriptions.map((s) => [s.identifier, s.subscriber, s.plain]).sort()).toEqual([["alice-vip", "alice", false], ["tk_news:si_bob", "bob", true]]);
    expect(subscriptions.find((s) => s.identifier === "alice-vip")).toMatchObject({ topic: "news", name: "VIP", preferences: [{ workflowId: "digest", enabled: true, condition: premium }], contextKeys: [] });
    expect((await getTopicSubscriptions({ topicKey: "news", subscriberId: "bob", maxResults: 5 })).subscriptions.map((s) => s.identifier)).toEqual(["tk_news:si_bob"]);
    await expect(getTopicSubscriptions({ topicKey: "nope" })).rejects.toThrow(/404/);
  });

  describe("one membership, one way", () => {
    it("refuses a subscription beside its subscriber's plain membership (a Topic's subscribers), naming both ways, before any write", async () => {
      await topic.create(await checked(topic, { key: "news", subscribers: ["alice"], adopt: true }));
      await emulator().clearRequests();
      await expect(sub.create(await checked(sub, vip))).rejects.toThrow(
        /subscriber "alice" holds the plain membership of topic "news" \(subscription "tk_news:si_alice".*TopicSubscription "alice-vip".*declare the membership one way/);
      expect(await writes()).toEqual([]);
    });

    it("refuses a Topic's subscriber who holds a subscription of its own in the topic, naming it, before any subscribe", async () => {
      await sub.create(await checked(sub, vip));
      await emulator().clearRequests();
      await expect(topic.create(await checked(topic, { key: "news", subscribers: ["alice", "bob"], adopt: true }))).rejects.toThrow(
        /subscriber "alice" is in the `subscribers` of topic "news" and also holds its subscription "alice-vip".*declare each membership one way/);
      expect(await writes()).toEqual([]);
    });

    it("neither compares nor removes another subscriber's subscription of its own in a Topic that declares subscribers", async () => {
      const t = await topic.create(await checked(topic, { key: "news", subscribers: ["bob"], adopt: true }));
      await sub.create(await checked(sub, vip));
      const read = await topic.read(t.id, t.outs);
      expect(read.props.subscribers).toEqual(["bob"]);
      expect((await topic.diff(t.id, read.props, await checked(topic, { key: "news", subscribers: ["bob"], adopt: true }))).changes).toBe(false);
      await emulator().clearRequests();
      await topic.update(t.id, read.props, await checked(topic, { key: "news", subscribers: [], adopt: true }));
      expect((await emulator().requests()).filter((r) => r.method === "DELETE").map((r) => JSON.stringify(r.body))).toEqual(['{"subscriptions":[{"identifier":"tk_news:si_bob"}]}']);
      expect((await api("GET", "/v2/topics/news/subscriptions/alice-vip")).status).toBe(200);
    });

    it("catches a plain membership made between its look and its subscribe (a Topic applied at the same time): deletes its own and refuses", async () => {
      const client = config.clientFor();
      const subscribe = client.topicSubscriptions.create.bind(client.topicSubscriptions);
      client.topicSubscriptions.create = async (key, body) => {
        await api("POST", "/v2/topics/news/subscriptions", { subscriptions: ["alice"] });
        return subscribe(key, body);
      };
      try {
        await expect(sub.create(await checked(sub, vip))).rejects.toThrow(/holds the plain membership of topic "news"/);
      } finally {
        client.topicSubscriptions.create = subscribe;
      }
      expect((await api("GET", "/v2/topics/news/subscriptions/alice-vip")).status).toBe(204);
      expect((await api("GET", "/v2/topics/news/subscriptions/tk_news:si_alice")).status).toBe(200);
    });

    // The subscription made in the dashboard, or by a TopicSubscription applied at the same moment
    // as the Topic with no dependency between them, between the Topic's listing and its subscribe.
    it("warns on a Topic's read that finds one of its subscribers holding a subscription of its own too", async () => {
      await api("POST", "/v2/topics/news/subscriptions", { subscriptions: ["alice", { subscriberId: "alice", identifier: "alice-vip" }] });
      const warned: string[] = [];
      const before = lifecycle.setWarningSink(async (m) => { warned.push(m); });
      try {
        const declared = await checked(topic, { key: "news", subscribers: ["alice"] });
        await topic.read("news", { ...declared, declaredKeys: ["key", "subscribers"] });
      } finally {
        lifecycle.setWarningSink(before);
      }
      expect(warned).toEqual([expect.stringMatching(/^topic "news": subscriber "alice" is in the `subscribers` of topic "news" and also holds its subscription "alice-vip"/)]);
    });
  });
});
