/**
 * The emulator's channel endpoints (`/v1/channel-endpoints`) behave as production, in both modes.
 * Sources: the fifth pass of production-notes.md §5, which reads the service's
 * apps/api/src/app/channel-endpoints/ and libs/application-generic/src/schemas/channel-endpoint/
 * (paths cited per test), and spec/openapi.json. **[newer]** marks rules of file versions newer than
 * the notes' mirror (the code index's create-channel-endpoint.usecase.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

/** Every type production accepts, with data of exactly its keys (channel-endpoint.schema.ts; OpenAPI 3.18.1 adds the last four). */
const VALID: [string, Record<string, string>][] = [
  ["slack_channel", { channelId: "C1" }], ["slack_user", { userId: "U1" }], ["webhook", { url: "https://h.example.com/x", channel: "ops" }],
  ["webhook", { url: "https://h.example.com/y" }], ["phone", { phoneNumber: "+14155550123" }], ["ms_teams_channel", { teamId: "t", channelId: "c" }],
  ["ms_teams_user", { userId: "u" }], ["ms_teams_user", { userId: "u", tenantId: "t" }], ["telegram_chat", { chatId: "123" }], ["line_user", { userId: "U1" }],
];
/** Data each type refuses: a key of another type, a required key missing, one key too many. */
const INVALID: [string, unknown][] = [
  ["slack_channel", { userId: "U1" }], ["slack_channel", { channelId: "C1", userId: "U1" }], ["slack_user", {}], ["webhook", { url: "u", channel: "c", extra: "x" }],
  ["phone", { phone: "+1" }], ["ms_teams_channel", { channelId: "c" }], ["ms_teams_user", { userId: "u", teamId: "t" }], ["telegram_chat", { chatId: 123 }],
  ["webex_room", { roomId: "" }], ["webex_person", {}], ["webex_person", { personId: "p", personEmail: "e@example.com" }], ["line_user", "U1"],
];

describe.each(["production", "spec"] as const)("channel endpoints behave as production (%s mode)", (mode) => {
  let emu: TestEmulator;
  let env: string;
  const api = (method: string, path: string, body?: unknown) => emu.api(method, path, body);
  const base = { subscriberId: "alice", integrationIdentifier: "slack-ops" };
  const create = (body: Record<string, unknown>) => api("POST", "/v1/channel-endpoints", { ...base, ...body });

  beforeAll(async () => { emu = await startTestEmulator({ mode }); });
  afterAll(async () => { await emu.close(); });
  beforeEach(async () => {
    await api("POST", "/__emulator/reset");
    for (const [identifier, providerId] of [["slack-ops", "slack"], ["webex-ops", "webex-messaging"]]) {
      await api("POST", "/v1/integrations", { identifier, providerId, channel: "chat", active: true, check: false });
    }
    await api("POST", "/v2/subscribers", { subscriberId: "alice" });
    env = (await api("GET", "/v1/environments")).body.find((e: { name: string }) => e.name === "Development")._id;
  });

  // create-channel-endpoint.usecase.ts, GetChannelEndpointResponseDto: 201, the integration's channel and provider, no connection as null.
  it("creates each type with exactly its keys, with 201", async () => {
    for (const [i, [type, endpoint]] of VALID.entries()) {
      const r = await create({ identifier: `e${i}`, type, endpoint });
      expect(r.status, `${type} ${JSON.stringify(endpoint)}`).toBe(201);
      expect(r.body).toEqual({
        identifier: `e${i}`, channel: "chat", providerId: "slack", integrationIdentifier: "slack-ops", connectionIdentifier: null, subscriberId: "alice",
        contextKeys: [], type, endpoint, createdAt: expect.any(String), updatedAt: expect.any(String),
      });
    }
  });

  // create-channel-endpoint.command.ts: the endpoint validator of the command (the body is a union the pipe cannot check): 422 with its message.
  it("refuses data that does not fit its type with 422, naming the type", async () => {
    for (const [type, endpoint] of INVALID) {
      const r = await create({ identifier: "bad", type, endpoint });
      expect(r.status, `${type} ${JSON.stringify(endpoint)}`).toBe(422);
      expect(JSON.stringify(r.body), type).toContain(`Endpoint must match the required format for type \\"${type}\\"`);
    }
    expect((await api("GET", "/v1/channel-endpoints/bad")).status).toBe(404);
    const unknownType = await create({ identifier: "bad", type: "fax", endpoint: { number: "1" } });
    expect(unknownType.status).toBe(422);
    expect(JSON.stringify(unknownType.body)).toContain("type must be one of the following values: slack_channel, slack_user, webhook, phone");
  });

  // create-channel-endpoint.usecase.ts: `chendp_${shortId(12)}` when none is given; the identifier the only unique thing (409).
  it("generates an identifier, keeps each once, and registers one Slack channel many times", async () => {
    const made = await create({ type: "slack_channel", endpoint: { channelId: "C1" } });
    expect(made.body.identifier).toMatch(/^chendp_[a-z0-9]{12}$/);
    expect((await create({ identifier: "one", type: "slack_channel", endpoint: { channelId: "C1" } })).status).toBe(201);
    const dup = await create({ identifier: "one", type: "slack_user", endpoint: { userId: "U1" } });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(`Channel endpoint with identifier "one" already exists in environment "${env}"`);
  });

  // create-channel-endpoint.usecase.ts: "Integration not found: <id>", "Subscriber not found: <id>", "Channel connection not found: <id>" (404s).
  it("answers 404 for an unknown integration, subscriber or connection, and a connection of another integration", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ integrationIdentifier: "nope" }, "Integration not found: nope"],
      [{ subscriberId: "ghost" }, "Subscriber not found: ghost"],
      [{ connectionIdentifier: "nope" }, "Channel connection not found: nope"],
    ];
    await api("POST", "/v1/channel-connections", { identifier: "webex-conn", integrationIdentifier: "webex-ops", subscriberId: "alice", workspace: { id: "W" }, auth: { accessToken: "t" } });
    cases.push([{ connectionIdentifier: "webex-conn" }, "Channel connection not found: webex-conn"]);
    for (const [over, message] of cases) {
      const r = await create({ identifier: "x", type: "slack_channel", endpoint: { channelId: "C1" }, ...over });
      expect(r.status, message).toBe(404);
      expect(r.body.message).toBe(message);
    }
  });

  // create-channel-endpoint.usecase.ts: the connection's identifier stored; its contexts created when missing.
  it("stores the connection and the contexts", async () => {
    await api("POST", "/v1/channel-connections", { identifier: "acme-slack", integrationIdentifier: "slack-ops", connectionMode: "shared", context: { tenant: "acme" }, workspace: { id: "T" }, auth: { accessToken: "t" } });
    const r = await create({ identifier: "alerts", type: "slack_channel", endpoint: { channelId: "C1" }, connectionIdentifier: "acme-slack", context: { tenant: "acme", team: "ops" } });
    expect(r.body).toMatchObject({ connectionIdentifier: "acme-slack", contextKeys: ["tenant:acme", "team:ops"] });
    expect((await api("GET", "/v2/contexts/team/ops")).status).toBe(200);
  });

  // create-channel-endpoint.usecase.ts [newer]: a Webex endpoint needs a Webex Messaging integration, a connection, and the connection's contexts (400s).
  it("refuses a Webex endpoint without a Webex integration, without a connection, or with other contexts than its connection's", async () => {
    const room = { type: "webex_room", endpoint: { roomId: "R1" } };
    const slack = await create({ identifier: "w", ...room });
    expect(slack.status).toBe(400);
    expect(slack.body.message).toBe('Channel endpoint type "webex_room" requires a Webex Messaging integration');
    const bare = await create({ identifier: "w", ...room, integrationIdentifier: "webex-ops" });
    expect(bare.status).toBe(400);
    expect(bare.body.message).toBe('Channel endpoint type "webex_room" requires a connectionIdentifier');
    await api("POST", "/v1/channel-connections", { identifier: "webex-conn", integrationIdentifier: "webex-ops", subscriberId: "alice", workspace: { id: "W" }, auth: { accessToken: "t" } });
    const ctx = await create({ identifier: "w", ...room, integrationIdentifier: "webex-ops", connectionIdentifier: "webex-conn", context: { tenant: "acme" } });
    expect(ctx.status).toBe(400);
    expect(ctx.body.message).toBe('Webex endpoint context must match channel connection "webex-conn" context');
    const okay = await create({ identifier: "w", type: "webex_person", endpoint: { personEmail: "p@example.com" }, integrationIdentifier: "webex-ops", connectionIdentifier: "webex-conn" });
    expect(okay.status).toBe(201);
  });

  // update-channel-endpoint.usecase.ts: `{endpoint}` only, which must fit the stored type (400, the same message); its 404 names the environment.
  it("replaces the data on PATCH when it fits the stored type, else 400", async () => {
    await create({ identifier: "alerts", type: "slack_channel", endpoint: { channelId: "C1" } });
    const r = await api("PATCH", "/v1/channel-endpoints/alerts", { endpoint: { channelId: "C2" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ type: "slack_channel", endpoint: { channelId: "C2" } });
    const wrong = await api("PATCH", "/v1/channel-endpoints/alerts", { endpoint: { userId: "U1" } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Endpoint must match the required format for type "slack_channel"');
    const ghost = await api("PATCH", "/v1/channel-endpoints/ghost", { endpoint: { channelId: "C2" } });
    expect(ghost.status).toBe(404);
    expect(ghost.body.message).toBe(`Channel endpoint with identifier "ghost" not found in environment "${env}"`);
  });

  // A type the document's update body leaves out (it lists six of the ten shapes): production's use case takes it.
  it("updates an MS Teams endpoint, which the document's PATCH body does not list", async () => {
    await create({ identifier: "teams", type: "ms_teams_channel", endpoint: { teamId: "t1", channelId: "c1" } });
    const r = await api("PATCH", "/v1/channel-endpoints/teams", { endpoint: { teamId: "t2", channelId: "c2" } });
    expect(r.status).toBe(200);
    expect(r.body.endpoint).toEqual({ teamId: "t2", channelId: "c2" });
  });

  // get-/delete-channel-endpoint.usecase.ts: "Channel endpoint with identifier '<id>' not found"; DELETE 204.
  it("deletes with 204 and answers 404 for an unknown one, in single quotes", async () => {
    await create({ identifier: "alerts", type: "slack_channel", endpoint: { channelId: "C1" } });
    expect((await api("DELETE", "/v1/channel-endpoints/alerts")).status).toBe(204);
    for (const method of ["GET", "DELETE"]) {
      const r = await api(method, "/v1/channel-endpoints/alerts");
      expect(r.status, method).toBe(404);
      expect(r.body.message).toBe("Channel endpoint with identifier 'alerts' not found");
    }
  });

  // delete-channel-connection.usecase.ts: the endpoints that name a deleted connection stay.
  it("keeps the endpoints of a deleted connection", async () => {
    await api("POST", "/v1/channel-connections", { identifier: "c", integrationIdentifier: "slack-ops", subscriberId: "alice", workspace: { id: "T" }, auth: { accessToken: "t" } });
    await create({ identifier: "alerts", type: "slack_channel", endpoint: { channelId: "C1" }, connectionIdentifier: "c" });
    expect((await api("DELETE", "/v1/channel-connections/c")).status).toBe(204);
    expect((await api("GET", "/v1/channel-endpoints/alerts")).body.connectionIdentifier).toBe("c");
  });

  // list-channel-endpoints.usecase.ts: cursor page, each filter exact, the contexts an exact set.
  it("lists with the cursor and filters by subscriber, connection and exact contexts", async () => {
    await api("POST", "/v2/subscribers", { subscriberId: "bob" });
    await api("POST", "/v1/channel-connections", { identifier: "c", integrationIdentifier: "slack-ops", subscriberId: "alice", workspace: { id: "T" }, auth: { accessToken: "t" } });
    await create({ identifier: "a", type: "slack_channel", endpoint: { channelId: "C1" } });
    await create({ identifier: "b", type: "slack_channel", endpoint: { channelId: "C1" }, subscriberId: "bob", connectionIdentifier: "c", context: { tenant: "acme" } });
    const page = await api("GET", "/v1/channel-endpoints?limit=1");
    expect(page.body.data).toHaveLength(1);
    expect(page.body.totalCount).toBe(2);
    const ids = async (q: string) => (await api("GET", `/v1/channel-endpoints?${q}`)).body.data.map((x: { identifier: string }) => x.identifier).sort();
    expect(await ids("subscriberId=bob")).toEqual(["b"]);
    expect(await ids("connectionIdentifier=c")).toEqual(["b"]);
    expect(await ids("contextKeys=tenant:acme")).toEqual(["b"]);
    expect(await ids("providerId=slack&channel=chat")).toEqual(["a", "b"]);
  });
});
