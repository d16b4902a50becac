/**
 * provider/resources/channelEndpoint.ts: each endpoint type's exact keys (the service's
 * channel-endpoint.schema.ts), as check says them, and the service's endpoint as outputs.
 */
import { describe, expect, it } from "vitest";
import { ENDPOINT_KEYS, ENDPOINT_TYPES, endpointFailures, provider, toChannelEndpointOutputs } from "../../../../provider/resources/channelEndpoint";
import { UNKNOWN } from "../../../../provider/resources/diff";

const reasons = (type: unknown, endpoint: unknown) => endpointFailures(type, endpoint).map((f) => f.reason);

describe("an endpoint's keys by its type", () => {
  // The ten types of GetChannelEndpointResponseDto (OpenAPI 3.18.1), each with its keys (channel-endpoint.schema.ts; ms_teams_user's tenantId [newer]).
  it("knows each type production accepts, with its keys", () => {
    expect(ENDPOINT_KEYS).toEqual({
      slack_channel: ["channelId"], slack_user: ["userId"], webhook: ["url", "channel"], phone: ["phoneNumber"], ms_teams_channel: ["teamId", "channelId"],
      ms_teams_user: ["userId", "tenantId"], telegram_chat: ["chatId"], webex_room: ["roomId", "parentId"], webex_person: ["personId", "personEmail"], line_user: ["userId"],
    });
  });

  it("accepts each type's keys, the optional ones left out or given", () => {
    const valid: Record<string, Record<string, string>[]> = {
      slack_channel: [{ channelId: "C1" }], slack_user: [{ userId: "U1" }], webhook: [{ url: "https://h.example.com" }, { url: "http://h.example.com/x", channel: "ops" }],
      phone: [{ phoneNumber: "+14155550123" }], ms_teams_channel: [{ teamId: "t", channelId: "c" }], ms_teams_user: [{ userId: "u" }, { userId: "u", tenantId: "t" }],
      telegram_chat: [{ chatId: "-100123" }], webex_room: [{ roomId: "r" }, { roomId: "r", parentId: "p" }], webex_person: [{ personId: "p" }, { personEmail: "e@example.com" }],
      line_user: [{ userId: "U1" }],
    };
    expect(Object.keys(valid)).toEqual(ENDPOINT_TYPES);
    for (const [type, list] of Object.entries(valid)) for (const e of list) expect(reasons(type, e), `${type} ${JSON.stringify(e)}`).toEqual([]);
  });

  it("names a key of another type, and the keys the type takes", () => {
    expect(reasons("ms_teams_user", { userId: "u", teamId: "t", channelId: "c" })).toEqual([
      'endpoint: "teamId", "channelId" are not keys of type "ms_teams_user" (type "ms_teams_user" takes userId, tenantId)',
    ]);
  });

  it("names a missing key with its type, and a value its type refuses with the value", () => {
    expect(reasons("webex_room", {})).toEqual(['endpoint.roomId: is required for type "webex_room" (type "webex_room" takes roomId, parentId)']);
    expect(reasons("webex_person", {})).toEqual(['endpoint: type "webex_person" takes exactly one of personId, personEmail']);
    expect(reasons("webhook", { url: "ftp://h.example.com" })).toEqual(['endpoint.url: must be an http or https URL (given "ftp://h.example.com")']);
  });

  it("leaves an unknown type, or data not known until the apply, to what checks them", () => {
    expect(reasons("fax", { number: "1" })).toEqual([]);
    expect(reasons(UNKNOWN, { channelId: "C1" })).toEqual([]);
    expect(reasons("slack_channel", { channelId: UNKNOWN })).toEqual([]);
  });

  it("is what check says, once, beside the other inputs' failures", async () => {
    const { failures } = await provider.check({}, { identifier: "a", subscriberId: "alice", integrationIdentifier: "s", type: "slack_channel", endpoint: { userId: "U1" }, context: {} });
    expect(failures.map((f) => f.reason)).toEqual([
      "context: must name at least one context (the service refuses an empty one); leave context out for none",
      'endpoint.channelId: is required for type "slack_channel" (type "slack_channel" takes channelId)',
      'endpoint: "userId" is not a key of type "slack_channel" (type "slack_channel" takes channelId)',
    ]);
  });
});

describe("toChannelEndpointOutputs", () => {
  it("reads the contexts back from their keys, and a missing connection as none", () => {
    const outs = toChannelEndpointOutputs({
      identifier: "e", channel: "chat", providerId: "slack", integrationIdentifier: "s", connectionIdentifier: null, subscriberId: "alice",
      contextKeys: ["tenant:acme"], type: "slack_channel", endpoint: { channelId: "C1" }, createdAt: "2026-01-01T00:00:00.000Z",
    });
    expect(outs).toEqual({
      identifier: "e", subscriberId: "alice", integrationIdentifier: "s", type: "slack_channel", endpoint: { channelId: "C1" }, context: { tenant: "acme" },
      channel: "chat", providerId: "slack", contextKeys: ["tenant:acme"], createdAt: "2026-01-01T00:00:00.000Z",
    });
  });
});
