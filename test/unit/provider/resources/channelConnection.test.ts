/**
 * provider/resources/channelConnection.ts: the service's connection as outputs, the holder a 409
 * names, and the access token kept out of every message (check failures, diffs, errors).
 */
import { describe, expect, it } from "vitest";
import { NotifyConflictError } from "../../../../provider/client/errors";
import { contextOfKeys, holderOf, provider, redactTokens, toChannelConnectionOutputs } from "../../../../provider/resources/channelConnection";

const TOKEN = "xoxb-never-shown-0123456789";
const answer = {
  identifier: "acme-slack", channel: "chat", providerId: "slack", integrationIdentifier: "slack-ops", subscriberId: null,
  contextKeys: ["tenant:acme", "region:eu-west"], workspace: { id: "T1", name: "Acme" }, auth: { accessToken: TOKEN }, createdAt: "2026-01-01T00:00:00.000Z",
};

describe("toChannelConnectionOutputs", () => {
  // GetChannelConnectionResponseDto has no mode: a connection without a subscriber is a shared one.
  it("reads the mode from the subscriber, and the contexts back from their keys", () => {
    expect(toChannelConnectionOutputs(answer)).toMatchObject({
      connectionMode: "shared", context: { tenant: "acme", region: "eu-west" }, contextKeys: ["tenant:acme", "region:eu-west"], auth: { accessToken: TOKEN },
    });
    expect(toChannelConnectionOutputs(answer).subscriberId).toBeUndefined();
    expect(toChannelConnectionOutputs({ ...answer, subscriberId: "alice", contextKeys: [] })).toMatchObject({ connectionMode: "subscriber", subscriberId: "alice" });
    expect(toChannelConnectionOutputs({ ...answer, subscriberId: "alice", contextKeys: [] }).context).toBeUndefined();
  });

  it("splits a context key at its first colon", () => {
    expect(contextOfKeys(["tenant:a:b"])).toEqual({ tenant: "a:b" });
    expect(contextOfKeys([])).toBeUndefined();
  });
});

describe("holderOf", () => {
  const conflict = (serviceMessage: string) => new NotifyConflictError({ status: 409, method: "POST", path: "/v1/channel-connections", attempts: 1, serviceMessage });

  // create-channel-connection.usecase.ts: the one-per-slot 409 ends with the holder's identifier; the identifier's own 409 names none.
  it("reads the identifier the one-per-slot 409 names, and nothing from the identifier's own 409", () => {
    expect(holderOf(conflict('A channel connection already exists for integration "s" with no subscriberId and context [team:ops]. Connection ID: shared-1'))).toBe("shared-1");
    expect(holderOf(conflict('Channel connection with identifier "x" already exists in environment "e"'))).toBeUndefined();
    expect(holderOf(new Error("Connection ID: x"))).toBeUndefined();
  });
});

describe("the access token", () => {
  it("is replaced in an error's message wherever it appears", () => {
    const err = redactTokens(new Error(`Unable to update: 400 Bad Request: token ${TOKEN} refused (${TOKEN})`), [TOKEN]);
    expect(err.message).toBe("Unable to update: 400 Bad Request: token [REDACTED] refused ([REDACTED])");
  });

  it("is named in no check failure, whatever is wrong beside it", async () => {
    const { failures } = await provider.check({}, {
      identifier: "acme-slack", integrationIdentifier: "slack-ops", subscriberId: "alice", workspace: { id: "T1" }, auth: { accessToken: TOKEN, refresh: TOKEN },
    });
    expect(failures.map((f) => f.reason)).toEqual(['auth: unknown property "refresh"']);
    const typed = await provider.check({}, { identifier: "a", integrationIdentifier: "s", subscriberId: "alice", workspace: { id: "T1" }, auth: { accessToken: [TOKEN] } });
    expect(JSON.stringify(typed.failures)).not.toContain(TOKEN);
  });

  // The native plugin sends the engine the diff's paths: a secret input is named whole, never its inner path or value.
  it("is named whole in a diff, as a change of auth", async () => {
    const inputs = { identifier: "a", integrationIdentifier: "s", subscriberId: "alice", workspace: { id: "T1" }, auth: { accessToken: "xoxb-new" } };
    const olds = { ...inputs, auth: { accessToken: TOKEN }, declaredKeys: Object.keys(inputs) };
    const diff = await provider.diff("a", olds, inputs);
    expect(diff).toMatchObject({ changes: true, changed: ["auth"], replaces: [] });
    expect(diff.paths).toEqual([{ path: "auth", key: "auth", kind: "update" }]);
  });
});
