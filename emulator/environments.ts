/**
 * Environments as tenants: every API key belongs to one environment of one organisation, and
 * the store holds those environments, so one created through `POST /v1/environments` gets a key
 * that authenticates like the configured ones and sees only its own objects.
 *
 * The configured keys (`key` or `key=name`) give the organisation's starting environments: an
 * unnamed first key is Development's, an unnamed second key Production's (each organisation
 * starts with those two: the service's create-organization use case), further unnamed keys
 * `env<i>`. Development and Production are added, with keys of their own, when no key names
 * them. Their ids stay `env_<name>` (`env_env0` for the first unnamed key) so tests can name them.
 */
import { createCipheriv, createHash, randomBytes } from "node:crypto";
import type { ApiKeyRecord, EnvironmentRecord } from "./records";
import type { Store, Tenant } from "./store";
import { objectId, secretEquals } from "./util";

/** The organisation every configured key belongs to. */
export const EMULATOR_ORGANIZATION = "org_emulator";
/** The user production records as each key's creator; the emulator has one. */
export const EMULATOR_USER = "user_emulator";
/** The names of the two environments every organisation starts with, which cannot be deleted or renamed. */
export const PROTECTED_ENVIRONMENTS = ["Development", "Production"] as const;
/** Colours production gives Development and Production (create-environment.usecase.ts, getEnvironmentColor). */
const SYSTEM_COLORS: Record<string, string> = { Development: "#ff8547", Production: "#7e52f4" };

/** A fresh API key as production makes one: 16 random bytes as 32 lowercase hex characters. */
export function newApiKey(key = randomBytes(16).toString("hex")): ApiKeyRecord {
  return { key, hash: createHash("sha256").update(key).digest("hex"), _userId: EMULATOR_USER };
}

/** A 12-character identifier like the service's nanoid(12). */
export function newIdentifier(): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_-";
  return [...randomBytes(12)].map((b) => alphabet[b & 63]).join("");
}

const CIPHER_KEY = randomBytes(32);
/**
 * A key as production stores it and as its create response shows it: encrypted, prefixed `nvsk.`
 * (libs/application-generic/src/encryption/encrypt-provider.ts). Not usable as a key.
 */
export function encryptedKey(key: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", CIPHER_KEY, iv);
  const body = Buffer.concat([c.update(key, "utf8"), c.final()]);
  return `nvsk.${Buffer.concat([iv, c.getAuthTag(), body]).toString("base64")}`;
}

const BASE62 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
function base62(id: string): string {
  let n = /^[0-9a-f]+$/i.test(id) ? BigInt(`0x${id}`) : BigInt(`0x${Buffer.from(id).toString("hex") || "0"}`);
  let out = "";
  do {
    out = BASE62[Number(n % 62n)]! + out;
    n /= 62n;
  } while (n > 0n);
  return out;
}

/**
 * The derived `slug`: the slugified short name (`dev`, `prod`, else the name), `_env_`, and the
 * base62 of `_id` (get-my-environments.usecase.ts; libs/application-generic/src/utils/build-slug.ts).
 */
export function environmentSlug(e: EnvironmentRecord): string {
  const short = e.name === "Development" ? "dev" : e.name === "Production" ? "prod" : e.name;
  const s = short.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return `${s}_env_${base62(e._id)}`;
}

/** Whether an environment is one of the two the service protects (matched by name, as production does). */
export const isProtected = (e: { name: string }) => (PROTECTED_ENVIRONMENTS as readonly string[]).includes(e.name);

/** Starting environments no configured key named: Development or Production, made with a random id and key. */
const MADE_HERE = new WeakSet<EnvironmentRecord>();

/** The starting environments of the configured keys (see the file comment), with their keys. */
export function startingEnvironments(apiKeys: string[], now = new Date().toISOString()): EnvironmentRecord[] {
  const byId = new Map<string, EnvironmentRecord>();
  const make = (id: string, name: string): EnvironmentRecord => ({
    _id: id, _organizationId: EMULATOR_ORGANIZATION, name, identifier: newIdentifier(),
    type: name === "Development" ? "dev" : "prod", color: SYSTEM_COLORS[name] ?? "#3498db", apiKeys: [], createdAt: now, updatedAt: now,
  });
  apiKeys.forEach((entry, i) => {
    const eq = entry.indexOf("=");
    const key = eq > 0 ? entry.slice(0, eq) : entry;
    const label = eq > 0 ? entry.slice(eq + 1) : `env${i}`;
    const name = eq > 0 ? label : i === 0 ? "Development" : i === 1 ? "Production" : label;
    const id = `env_${label}`;
    const env = byId.get(id) ?? make(id, name);
    env.apiKeys.push(newApiKey(key));
    byId.set(id, env);
  });
  for (const name of PROTECTED_ENVIRONMENTS) {
    if (![...byId.values()].some((e) => e.name === name)) {
      const env = make(objectId(), name);
      env.apiKeys.push(newApiKey());
      MADE_HERE.add(env);
      byId.set(env._id, env);
    }
  }
  const all = [...byId.values()];
  const dev = all.find((e) => e.name === "Development")!;
  const prod = all.find((e) => e.name === "Production")!;
  prod._parentId = dev._id;
  return all;
}

/**
 * Puts the starting environments into the store: those missing are added, and one already there
 * (a store read from its file) gets back any configured key it lost, so configured keys always work.
 * Development and Production are there once per organisation: one the store holds under another id
 * (made by an earlier start, whose id was random) is the same environment, not a second one.
 */
export function seedEnvironments(store: Store, starting: readonly EnvironmentRecord[]): void {
  for (const env of starting) {
    const held = store.data.environments.find((e) => e._id === env._id)
      ?? (isProtected(env) ? store.data.environments.find((e) => e._organizationId === env._organizationId && e.name === env.name) : undefined);
    if (!held) {
      store.data.environments.push(structuredClone(env));
      continue;
    }
    // The random key of an environment made here is nobody's; the held one keeps its own keys.
    if (MADE_HERE.has(env)) continue;
    for (const k of env.apiKeys) if (!held.apiKeys.some((h) => h.key === k.key)) held.apiKeys.push({ ...k });
  }
  store.touch();
}

/** The tenant of a presented key: compared in constant time with every key of every environment. */
export function tenantOfKey(store: Store, presented: string): { key: string; tenant: Tenant } | undefined {
  let found: { key: string; tenant: Tenant } | undefined;
  for (const env of store.data.environments) {
    for (const k of env.apiKeys) {
      if (secretEquals(presented, k.key)) found = { key: k.key, tenant: { environmentId: env._id, organizationId: env._organizationId } };
    }
  }
  return found;
}
