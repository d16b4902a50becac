/**
 * provider/resources/channelConnection.ts against a service: the access token kept out of the
 * errors its lifecycle throws, and the refusal of a slot another connection holds.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { startTestEmulator } from "../../../helpers/emulator";
import { impl } from "../../../helpers/implementation";

const TOKEN = "xoxb-never-shown-0123456789";

/** Points the provider's connection at `url` while `fn` runs. */
async function connectedTo<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const saved = [process.env.NOTIFY_API_URL, process.env.NOTIFY_API_KEY];
  process.env.NOTIFY_API_URL = url;
  process.env.NOTIFY_API_KEY = "test-api-key-0123456789";
  try {
    return await fn();
  } finally {
    [process.env.NOTIFY_API_URL, process.env.NOTIFY_API_KEY] = saved;
    for (const [k, v] of [["NOTIFY_API_URL", saved[0]], ["NOTIFY_API_KEY", saved[1]]] as const) if (v === undefined) delete process.env[k];
  }
}

describe("the lifecycle's messages", () => {
  const built = impl("channelConnection");
  const inputs = { identifier: "acme-slack", integrationIdentifier: "slack-ops", subscriberId: "alice", workspace: { id: "T1" }, auth: { accessToken: TOKEN } };

  // Whatever a service or a proxy on the way echoes back, the engine never shows the token.
  it("never carry the token, even when the service's error quotes it", async () => {
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => { body += c.toString(); });
      req.on("end", () => {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ statusCode: 400, message: `invalid_auth: ${String((JSON.parse(body || "{}") as { auth?: { accessToken?: string } }).auth?.accessToken)}` }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const olds = { ...inputs, auth: { accessToken: "xoxb-old" }, declaredKeys: Object.keys(inputs) };
      const err = await connectedTo(url, () => built.update("acme-slack", olds, inputs).then(() => undefined, (e: Error) => e));
      expect(err?.message).toContain("invalid_auth: [REDACTED]");
      expect(err?.message).not.toContain(TOKEN);
      const made = await connectedTo(url, () => built.create(inputs).then(() => undefined, (e: Error) => e));
      expect(made?.message).toContain("[REDACTED]");
      expect(made?.message).not.toContain(TOKEN);
    } finally {
      server.close();
    }
  });

  // create-channel-connection.usecase.ts: one connection per integration, subscriber and contexts, whose 409 names the holder.
  it("name the connection that holds the slot when it is another identifier, and say how to take it over", async () => {
    const emu = await startTestEmulator();
    try {
      await emu.api("POST", "/v1/integrations", { identifier: "slack-ops", providerId: "slack", channel: "chat", active: true, check: false });
      await emu.api("POST", "/v2/subscribers", { subscriberId: "alice" });
      await emu.api("POST", "/v1/channel-connections", { ...inputs, identifier: "made-by-hand" });
      for (const adopt of [false, true]) {
        const err = await connectedTo(emu.url, () => built.create({ ...inputs, adopt }).then(() => undefined, (e: Error) => e));
        expect(err?.message, `adopt ${adopt}`).toMatch(/Connection ID: made-by-hand.*connection "made-by-hand" is that one: declare identifier "made-by-hand" with adopt: true/s);
      }
    } finally {
      await emu.close();
    }
  });
});
