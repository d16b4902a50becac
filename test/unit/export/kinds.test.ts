/**
 * The exporter's per-kind record (export/kinds.ts): the order the kinds are read in, derived from
 * the declaration order and the entries' `readAfter`, and data several kinds use read once.
 */
import { describe, expect, it } from "vitest";
import { KIND_ORDER, READ_ORDER, EXPORT, readOrder } from "../../../export/kinds";
import { buildModel } from "../../../export/model";
import { readEnvironment } from "../../../export/read";
import type { NotifyClient } from "../../../provider/client";

const ENV = "env_a";
const now = "2026-01-01T00:00:00.000Z";

describe("the read order", () => {
  const hints = (h: Record<string, string>) => (k: string) => h[k];

  it("moves a kind with readAfter to right after that kind, following chains", () => {
    expect(readOrder(["A", "B", "C", "D"], hints({ A: "C" }))).toEqual(["B", "C", "A", "D"]);
    expect(readOrder(["A", "B", "C", "D"], hints({ A: "B", B: "C" }))).toEqual(["C", "B", "A", "D"]);
    expect(readOrder(["A", "B", "C", "D"], hints({ A: "C", B: "C" }))).toEqual(["C", "A", "B", "D"]);
  });

  it("refuses a readAfter that would read a kind earlier, naming the kinds it may name", () => {
    expect(() => readOrder(["A", "B", "C", "D"], hints({ C: "A" }))).toThrow("EXPORT.C.readAfter: A is not declared after C, and readAfter only moves a read later; allowed: D");
    expect(() => readOrder(["A", "B"], hints({ B: "B" }))).toThrow("allowed: (none)");
  });

  it("reads every kind once, each after every kind declared before it save those moved past it", () => {
    expect([...READ_ORDER].sort()).toEqual([...KIND_ORDER].sort());
    const moved = new Set(KIND_ORDER.filter((k) => (EXPORT[k] as { readAfter?: string }).readAfter));
    for (const [i, k] of KIND_ORDER.entries()) {
      for (const before of KIND_ORDER.slice(0, i).filter((b) => !moved.has(b))) {
        expect(READ_ORDER.indexOf(before), `${before} before ${k}`).toBeLessThan(READ_ORDER.indexOf(k));
      }
    }
  });
});

describe("data several kinds use", () => {
  it("is read once: each named subscriber once for Subscriber, SubscriberCredentials and SubscriberPreferences; the topics and each topic's subscriptions once for Topic and TopicSubscription", async () => {
    const calls: string[] = [];
    const api: Record<string, unknown> = {
      environments: { list: async () => [{ _id: ENV, name: "Alpha", apiKeys: [{ key: "k" }] }] },
      layouts: { list: async () => ({ layouts: [], totalCount: 0 }) },
      workflows: { list: async () => ({ workflows: [], totalCount: 0 }) },
      topics: {
        list: async () => { calls.push("topics"); return { data: [{ _id: "t1", key: "news", name: "News", createdAt: now }], next: null }; },
        listSubscriptions: async (key: string) => { calls.push(`subscriptions of ${key}`); return { data: [], next: null }; },
      },
      contexts: { list: async () => ({ data: [], next: null }) },
      domains: { list: async () => ({ data: [], next: null }) },
      subscribers: {
        get: async (id: string) => {
          calls.push(`subscriber ${id}`);
          return { _id: `s-${id}`, subscriberId: id, _environmentId: ENV, _organizationId: "o", createdAt: now, updatedAt: now, channels: [] };
        },
        preferences: async () => ({ global: { enabled: true, channels: { email: false } }, workflows: [] }),
      },
    };
    const empty = { list: async () => [] };
    const client = new Proxy(api, { get: (t, k) => (k in t ? t[k as string] : empty) }) as unknown as NotifyClient;
    const raw = await readEnvironment(client, { apiKey: "k", subscribers: ["alice", "bob"] });
    expect(calls.sort()).toEqual(["subscriber alice", "subscriber bob", "subscriptions of news", "topics"]);
    expect(buildModel(raw).resources.map((r) => r.key)).toEqual([
      "Subscriber/alice", "Subscriber/bob", "Topic/news", "SubscriberPreferences/alice-preferences", "SubscriberPreferences/bob-preferences",
    ]);
  });
});
