/**
 * `removeCreatedContexts` of the ChannelConnection and ChannelEndpoint implementation modules
 * (provider/resources/createdContexts.ts), from source against an emulator in this process (issue
 * #55, item 7): the service makes a context of a create's `context` it does not hold, and keeps it
 * after the delete. With the setting on, the create records those it made (one read per context
 * before it) and the delete removes each one that holds no data and that no connection or endpoint
 * names, warning of each kept; off, nothing more is sent and every context stays.
 */
import { describe, expect, it } from "vitest";
import { checked, emulatorPerBlock, impl, type Obj } from "../../../helpers/implementation";
import * as lifecycle from "../../../../provider/resources/lifecycle";
import { keptContextWarning } from "../../../../provider/resources/createdContexts";

/** Runs `fn` with the warnings collected. */
async function warnings<T>(fn: () => Promise<T>): Promise<{ result: T; warned: string[] }> {
  const warned: string[] = [];
  const before = lifecycle.setWarningSink(async (m) => { warned.push(m); });
  try {
    return { result: await fn(), warned };
  } finally {
    lifecycle.setWarningSink(before);
  }
}

const shared = (over: Obj = {}): Obj => ({
  identifier: "acme-slack", integrationIdentifier: "slack-ops", connectionMode: "shared", context: { tenant: "acme" },
  workspace: { id: "T0ACME" }, auth: { accessToken: "xoxb-acme" }, ...over,
});
const endpointOf = (over: Obj = {}): Obj => ({
  identifier: "alice-alerts", subscriberId: "alice", integrationIdentifier: "slack-ops", type: "slack_channel", endpoint: { channelId: "C0ALERTS" }, ...over,
});

describe("removeCreatedContexts", () => {
  const emulator = emulatorPerBlock({}, async (emu) => {
    await emu.api("POST", "/v1/integrations", { identifier: "slack-ops", providerId: "slack", channel: "chat", active: true, check: false });
    await emu.api("POST", "/v2/subscribers", { subscriberId: "alice" });
  });
  const connection = impl("channelConnection");
  const endpoint = impl("channelEndpoint");
  const contexts = async () => (await emulator().state()).contexts.map((c) => c.key).sort();
  const sent = async () => (await emulator().operationRequests()).map((r) => `${r.method} ${r.route}`);

  it("off (the default): nothing more is sent, nothing is recorded, and the context the service made stays", async () => {
    const { id, outs } = await connection.create(await checked(connection, shared()));
    expect(outs.createdContextKeys).toBeUndefined();
    await connection.delete(id, outs);
    expect(await sent()).toEqual(["POST /v1/channel-connections", "DELETE /v1/channel-connections/{identifier}"]);
    expect(await contexts()).toEqual(["tenant:acme"]);
  });

  it("on: the create records the contexts the service made (one read each), the delete removes them and leaves the one it held", async () => {
    await emulator().api("POST", "/v2/contexts", { type: "team", id: "ops", data: {} });
    await emulator().clearRequests();
    const { id, outs } = await connection.create(await checked(connection, shared({ context: { tenant: "acme", team: "ops" }, removeCreatedContexts: true })));
    expect(outs).toMatchObject({ removeCreatedContexts: true, createdContextKeys: ["tenant:acme"] });
    expect(await sent()).toEqual(["GET /v2/contexts/{type}/{id}", "GET /v2/contexts/{type}/{id}", "POST /v1/channel-connections"]);
    // A refresh keeps the record.
    expect((await connection.read(id, outs)).props).toMatchObject({ removeCreatedContexts: true, createdContextKeys: ["tenant:acme"] });
    await emulator().clearRequests();
    const { warned } = await warnings(() => connection.delete(id, outs));
    expect(warned).toEqual([]);
    expect(await contexts()).toEqual(["team:ops"]);
    expect(await sent()).toEqual([
      "DELETE /v1/channel-connections/{identifier}", "GET /v1/channel-connections", "GET /v1/channel-endpoints",
      "GET /v2/contexts/{type}/{id}", "DELETE /v2/contexts/{type}/{id}",
    ]);
  });

  it("on, for an endpoint too; and a context another connection or endpoint names, or that holds data, is kept with a warning", async () => {
    // The endpoint makes tenant:acme; a connection this stack does not hold names it too.
    const made = await endpoint.create(await checked(endpoint, endpointOf({ context: { tenant: "acme", app: "mobile" }, removeCreatedContexts: true })));
    expect(made.outs.createdContextKeys).toEqual(["tenant:acme", "app:mobile"]);
    await emulator().api("POST", "/v1/channel-connections", { ...shared({ identifier: "by-hand" }), context: { tenant: "acme" } });
    // app:mobile gets data in the dashboard.
    expect((await emulator().api("PATCH", "/v2/contexts/app/mobile", { data: { plan: "pro" } })).status).toBe(200);
    const { warned } = await warnings(() => endpoint.delete(made.id, made.outs));
    expect(warned).toEqual([
      keptContextWarning('channel endpoint "alice-alerts"', "tenant:acme", 'channel connection "by-hand" names it'),
      keptContextWarning('channel endpoint "alice-alerts"', "app:mobile", "it holds data set since"),
    ]);
    expect(await contexts()).toEqual(["app:mobile", "tenant:acme"]);
    expect((await emulator().state()).channelEndpoints).toEqual([]);
  });

  it("a connection and an endpoint of one stack: the endpoint, deleted first, keeps the context the connection still names; the connection's delete removes it", async () => {
    const conn = await connection.create(await checked(connection, shared({ removeCreatedContexts: true })));
    const endp = await endpoint.create(await checked(endpoint, endpointOf({ connectionIdentifier: "acme-slack", context: { tenant: "acme" }, removeCreatedContexts: true })));
    // The connection made it; the endpoint found it there.
    expect([conn.outs.createdContextKeys, endp.outs.createdContextKeys]).toEqual([["tenant:acme"], []]);
    const { warned } = await warnings(async () => {
      await endpoint.delete(endp.id, endp.outs);
      await connection.delete(conn.id, conn.outs);
    });
    expect(warned).toEqual([]);
    expect(await contexts()).toEqual([]);
  });

  it("a change of the setting alone is written to the state without a request, the record kept; an adopted connection records nothing", async () => {
    const { id, outs } = await connection.create(await checked(connection, shared({ removeCreatedContexts: true })));
    const off = await checked(connection, shared({ removeCreatedContexts: false }));
    expect(await connection.diff(id, outs, off)).toMatchObject({ changes: true, changed: ["removeCreatedContexts"], replaces: [] });
    await emulator().clearRequests();
    const { outs: after } = await connection.update(id, outs, off);
    expect(await sent()).toEqual([]);
    expect(after).toMatchObject({ removeCreatedContexts: false, createdContextKeys: ["tenant:acme"] });
    expect((await connection.diff(id, after, off)).changes).toBe(false);
    // Off in the state: the delete leaves the context.
    await connection.delete(id, after);
    expect(await contexts()).toEqual(["tenant:acme"]);
    // Made outside the stack, then adopted: its create was not this stack's.
    await emulator().api("POST", "/v1/channel-connections", shared({ identifier: "existing", context: { team: "adopted" } }));
    const adopted = await connection.create(await checked(connection, shared({ identifier: "existing", context: { team: "adopted" }, adopt: true, removeCreatedContexts: true })));
    expect(adopted.outs.createdContextKeys).toEqual([]);
    await connection.delete(adopted.id, adopted.outs);
    expect(await contexts()).toEqual(["team:adopted", "tenant:acme"]);
  });
});
