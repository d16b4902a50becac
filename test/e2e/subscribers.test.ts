/**
 * A subscriber and its credentials in one stack, under the real engine against the emulator: the
 * credentials take the Subscriber's `subscriberId` output, so the engine creates the subscriber
 * before its credentials on `up` and deletes it after them on `destroy` (the service's credentials
 * write refuses an unknown subscriber, and its subscriber delete takes the credentials with it).
 * The engine's order is read from the emulator's request log. getSubscriberPreferencesOutput reads
 * the subscriber the stack made, once it exists.
 */
import { describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import { loadPackage } from "../helpers/pulumi";
import { useStack } from "../helpers/stack";

function program(): automation.PulumiFn {
  return async () => {
    const notify = loadPackage();
    const slack = new notify.Integration("slack", { identifier: "slack-ops", providerId: "slack", channel: "chat", active: true });
    const oncall = new notify.Subscriber("oncall", { subscriberId: "ops-oncall", firstName: "On-call", email: "oncall@example.com", data: { team: "ops" } });
    const hook = new notify.SubscriberCredentials("oncall-slack", {
      subscriberId: oncall.subscriberId, providerId: "slack", integrationIdentifier: slack.identifier,
      credentials: { webhookUrl: "https://hooks.example.com/ops" },
    });
    // A function reading what the stack made: the subscriber's preferences (no active workflow yet: no channel shown).
    const preferences = notify.getSubscriberPreferencesOutput({ subscriberId: oncall.subscriberId });
    return { credentialsId: hook.id, globalPreferences: preferences.global };
  };
}

describe("a subscriber and its credentials, ordered by reference", () => {
  const { emu, ts } = useStack({ emulator: { mode: "production" }, program: program() });
  /** The writes the emulator saw, as `METHOD route`, in order. */
  const writes = async () => (await emu.requests()).filter((r) => r.method !== "GET" && !r.path.startsWith("/__emulator")).map((r) => `${r.method} ${r.route}`);

  it("creates the subscriber before its credentials, and the next preview and preview --refresh are empty", async () => {
    const up = await ts.stack.up();
    expect(up.outputs.credentialsId!.value).toBe("ops-oncall/slack/slack-ops");
    expect(up.outputs.globalPreferences!.value).toEqual({ enabled: true, channels: {} });
    const order = await writes();
    expect(order.indexOf("POST /v2/subscribers")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("POST /v2/subscribers")).toBeLessThan(order.indexOf("PUT /v1/subscribers/{subscriberId}/credentials"));
    // The credentials write changes the subscriber's channels and updatedAt, which the Subscriber does not compare.
    await ts.stack.preview({ expectNoChanges: true });
    await ts.stack.preview({ expectNoChanges: true, refresh: true });
  });

  it("deletes the credentials before the subscriber on destroy", async () => {
    await emu.clearRequests();
    await ts.stack.destroy();
    const order = await writes();
    expect(order.indexOf("DELETE /v1/subscribers/{subscriberId}/credentials/{providerId}")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("DELETE /v1/subscribers/{subscriberId}/credentials/{providerId}")).toBeLessThan(order.indexOf("DELETE /v2/subscribers/{subscriberId}"));
    expect((await emu.api("GET", "/v2/subscribers/ops-oncall")).status).toBe(404);
  });
});
