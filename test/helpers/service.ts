/** The service side of tests that run the benchmark's scale program. */
import { expect } from "vitest";
import type { TestEmulator } from "./emulator";
import { loadPackage } from "./pulumi";

type Programs = typeof import("../../bench/programs");
const { mixCounts, RUN_TAG } = loadPackage<Programs>("/dist/bench/programs");

/** Subscribers `bench-sub-<i>` and the `slack-bench` integration the scale program's credentials use. */
export async function seedScaleService(emu: TestEmulator, subscribers: number): Promise<void> {
  await emu.api("POST", "/__emulator/seed", { subscribers: Array.from({ length: subscribers }, (_, i) => ({ subscriberId: `bench-sub-${i}` })) });
  await emu.api("POST", "/v1/integrations", { identifier: "slack-bench", providerId: "slack", channel: "chat", active: true });
}

/** The service holds exactly the scale program's N objects (the bench's mix, `mixCounts`), each once. */
export async function expectExactlyDeclared(emu: TestEmulator, n: number): Promise<void> {
  const counts = mixCounts(n);
  const names = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`).sort();
  const s = await emu.state();
  expect(s.integrations.filter((i) => !i.deleted && i.identifier !== "slack-bench").map((i) => i.identifier).sort()).toEqual(names("bench-int-", counts.Integration));
  expect(s.workflows.map((w) => w.workflowId).sort()).toEqual(names("bench-wf-", counts.Workflow));
  for (const sub of s.subscribers) {
    const i = Number(String(sub.subscriberId).replace("bench-sub-", ""));
    expect(sub.channels.length, String(sub.subscriberId)).toBe(i < counts.SubscriberCredentials ? 1 : 0);
  }
  // The first layout is the environment's default, which destroy leaves on the service.
  const layouts = s.layouts.filter((l) => !l.deleted && (counts.Layout > 0 || !l.isDefault)).map((l) => l.identifier).sort();
  expect(layouts).toEqual(names("bench-layout-", counts.Layout));
  expect(s.topics.map((t) => t.key).sort()).toEqual(names("bench-topic-", counts.Topic));
  // Each topic's two plain members, and the mix's topic subscriptions (of other subscribers).
  expect(s.subscriptions).toHaveLength(2 * counts.Topic + counts.TopicSubscription);
  // A deleted subscriber is kept, marked deleted (the service's delete use case).
  expect(s.subscribers.filter((x) => !x.deleted && String(x.subscriberId).startsWith("bench-person-")).map((x) => x.subscriberId).sort()).toEqual(names("bench-person-", counts.Subscriber));
  // Subscriber preferences are not counted: the service keeps a subscriber's preference records, and
  // a destroy gives back the channels it declared (the oracle checks that, test/kinds/subscriberPreferences.ts).
  expect(s.agents.map((a) => a.identifier).sort()).toEqual(names("bench-agent-", counts.Agent));
  expect(s.channelConnections).toHaveLength(counts.ChannelConnection);
  expect(s.channelEndpoints).toHaveLength(counts.ChannelEndpoint);
  expect(s.contexts.map((c) => c.key).sort()).toEqual(names("tenant:bench-", counts.Context));
  expect(s.environmentVariables.map((v) => v.key).sort()).toEqual(names("BENCH_", counts.EnvironmentVariable));
  expect(s.environments.filter((e) => e.name.startsWith("Bench ")).map((e) => e.name).sort()).toEqual(names("Bench ", counts.Environment));
  expect(s.translations.map((t) => `${t.resourceType}/${t.resourceId}/${t.locale}`).sort())
    .toEqual(names("workflow/bench-wf-", counts.Translation).map((x) => `${x}/fr_FR`).sort());
  expect(s.domains.map((d) => d.name).sort()).toEqual(Array.from({ length: counts.Domain }, (_, i) => `bench-${i}-${RUN_TAG}.example.com`).sort());
  expect(s.domainRoutes).toHaveLength(2 * counts.Domain);
}
