/**
 * provider/resources/subscriber.ts: the subscriberId rule, the profile read back without the
 * service's nulls, and the credentials' check taking the Subscriber's output (unknown until the
 * subscriber exists) as their subscriberId.
 */
import { describe, expect, it } from "vitest";
import { SUBSCRIBER_ID, provider, toSubscriberOutputs } from "../../../../provider/resources/subscriber";
import { provider as credentials } from "../../../../provider/resources/subscriberCredentials";
import { UNKNOWN } from "../../../../provider/resources/diff";

describe("the subscriberId rule", () => {
  // packages/shared/src/consts/validIdRegex.ts: letters, digits, _, :, . and -, or an email address.
  it("takes plain ids and email addresses, and nothing with a space", () => {
    for (const id of ["alice", "ops-oncall", "user_1", "tenant:acme", "a.b", "ops+pager@example.com"]) expect(SUBSCRIBER_ID.test(id), id).toBe(true);
    for (const id of ["ops oncall", " alice", "alice ", "a/b", ""]) expect(SUBSCRIBER_ID.test(id), id).toBe(false);
  });
});

describe("the subscriber's outputs", () => {
  it("leave out the fields the service answers null, and read absent data as {}", () => {
    const outs = toSubscriberOutputs({
      _id: "65f000000000000000000001", subscriberId: "ops", firstName: "Ops", lastName: null, email: null, data: null,
      _organizationId: "o", _environmentId: "e", deleted: false, createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z",
    });
    expect(outs).toEqual({ subscriberId: "ops", firstName: "Ops", data: {}, databaseId: "65f000000000000000000001", createdAt: "2026-01-01T00:00:00.000Z" });
  });
});

describe("a subscriber and its credentials, ordered by reference", () => {
  // In a preview the Subscriber's `subscriberId` output is not known yet: the engine passes its
  // placeholder, which the credentials' check must take (the value is checked at apply).
  it("the credentials' check takes the Subscriber's subscriberId output before it is known, and once it is", async () => {
    const inputs = { providerId: "slack", integrationIdentifier: "slack-main", credentials: { webhookUrl: "https://hooks.example.com/ops" } };
    expect((await credentials.check({}, { ...inputs, subscriberId: UNKNOWN })).failures).toEqual([]);
    expect((await credentials.check({}, { ...inputs, subscriberId: "ops-oncall" })).failures).toEqual([]);
  });

  it("the subscriber's own check takes an unknown id too, and refuses a known one that breaks the rule", async () => {
    expect((await provider.check({}, { subscriberId: UNKNOWN })).failures).toEqual([]);
    expect((await provider.check({}, { subscriberId: "ops oncall" })).failures.map((f) => f.property)).toEqual(["subscriberId"]);
  });
});
