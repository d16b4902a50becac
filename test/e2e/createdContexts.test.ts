/**
 * `removeCreatedContexts` of ChannelConnection and ChannelEndpoint under the real engine, through
 * both front ends (issue #55, item 7): a shared connection and an endpoint through it name a
 * tenant context the service does not hold, and a team context it holds. The service makes the
 * tenant context at the connection's create. With the setting on, destroy leaves the environment
 * as it was: the tenant context is gone, the team context, which the stack did not cause, stays;
 * off (the default), the tenant context stays after destroy, as the service leaves it.
 */
import { describe, expect, it } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import { declareKind, FRONT_ENDS } from "../helpers/frontEnds";
import { useStack } from "../helpers/stack";

interface Spec {
  remove: boolean | undefined;
}

function program(frontEnd: (typeof FRONT_ENDS)[number], spec: Spec): automation.PulumiFn {
  return async () => {
    const context = { tenant: `acme-${frontEnd}`, team: "ops" };
    const slack = declareKind(frontEnd, "Integration", "slack", { identifier: "slack-ops", providerId: "slack", channel: "chat", active: true });
    const connection = declareKind(frontEnd, "ChannelConnection", "acme-slack", {
      identifier: "acme-slack", integrationIdentifier: slack.identifier, connectionMode: "shared", context,
      workspace: { id: "T0ACME" }, auth: { accessToken: "xoxb-acme" }, removeCreatedContexts: spec.remove,
    });
    const endpoint = declareKind(frontEnd, "ChannelEndpoint", "alice-alerts", {
      identifier: "alice-alerts", subscriberId: "alice", integrationIdentifier: slack.identifier, connectionIdentifier: connection.identifier, context,
      type: "slack_channel", endpoint: { channelId: "C0ALERTS" }, removeCreatedContexts: spec.remove,
    });
    return { made: connection.createdContextKeys, endpointMade: endpoint.createdContextKeys };
  };
}

describe.each(FRONT_ENDS)("the contexts a stack caused, through the %s front end", (frontEnd) => {
  const spec: Spec = { remove: true };
  const { emu, ts } = useStack({
    frontEnd,
    program: program(frontEnd, spec),
    seed: async (e) => {
      await e.api("POST", "/v2/subscribers", { subscriberId: "alice" });
      await e.api("POST", "/v2/contexts", { type: "team", id: "ops" });
    },
  });
  const contexts = async () => (await emu.state()).contexts.map((c) => c.key).sort();
  const tenant = `tenant:acme-${frontEnd}`;

  it("with removeCreatedContexts, destroy removes the context the connection's create made and keeps the one the service held", async () => {
    const up = await ts.stack.up();
    // The connection made the tenant context; the endpoint, made after it, found both.
    expect(up.outputs.made!.value).toEqual([tenant]);
    expect(up.outputs.endpointMade!.value).toEqual([]);
    expect(await contexts()).toEqual([tenant, "team:ops"].sort());
    await ts.stack.preview({ expectNoChanges: true });
    await ts.stack.destroy();
    expect(await contexts()).toEqual(["team:ops"]);
  });

  it("without it (the default), the context the service made stays after destroy", async () => {
    spec.remove = undefined;
    const up = await ts.stack.up();
    expect(up.outputs.made?.value).toBeUndefined();
    await ts.stack.destroy();
    expect(await contexts()).toEqual([tenant, "team:ops"].sort());
  });
});
