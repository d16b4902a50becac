/** The service side of tests that run the benchmark's scale program. */
import { expect } from "vitest";
import type { TestEmulator } from "./emulator";

/** Subscribers `bench-sub-<i>` and the `slack-bench` integration the scale program's credentials use. */
export async function seedScaleService(emu: TestEmulator, subscribers: number): Promise<void> {
  await emu.api("POST", "/__emulator/seed", { subscribers: Array.from({ length: subscribers }, (_, i) => ({ subscriberId: `bench-sub-${i}` })) });
  await emu.api("POST", "/v1/integrations", { identifier: "slack-bench", providerId: "slack", channel: "chat", active: true });
}

/** The service holds exactly the scale program's N objects, each once. */
export async function expectExactlyDeclared(emu: TestEmulator, n: number): Promise<void> {
  const s = await emu.state();
  const ints = s.integrations.filter((i) => !i.deleted && i.identifier !== "slack-bench").map((i) => i.identifier).sort();
  const wanted = Array.from({ length: Math.floor(n / 2) }, (_, i) => `bench-int-${i}`).sort();
  expect(ints).toEqual(wanted);
  expect(s.workflows.map((w) => w.workflowId).sort()).toEqual(Array.from({ length: Math.floor(n / 4) }, (_, i) => `bench-wf-${i}`).sort());
  const creds = n - Math.floor(n / 2) - Math.floor(n / 4);
  for (const sub of s.subscribers) {
    const i = Number(String(sub.subscriberId).replace("bench-sub-", ""));
    expect(sub.channels.length, String(sub.subscriberId)).toBe(i < creds ? 1 : 0);
  }
}

