/**
 * A bad day costs no data: faults on the wire, hostile responses, leaks, transport rules and
 * identifiers that try to escape their route, each through the real CLI.
 */
import { describe, expect, it } from "vitest";
import { createTestStack, exportedState, loadPackage } from "../helpers/pulumi";
import { startTestEmulator } from "../helpers/emulator";
import { useStack } from "../helpers/stack";
import { expectExactlyDeclared, seedScaleService } from "../helpers/service";
import { FIRST_WRITES, type MultiRequestModule } from "../helpers/stops";

type Programs = typeof import("../../bench/programs");
const { mixCounts, scaleProgram } = loadPackage<Programs>("/dist/bench/programs");

describe("faults on the wire", () => {
  const N = Number(process.env.NOTIFY_FAULTS_N ?? 100);
  const { emu, ts } = useStack({
    // Limits the bench's mix (mixCounts, bench/programs.ts) fits in, up to the soak run's N = 400.
    emulator: { environmentLimit: 100, environmentVariableLimit: 1000 },
    seed: (emu) => seedScaleService(emu, N / 4),
    program: scaleProgram(N),
  });

  it("up of N resources (100 in npm test) converges through 10% 5xx, 5% 429, 2% dropped connections and 0-100 ms latency, with no duplicate", async () => {
    await emu.api("POST", "/__emulator/faults", { errorRate: 0.1, rateLimitRate: 0.05, dropRate: 0.02, latencyMs: [0, 100], seed: 7 });
    const up = await ts.stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges?.create).toBe(N + 1);
    const log = await emu.requests();
    const faults = log.filter((r) => r.fault).length;
    // The faults really happened, the work-then-lost kind included.
    expect(faults).toBeGreaterThan(10);
    expect(log.some((r) => String(r.fault).endsWith("after-work"))).toBe(true);
    await emu.api("POST", "/__emulator/faults", {});
    await expectExactlyDeclared(emu, N);
    const again = await ts.stack.up();
    expect(again.summary.resourceChanges).toEqual({ same: N + 1 });
    await ts.stack.preview({ refresh: true, expectNoChanges: true });
  });

  it("destroy converges under the same faults and leaves nothing", async () => {
    await emu.api("POST", "/__emulator/faults", { errorRate: 0.1, rateLimitRate: 0.05, dropRate: 0.02, latencyMs: [0, 100], seed: 11 });
    const failed = await ts.stack.destroy().then(() => undefined, (e: Error) => e);
    // A failure names, beside what the provider says each attempt got, every request of the
    // paths whose deletes met a fault, as the emulator answered them: where an attempt was lost.
    if (failed) {
      const log = await emu.requests();
      const faulted = new Set(log.filter((r) => r.method === "DELETE" && r.fault).map((r) => r.path));
      const answers = log.filter((r) => faulted.has(r.path)).map((r) => `${r.seq} ${r.time} ${r.method} ${r.path} ${r.status} ${r.fault ?? ""}`);
      throw new Error(`${failed.message}\nthe emulator's answers to the paths of faulted deletes:\n${answers.join("\n")}`);
    }
    await emu.api("POST", "/__emulator/faults", {});
    // Every kind of the mix is gone but the environment's default layout, which destroy leaves.
    await expectExactlyDeclared(emu, 0);
    const left = (await emu.state()).layouts.filter((l) => !l.deleted);
    expect(left.map((l) => [l.isDefault, /^bench-layout-\d+$/.test(l.identifier)])).toEqual([[true, true]]);
  });
});

/**
 * A server that stops between the requests of one operation (after the first write of a create
 * that is more than one request: test/helpers/stops.ts), then comes back: the failed up recorded
 * each object it made, and one up converges with no orphan, no duplicate and nothing lost. `npm
 * test` stops at the integrations' create; the soak run at each (NOTIFY_STOP_POINTS=all).
 */
describe("a server stopped between the requests of an operation", () => {
  const N = Number(process.env.NOTIFY_STOP_N ?? 40);
  const points = process.env.NOTIFY_STOP_POINTS === "all" ? Object.keys(FIRST_WRITES) as MultiRequestModule[] : ["integration" as const];
  const { emu, ts } = useStack({
    emulator: { environmentLimit: 100, environmentVariableLimit: 1000 },
    seed: (emu) => seedScaleService(emu, N / 4),
    program: scaleProgram(N),
  });

  it.each(points)("stopped after the first write of %s: the up fails, the next converges on exactly what is declared", async (point) => {
    const kind = `${point[0]!.toUpperCase()}${point.slice(1)}` as keyof ReturnType<typeof mixCounts>;
    expect(mixCounts(N)[kind], `the mix of ${N} has no ${kind}: NOTIFY_STOP_N is too small for this point`).toBeGreaterThan(0);
    await emu.api("POST", "/__emulator/faults", { stopAfter: FIRST_WRITES[point] });
    await expect(ts.stack.up()).rejects.toThrow();
    await emu.api("POST", "/__emulator/faults", {});
    await ts.stack.up();
    await expectExactlyDeclared(emu, N);
    expect((await ts.stack.up()).summary.resourceChanges).toEqual({ same: N + 1 });
    await ts.stack.preview({ refresh: true, expectNoChanges: true });
    // The next point starts afresh: an empty stack, the service as seeded (a destroy leaves the
    // environment's default layout, which the next up could only adopt).
    await ts.stack.destroy();
    await emu.api("POST", "/__emulator/reset");
    await seedScaleService(emu, N / 4);
  });
});

describe("hostile responses", () => {
  let mode: "resource" | "function" = "resource";
  const { emu, ts } = useStack({
    program: async () => {
      const notify = loadPackage();
      if (mode === "function") {
        await notify.getSubscribers({ maxResults: 10 });
        return;
      }
      new notify.Integration("hostile", { identifier: "hostile", providerId: "sendgrid", channel: "email", credentials: { apiKey: "SG.hostile-secret" } });
    },
    config: { "notify:requestTimeoutMs": { value: "1000" } },
  });

  const cases: [string, RegExp][] = [
    ["html", /502.*Bad Gateway|HTML/i],
    ["truncated", /a body that is not JSON/],
    ["wrong-types", /unexpected response|invalid|expected/i],
    ["missing-fields", /unexpected response|required|expected/i],
    ["huge", /larger than|too large|exceeds|bytes/i],
    ["trickle", /no complete answer within 1000 ms/],
    ["echo-key", /400|Bad Request/],
  ];
  it.each(cases)("%s: a clear error, no crash, nothing recorded", async (kind, expected) => {
    for (const m of ["resource", "function"] as const) {
      mode = m;
      await emu.api("POST", "/__emulator/faults", { hostile: kind });
      const started = Date.now();
      const err = await ts.stack.up().then(() => undefined, (e: Error) => e);
      await emu.api("POST", "/__emulator/faults", {});
      expect(err, `${kind} ${m}`).toBeInstanceOf(Error);
      const message = String(err!.message);
      expect(message, `${kind} ${m}`).toMatch(expected);
      // The provider failed cleanly (no stack trace of a crash in the plugin), well within the retry cap.
      expect(message).not.toMatch(/TypeError|ReferenceError|Cannot read properties/);
      expect(Date.now() - started).toBeLessThan(90_000);
      // The key never comes back, even when the service echoes it.
      expect(message).not.toContain(emu.key);
      expect(message).not.toContain("SG.hostile-secret");
      const { resources, text } = await exportedState(ts.stack);
      expect(resources.filter((r) => String(r.type).includes("notify:Integration"))).toEqual([]);
      expect(text).not.toContain(emu.key);
    }
    // The stack is usable afterwards.
    mode = "resource";
    await ts.stack.refresh();
  });
});

describe("leaks", () => {
  const SECRET_CRED = "SG.leak-check-credential-0123";
  const SECRET_HOOK = "https://hooks.slack.example/services/leak-check-hook";
  const SIGNING_KEY = "whsec-leak-check";

  /** A full lifecycle with engine logs at --verbose 9 and an error path; everything a user could see, as text. */
  async function lifecycle(verbosity: number, keyFrom: "config" | "env" = "config"): Promise<{ everything: string; logs: string; atRest: string; key: string }> {
    const emu = await startTestEmulator();
    await emu.api("POST", "/v2/subscribers", { subscriberId: "leaky" });
    const ts = await createTestStack({
      program: async () => {
        const notify = loadPackage();
        const slack = new notify.Integration("slack", { identifier: "slack-leak", providerId: "slack", channel: "chat", active: true });
        new notify.Integration("mail", {
          identifier: "mail-leak", providerId: "sendgrid", channel: "email", credentials: { apiKey: SECRET_CRED },
          configurations: { inboundWebhookEnabled: true, inboundWebhookSigningKey: SIGNING_KEY },
        });
        new notify.SubscriberCredentials("hook", { subscriberId: "leaky", providerId: "slack", integrationIdentifier: "slack-leak", credentials: { webhookUrl: SECRET_HOOK } }, { dependsOn: [slack] });
      },
      // From the environment, the key reaches the provider process without crossing the engine.
      config: keyFrom === "config" ? emu.stackConfig() : { "notify:apiUrl": { value: emu.url } },
      env: keyFrom === "env" ? { NOTIFY_API_KEY: emu.key } : undefined,
    });
    try {
      // Each stream kept whole: interleaving their chunks would split the engine's log lines.
      const stdout: string[] = [];
      const stderr: string[] = [];
      const verbose = { logVerbosity: verbosity, logToStdErr: true, onOutput: (o: string) => stdout.push(o), onError: (e: string) => stderr.push(e) };
      await ts.stack.up(verbose);
      await ts.stack.preview({ ...verbose, refresh: true });
      await ts.stack.refresh(verbose);
      // An error path: the service refuses the next update and echoes the key it saw.
      await emu.api("POST", "/__emulator/faults", { hostile: "echo-key" });
      const err = await ts.stack.up({ ...verbose, refresh: true }).then(() => undefined, (e: Error) => e);
      await emu.api("POST", "/__emulator/faults", {});
      expect(err).toBeInstanceOf(Error);
      const { text } = await exportedState(ts.stack);
      await ts.stack.destroy(verbose);
      const history = JSON.stringify(await ts.stack.history(undefined, undefined, false));
      // The logs really are verbose (the engine's RPC traffic is in them).
      const logs = `${stdout.join("")}\n${stderr.join("")}`;
      if (verbosity >= 9) expect(logs.length).toBeGreaterThan(100_000);
      return {
        everything: [text, logs, String(err?.message), history].join("\n"),
        logs: [logs, String(err?.message)].join("\n"),
        atRest: [text, history].join("\n"),
        key: emu.key,
      };
    } finally {
      await ts.cleanup();
      await emu.close();
    }
  }

  it("at --verbose 2: no state, engine log, error message or history holds the API key or a credential", async () => {
    const { everything, key } = await lifecycle(2);
    for (const s of [key, SECRET_CRED, SECRET_HOOK, SIGNING_KEY]) expect(everything.includes(s), s).toBe(false);
  });

  it("at --verbose 9: secrets only in the Node SDK's own debug messages of its RPCs, nowhere else", async () => {
    // Pulumi prints secrets unwrapped in the Node SDK's debug message of every RegisterResource
    // response (outputs included), which the engine logs from level 3: a string, which the CLI's
    // redaction of secrets in its log output (3.276.0) cannot see into. The engine's own dumps of
    // the properties it marshals over RPC, which 3.259.0 printed at level 9, hold none. The SDK
    // sends its messages without waiting, so a run may log none of them. That is outside this
    // project; docs/troubleshooting.md says so. Our provider's own messages, the state, history
    // and errors stay clean.
    const { logs, atRest, key } = await lifecycle(9);
    const sdkDebug = /^\{"time":"[^"]+","level":"INFO","msg":"(eventSink::Debug\(<\{%reset%\}>)?RegisterResource RPC finished: resource:/;
    for (const line of logs.split("\n")) {
      if ([key, SECRET_CRED, SECRET_HOOK, SIGNING_KEY].some((s) => line.includes(s))) expect(line).toMatch(sdkDebug);
    }
    for (const s of [key, SECRET_CRED, SECRET_HOOK, SIGNING_KEY]) expect(atRest.includes(s), s).toBe(false);
  });

  it("at --verbose 9 with the API key in NOTIFY_API_KEY instead of stack config: the key is nowhere, not even in those messages", async () => {
    const { everything, key } = await lifecycle(9, "env");
    expect(everything.includes(key)).toBe(false);
  });
});

describe("transport", () => {
  const { emu, stack } = useStack();

  it("refuses http:// to a host other than loopback unless notify:allowInsecureHttp is set", async () => {
    const program = async () => {
      const notify = loadPackage();
      new notify.Integration("remote", { identifier: "remote", providerId: "sendgrid", channel: "email" });
    };
    const ts = await stack({
      program,
      config: { "notify:apiUrl": { value: "http://notify.invalid:8080" }, "notify:apiKey": { value: emu.key, secret: true } },
    });
    const err = await ts.stack.up().then(() => undefined, (e: Error) => e);
    expect(String(err?.message)).toMatch(/allowInsecureHttp/);
    await ts.stack.setConfig("notify:allowInsecureHttp", { value: "true" });
    await ts.stack.setConfig("notify:requestTimeoutMs", { value: "500" });
    const second = await ts.stack.up().then(() => undefined, (e: Error) => e);
    // Allowed now: it gets as far as resolving the (nonexistent) host.
    expect(second, "the second up should fail at the unreachable host").toBeInstanceOf(Error);
    expect(String(second?.message)).not.toMatch(/allowInsecureHttp/);
    expect(String(second?.message)).toMatch(/notify\.invalid|ENOTFOUND|EAI_AGAIN|connect/i);
  });

  it("never turns TLS verification off", async () => {
    const { readFileSync, readdirSync, statSync } = await import("node:fs");
    const path = await import("node:path");
    const files: string[] = [];
    const walk = (d: string) => { for (const f of readdirSync(d)) { const p = path.join(d, f); if (statSync(p).isDirectory()) walk(p); else if (p.endsWith(".ts")) files.push(p); } };
    walk(path.resolve(__dirname, "../../provider"));
    for (const f of files) {
      const src = readFileSync(f, "utf8");
      expect(src, f).not.toMatch(/rejectUnauthorized\s*:\s*false|NODE_TLS_REJECT_UNAUTHORIZED|checkServerIdentity/);
    }
  });

  it("sends identifiers with / .. ? # % and unicode to their own route only", async () => {
    const weird = ["a/b", "..", "x?admin=1", "frag#ment", "100%", "ünïcødé-用户", "../../v1/integrations"];
    for (const id of weird) await emu.api("POST", "/v2/subscribers", { subscriberId: id });
    await emu.api("POST", "/v1/integrations", { identifier: "slack-weird", providerId: "slack", channel: "chat", active: true });
    const ts = await stack({
      program: async () => {
        const notify = loadPackage();
        weird.forEach((id, i) => new notify.SubscriberCredentials(`c${i}`, { subscriberId: id, providerId: "slack", integrationIdentifier: "slack-weird", credentials: { webhookUrl: `https://hooks.example/${i}` } }));
        const one = await notify.getSubscriber({ subscriberId: "x?admin=1" });
        return { one: one.subscriberId };
      },
    });
    await emu.clearRequests();
    const up = await ts.stack.up();
    expect(up.outputs.one!.value).toBe("x?admin=1");
    const log = await emu.operationRequests();
    // Each request path has exactly the route's segments, and no query leaked out of an id. The
    // integrations are not listed: a credentials write's answer says which entry is the subscriber's
    // (the request floor, test/conformance/requests.test.ts).
    for (const r of log) {
      expect(r.path, r.path).toMatch(/^\/v[12]\/subscribers\/[^/]+(\/credentials)?$|^\/v1\/integrations$/);
      expect(r.query).toEqual({});
    }
    expect(log.filter((r) => r.path === "/v1/integrations")).toEqual([]);
    const s = await emu.state();
    weird.forEach((id, i) => {
      const sub = s.subscribers.find((x) => x.subscriberId === id);
      expect(sub.channels.map((c: any) => c.credentials.webhookUrl), id).toEqual([`https://hooks.example/${i}`]);
    });
    expect(s.integrations.filter((i) => !i.deleted)).toHaveLength(1);
    await ts.stack.destroy();
    expect((await emu.state()).subscribers.every((x) => x.channels.length === 0)).toBe(true);
  });
});
