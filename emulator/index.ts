/** A local emulator of the notification service, for tests and demos. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { EmulatorApp, type Behaviour, type Faults, type LoggedRequest } from "./server";
import { EMULATED_VERSION, type Plan, type RouteGate } from "./types";
import type { Tenant } from "./store";

export type { Behaviour, Faults, LoggedRequest, Plan, RouteGate };
export { EMULATED_VERSION };

/** Options of {@link startEmulator}. */
export interface EmulatorOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /**
   * API keys. Each key gets its own environment of one organisation; `key=name` names the
   * environment (id `env_<name>`); an unnamed first key is Development's and an unnamed second
   * Production's (ids `env_env0`, `env_env1`). Development and Production exist in any case.
   * Default: one key, `notify-emulator-key`.
   */
  apiKeys?: string[];
  /** `production` (default): `{data}` envelope and hidden credentials; `spec`: api.md's bare bodies. */
  mode?: "production" | "spec";
  envelope?: boolean;
  hideCredentials?: boolean;
  /** Credentials shown encrypted in write answers, as the 2.0 server did (default off). */
  encryptCredentialAnswers?: boolean;
  idempotency?: boolean;
  /** Token bucket per key; off by default. */
  rateLimit?: { rate: number; burst: number };
  /** The plan's event history window in days (default 30): the events list starts no earlier. */
  retentionDays?: number;
  /**
   * The organisation's plan. Environment create and delete are a feature of the Business plan and
   * above: `free` and `pro` answer 402 there, as production does; `free` also allows one v2 layout
   * per environment (the others 100). Default `business`, so that environments can be managed out
   * of the box; set `free` to see the gates.
   */
  plan?: Plan;
  /** Most environments of the organisation, Development and Production included (default 10, production's). */
  environmentLimit?: number;
  /** Most environment variables of the organisation (default 10, production's). */
  environmentVariableLimit?: number;
  /** API keys scoped to their own environment on environment routes, as the newer upstream (default off). */
  scopedEnvironmentKeys?: boolean;
  /** A duplicate agent identifier stored with a suffix, as the newer upstream (default off: a 409). */
  suffixDuplicateAgents?: boolean;
  /** The organisation's context preferences, which topic subscriptions' context needs (default off, production's flag default). */
  contextPreferences?: boolean;
  /** A duplicate workflowId stored with a suffix and answered 201, as the real 3.15.0 server did (default off: a 409). */
  suffixDuplicateWorkflows?: boolean;
  /** A subscribe's answers as the real 3.15.0 server gave them (default off). */
  bareSubscribeAnswers?: boolean;
  /** The version the health check claims (default {@link EMULATED_VERSION}). */
  version?: string;
  /** Routes the server lacks or gates, by path prefix (default none). */
  routeGates?: RouteGate[];
  /** Keep the store in this JSON file across restarts. */
  statePath?: string;
}

/** A running emulator. */
export interface RunningEmulator {
  url: string;
  /** API keys and their tenants. */
  keys: Map<string, Tenant>;
  app: EmulatorApp;
  close(): Promise<void>;
}

/** The default API key of an emulator started without one. */
export const DEFAULT_API_KEY = "notify-emulator-key";

/** Parses `key` or `key=environmentName` entries into tenants of one organisation. */
export function tenantsFor(apiKeys: string[]): Map<string, Tenant> {
  const keys = new Map<string, Tenant>();
  apiKeys.forEach((entry, i) => {
    const eq = entry.indexOf("=");
    const key = eq > 0 ? entry.slice(0, eq) : entry;
    const env = eq > 0 ? entry.slice(eq + 1) : `env${i}`;
    keys.set(key, { environmentId: `env_${env}`, organizationId: "org_emulator" });
  });
  return keys;
}

/** Starts the emulator; resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const mode = options.mode ?? "production";
  const behaviour: Behaviour = {
    envelope: options.envelope ?? mode === "production",
    hideCredentials: options.hideCredentials ?? mode === "production",
    encryptCredentialAnswers: options.encryptCredentialAnswers ?? false,
    idempotency: options.idempotency ?? true,
    rateLimit: options.rateLimit,
    retentionDays: options.retentionDays ?? 30,
    plan: options.plan ?? "business",
    environmentLimit: options.environmentLimit ?? 10,
    environmentVariableLimit: options.environmentVariableLimit ?? 10,
    scopedEnvironmentKeys: options.scopedEnvironmentKeys ?? false,
    suffixDuplicateAgents: options.suffixDuplicateAgents ?? false,
    contextPreferences: options.contextPreferences ?? false,
    suffixDuplicateWorkflows: options.suffixDuplicateWorkflows ?? false,
    bareSubscribeAnswers: options.bareSubscribeAnswers ?? false,
    version: options.version ?? EMULATED_VERSION,
    routeGates: options.routeGates ?? [],
  };
  const apiKeys = options.apiKeys?.length ? options.apiKeys : [DEFAULT_API_KEY];
  const keys = tenantsFor(apiKeys);
  const app = new EmulatorApp({ apiKeys, behaviour, statePath: options.statePath });
  const server: Server = createServer({ keepAliveTimeout: 30_000 }, app.handle);
  const sockets = new Set<import("node:net").Socket>();
  server.on("connection", (s) => { sockets.add(s); s.on("close", () => sockets.delete(s)); });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}`,
    keys,
    app,
    close: () => new Promise<void>((resolve) => {
      app.store.save();
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
