/** The Topic kind, as the tests and the bench see it. */
import fc from "fast-check";
import type { TestEmulator } from "../helpers/emulator";
import { opt, text, slug, strip } from "./generate";
import { ok, type KindDescriptor, type Obj } from "./descriptor";

/** The subscribers topics are generated with; {@link createTopicSubscribers} makes them. */
export const TOPIC_SUBSCRIBERS = ["ts-alice", "ts-bob", "ts-carol", "ts-dave", "ts-émile"] as const;

/** Creates the subscribers of {@link TOPIC_SUBSCRIBERS} (an upsert: repeating it is harmless). */
export async function createTopicSubscribers(emu: TestEmulator): Promise<void> {
  for (const subscriberId of TOPIC_SUBSCRIBERS) await emu.api("POST", "/v2/subscribers", { subscriberId });
}

/** Topic inputs; subscribers in any order (a set); `suffix` makes the key unique to the run. */
export const topicInputs = (suffix: string) => fc.record({
  key: fc.tuple(slug, fc.constantFrom(":", "-", "_")).map(([s, sep]) => `${s}${sep}${suffix}`),
  name: opt(text(1, 100)),
  subscribers: opt(fc.shuffledSubarray([...TOPIC_SUBSCRIBERS])),
}, { requiredKeys: ["key"] }).map(strip);

const topic = (over: Obj) => ({ key: "bad", ...over });
const key = (id: string) => `/v2/topics/${encodeURIComponent(id)}`;

export const topicKind: KindDescriptor<"Topic"> = {
  kind: "Topic",
  inputs: topicInputs,
  setup: createTopicSubscribers,
  prepare: null,
  // Topics are addressed by key, which nothing renames (UpdateTopicRequestDto has only name).
  replaceOnChange: ["key"],
  exact: [],
  handEdits: (i, _mode, add) => {
    add("name", "renamed", () => (emu, id) => ok(emu.api("PATCH", key(id), { name: `${String(i.name)} (edited)`.slice(-100) }), "hand edit patch topic"));
    const subs = (i.subscribers ?? []) as string[];
    const outsider = TOPIC_SUBSCRIBERS.find((x) => !subs.includes(x));
    if (outsider) add("subscribers", `${outsider} subscribed`, () => (emu, id) => ok(emu.api("POST", `${key(id)}/subscriptions`, { subscriptions: [outsider] }), "hand edit subscribe"));
    else add("subscribers", `${subs[0]} unsubscribed`, () => (emu, id) => ok(emu.api("DELETE", `${key(id)}/subscriptions`, { subscriptions: [subs[0]] }), "hand edit unsubscribe"));
  },
  deletePath: (_i, id) => key(id),
  undeletable: null,
  remains: (state, declared) => state.topics!.filter((x) => !x.deleted && declared.some((d) => d.key === x.key)),
  adopt: {
    seed: async (emu) => {
      // The subscribers first: the service subscribes only subscribers it has (SUBSCRIBER_NOT_FOUND otherwise, create-subscriptions.usecase.ts).
      for (const subscriberId of ["alice", "bob"]) await ok(emu.api("POST", "/v2/subscribers", { subscriberId }), "seed");
      await ok(emu.api("POST", "/v2/topics", { key: "news", name: "News" }), "seed");
      await ok(emu.api("POST", "/v2/topics/news/subscriptions", { subscriptions: ["alice", "bob"] }), "seed");
    },
    equal: { key: "news", name: "News", subscribers: ["alice", "bob"] },
    reads: ["GET /v2/topics/{topicKey}", "GET /v2/topics/{topicKey}/subscriptions"],
    // Only a subscriber added: one subscribe, no rename, no unsubscribe.
    differing: { key: "news", name: "News", subscribers: ["alice", "bob", "carol"] },
    writes: ["POST /v2/topics/{topicKey}/subscriptions"],
  },
  // POST /v2/topics?failIfExists makes it (and refuses an existing one); its subscriptions are POSTs
  // of their own, 100 a call. A read is the topic's GET and a page of subscriptions per 100. A
  // rename is one PATCH; a delete one DELETE, which takes the subscriptions with it.
  floor: {
    of: (i) => {
      const pages = Math.ceil(((i.subscribers ?? []) as unknown[]).length / 100);
      return { create: 1 + pages, read: 1 + Math.max(1, pages), update: 1, delete: 1 };
    },
    change: (i) => ({ ...i, name: `${String(i.name ?? i.key)} (renamed)`.slice(-100) }),
    listing: null,
    // The list maps a topic as GET one does (map-topic-entity-to.dto.ts); the subscriptions stay each topic's own pages.
    listedRead: "GET /v2/topics",
  },
  badInput: [
    ["topic key with a space", topic({ key: "daily news" }), /key: must contain only letters, digits, -, _, : and \./],
    ["topic key over 100 characters", topic({ key: "k".repeat(101) }), /key: must be at most 100 characters/],
    ["empty topic name", topic({ name: "" }), /name: must not be empty/],
    ["subscriber listed twice", topic({ subscribers: ["alice", "bob", "alice"] }), /subscribers\[2\]: lists subscriber "alice" again/],
    ["subscribers not a list", topic({ subscribers: "alice" }), /subscribers: must be an array/],
  ],
  stack: { max: 1 },
  exportSoak: { max: 1, unique: (t) => t.key },
  /** Uses subscribers `bench-sub-<i>` and `bench-sub-<i + 1>`. */
  bench: { per: 20, args: (i) => ({ key: `bench-topic-${i}`, name: `Bench ${i}`, subscribers: [`bench-sub-${i}`, `bench-sub-${i + 1}`] }) },
  /** Its subscriber made by `setup`. */
  scenario: { declared: { key: "scenario-news", name: "Scenario news", subscribers: [TOPIC_SUBSCRIBERS[0]] } },
  openapiCases: {
    "POST /v2/topics": (c) => c.call(201, "/v2/topics", { key: "case-topic", name: "Case" }),
    "GET /v2/topics": (c) => c.call(200, "/v2/topics?limit=10"),
    "GET /v2/topics/{topicKey}": (c) => c.call(200, "/v2/topics/news"),
    "PATCH /v2/topics/{topicKey}": (c) => c.call(200, "/v2/topics/news", { name: "News" }),
    "DELETE /v2/topics/{topicKey}": async (c) => {
      await c.api("POST", "/v2/topics", { key: "doomed", name: "Doomed" });
      return c.call(200, "/v2/topics/doomed");
    },
    // The topic's subscribers (its `subscribers` input).
    "POST /v2/topics/{topicKey}/subscriptions": (c) => c.call(201, "/v2/topics/news/subscriptions", { subscriptions: ["alice"] }),
    "GET /v2/topics/{topicKey}/subscriptions": (c) => c.call(200, "/v2/topics/news/subscriptions?limit=10"),
    "DELETE /v2/topics/{topicKey}/subscriptions": async (c) => {
      await c.api("POST", "/v2/topics/news/subscriptions", { subscriptions: ["carol"] });
      return c.call(200, "/v2/topics/news/subscriptions", { subscriptions: ["carol"] });
    },
  },
  // Create with subscribers, read, update (rename, one added, one removed), adopt, delete; getTopics.
  requests: {
    run: async ({ moduleOf, created, client, fns }) => {
      const topic = moduleOf("topic");
      const news = await created(topic, { key: "news:daily", name: "News", subscribers: ["alice"] });
      await topic.provider.read(news.id, news.outs);
      await topic.provider.update(news.id, news.outs, { ...news.inputs, name: "Daily news", subscribers: ["bob"] });
      await client.topics.create({ key: "existing-topic" });
      const adopted = await created(topic, { key: "existing-topic", name: "Adopted", subscribers: ["alice"], adopt: true });
      await fns.getTopics({ key: "news", name: "Daily", orderDirection: "ASC", maxResults: 10 });
      return async () => {
        for (const r of [news, adopted]) await topic.provider.delete(r.id, r.outs);
      };
    },
    refused: [],
  },
};
