/**
 * The live suite's safety and its report's comparison, without a service: its names carry the run
 * prefix both ways, a write to an object without the prefix and an emulator control are refused
 * before anything is sent, and two answers are compared field by field.
 */
import { describe, expect, it } from "vitest";
import { Namespace, carriesPrefix } from "../../live/namespace";
import { EmulatorOnly, NotOurs, liveService } from "../../live/service";
import { compareAnswers } from "../../live/report";

const ns = () => {
  const n = new Namespace("lvabc123");
  for (const name of ["alice", "news", "SCENARIO_URL", "read"]) n.add(name);
  n.pair("env_env0", "65f0c0ffee");
  return n;
};

describe("the run's names", () => {
  it("are prefixed on the service, in values, path segments and query values, and named back", () => {
    const n = ns();
    const sent = { subscriberId: "alice", topics: ["news:daily", "news"], key: "SCENARIO_URL", values: { env_env0: "x" }, firstName: "Alice" };
    const live = n.toLive(sent);
    expect(live).toEqual({ subscriberId: "lvabc123-alice", topics: ["lvabc123-news:daily", "lvabc123-news"], key: "LVABC123_SCENARIO_URL", values: { "65f0c0ffee": "x" }, firstName: "Alice" });
    expect(n.fromLive(live)).toEqual(sent);
    expect(n.pathToLive("/v2/topics/news/subscriptions?subscriberId=alice&limit=10")).toBe("/v2/topics/lvabc123-news/subscriptions?subscriberId=lvabc123-alice&limit=10");
  });

  it("never rename a key that is a field's name, even when a name is spelt the same", () => {
    expect(ns().toLive({ read: false, identifier: "read" })).toEqual({ read: false, identifier: "lvabc123-read" });
  });

  it("are told apart from others by the prefix alone", () => {
    expect(["lvabc123-alice", "LVABC123_URL", "lvabc1234-x", "alice", "lvabc123"].map((s) => carriesPrefix("lvabc123", s))).toEqual([true, true, false, false, false]);
  });
});

describe("the guard of a live run", () => {
  // An address nothing listens on: a request that got through would fail with a connection error, not these.
  const svc = () => liveService({ url: "http://127.0.0.1:9", key: "k", ns: ns(), live: true });

  it("refuses a write to an object without the run's prefix, naming it, before sending", async () => {
    const s = svc();
    await expect(s.api("PATCH", "/v2/topics/real-news", { name: "x" })).rejects.toThrow(new NotOurs('PATCH /v2/topics/real-news: topicKey "real-news" carries neither the run prefix lvabc123 nor an id of the run\'s creates: not sent'));
    await expect(s.api("DELETE", "/v1/integrations/65f000000000000000000001")).rejects.toThrow(NotOurs);
    await expect(s.api("POST", "/v2/subscribers", { subscriberId: "someone" })).rejects.toThrow(/subscriberId "someone" does not carry the run prefix|carries neither the run prefix/);
    expect(s.sent()).toBe(0);
  });

  it("lets through a write to the run's own names (it then meets the service)", async () => {
    await expect(svc().api("PATCH", "/v2/topics/news", { name: "x" })).rejects.toThrow(/fetch failed|ECONNREFUSED/);
  });

  it("never sends an emulator control: what needs one is emulator-only", async () => {
    const s = svc();
    await expect(s.api("POST", "/__emulator/behaviour", {})).rejects.toThrow(EmulatorOnly);
    await expect(s.state()).rejects.toThrow(EmulatorOnly);
    expect(s.sent()).toBe(0);
  });
});

describe("the report's comparison of two answers", () => {
  it("shows fields one lacks, other types and other values, but not ids, times, slugs or which objects a list holds", () => {
    const live = { status: 200, body: { _id: "a", name: "N", slug: "n_1", createdAt: "t1", extra: 1, list: [{ k: 1 }, { k: 2 }], type: "x" } };
    const emu = { status: 200, body: { _id: "b", name: "M", slug: "n_2", createdAt: "t2", list: [{ k: 3 }], type: 1, missing: true } };
    expect(compareAnswers(live, emu)).toEqual([
      { path: "name", difference: "value", live: "N", emulator: "M" },
      { path: "extra", difference: "only live", live: 1 },
      { path: "type", difference: "type", live: "string", emulator: "number" },
      { path: "missing", difference: "only emulator", emulator: true },
    ]);
  });
});
