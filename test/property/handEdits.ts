/**
 * Hand edits, as a person makes them in the dashboard: through the service's API, one declared
 * field of one object changed, or the object deleted. Each edit says which resource and which
 * input a `preview --refresh` must show changing.
 */
import { routeAddress } from "../../provider/resources/domain";
import type { TestEmulator } from "../helpers/emulator";
import { TOPIC_SUBSCRIBERS } from "../unit/resources/arbitraries";

type Obj = Record<string, unknown>;

/** One resource of a random stack, as the program declares it. */
export interface Declared {
  name: string;
  /** The name of its table in RESOURCE_TABLES; each has its edits below (test/unit/property/handEdits.test.ts checks). */
  kind: string;
  inputs: Obj;
}

/** What an edit changed: the resource, and the input (undefined for a deletion). */
export interface Edit {
  resource: string;
  field?: string;
  description: string;
  apply(emu: TestEmulator, id: string): Promise<void>;
}

const flip = (v: unknown) => !(v as boolean);

async function ok(r: Promise<{ status: number; body: unknown }>, what: string): Promise<any> {
  const res = await r;
  if (res.status >= 300) throw new Error(`hand edit ${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}

/** GET the workflow, then PUT it back whole (each step with its `_id`) with `change` applied. */
async function editWorkflow(emu: TestEmulator, id: string, change: (body: any) => void): Promise<void> {
  const wf = await ok(emu.api("GET", `/v2/workflows/${id}`), "get workflow");
  const body: any = {
    name: wf.name, description: wf.description, tags: wf.tags, active: wf.active, validatePayload: wf.validatePayload,
    payloadSchema: wf.payloadSchema ?? undefined, isTranslationEnabled: wf.isTranslationEnabled, severity: wf.severity, origin: wf.origin,
    preferences: { user: wf.preferences.user, workflow: wf.preferences.default },
    steps: wf.steps.map((s: any) => ({ _id: s._id, name: s.name, type: s.type, controlValues: s.controlValues })),
  };
  change(body);
  await ok(emu.api("PUT", `/v2/workflows/${id}`, body), "put workflow");
}

/** The field edits possible on a declared resource (secret fields only where the service shows them). */
export function fieldEdits(r: Declared, mode: "production" | "spec"): Edit[] {
  const i = r.inputs;
  const edits: Edit[] = [];
  // The edit is made only for a declared field, so it is built only then.
  const add = (field: string, description: string, make: () => Edit["apply"]) => {
    if (i[field] !== undefined) edits.push({ resource: r.name, field, description: `${r.name}.${field}: ${description}`, apply: make() });
  };
  if (r.kind === "Integration") {
    const put = (body: Obj) => (emu: TestEmulator, id: string) => ok(emu.api("PUT", `/v1/integrations/${id}`, body), "put integration");
    add("identifier", "renamed", () => put({ identifier: `${String(i.identifier)}-edited` }));
    add("name", "renamed", () => put({ name: `${String(i.name)} (edited)` }));
    // Deactivating a primary integration also unsets primary: two fields, not one.
    if (i.primary !== true) add("active", "toggled", () => put({ active: flip(i.active) }));
    add("conditions", "one more condition", () => put({ conditions: [...(i.conditions as Obj[]), { isNegated: true, type: "TEXT", value: "OR", children: [] }] }));
    // Only a nested key the program declares is compared, so only such a key is edited.
    const cfg = (i.configurations ?? {}) as Obj;
    if (cfg.inboundWebhookEnabled !== undefined) add("configurations", "webhook toggled", () => put({ configurations: { ...cfg, inboundWebhookEnabled: !cfg.inboundWebhookEnabled } }));
    // Production does not return credentials: drift in them cannot be seen there.
    const cred = (i.credentials ?? {}) as Obj;
    if (mode === "spec" && cred.apiKey !== undefined) add("credentials", "key rotated", () => put({ credentials: { ...cred, apiKey: "edited-by-hand" } }));
  } else if (r.kind === "Workflow") {
    const wf = (change: (b: any) => void) => (emu: TestEmulator, id: string) => editWorkflow(emu, id, change);
    add("name", "renamed", () => wf((b) => { b.name = `${b.name} (edited)`; }));
    add("description", "rewritten", () => wf((b) => { b.description = `${b.description ?? ""} (edited)`; }));
    add("tags", "one more tag", () => wf((b) => { b.tags = [...(b.tags ?? []), "edited-by-hand"]; }));
    add("active", "toggled", () => wf((b) => { b.active = !b.active; }));
    add("validatePayload", "toggled", () => wf((b) => { b.validatePayload = !b.validatePayload; }));
    add("isTranslationEnabled", "toggled", () => wf((b) => { b.isTranslationEnabled = !b.isTranslationEnabled; }));
    add("severity", "raised", () => wf((b) => { b.severity = b.severity === "high" ? "low" : "high"; }));
    add("payloadSchema", "one more property", () => wf((b) => { b.payloadSchema = { ...b.payloadSchema, properties: { ...(b.payloadSchema?.properties ?? {}), editedByHand: { type: "string" } } }; }));
    const prefs = i.preferences as { user?: Obj | null; workflow?: Obj } | undefined;
    if (prefs?.workflow) add("preferences", "workflow preference toggled", () => wf((b) => { b.preferences.workflow.all.enabled = !b.preferences.workflow.all.enabled; }));
    else if (prefs?.user) add("preferences", "user preference toggled", () => wf((b) => { b.preferences.user.all.enabled = !b.preferences.user.all.enabled; }));
    add("steps", "first step renamed", () => wf((b) => { b.steps[0].name = `${b.steps[0].name} (edited)`; }));
  } else if (r.kind === "Environment") {
    const put = (body: Obj) => (emu: TestEmulator, id: string) => ok(emu.api("PUT", `/v1/environments/${id}`, body), "put environment");
    add("name", "renamed", () => put({ name: `${String(i.name)} edited` }));
    add("color", "recoloured", () => put({ color: String(i.color).toLowerCase() === "#000000" ? "#ffffff" : "#000000" }));
  } else if (r.kind === "EnvironmentVariable") {
    const patch = (body: Obj) => (emu: TestEmulator, id: string) => ok(emu.api("PATCH", `/v1/environment-variables/${encodeURIComponent(id)}`, body), "patch variable");
    add("isSecret", "toggled", () => patch({ isSecret: !i.isSecret }));
    // A secret variable's values read back masked: drift in them cannot be seen.
    if (i.isSecret !== true) add("values", "value replaced", () => patch({ values: [{ _environmentId: "env_env0", value: "edited-by-hand" }] }));
  } else if (r.kind === "Layout") {
    // The service's PUT needs the name; control values left out stay as they are.
    const put = (body: Obj) => (emu: TestEmulator, id: string) => ok(emu.api("PUT", `/v2/layouts/${encodeURIComponent(id)}`, { name: i.name, ...body }), "put layout");
    add("name", "renamed", () => put({ name: `${String(i.name)} (edited)`.slice(-128) }));
    add("isTranslationEnabled", "toggled", () => put({ isTranslationEnabled: !i.isTranslationEnabled }));
    const email = (i.controlValues as { email?: { body: string; editorType: string } } | undefined)?.email;
    if (email) {
      const body = email.editorType === "html" ? email.body.replace("<body>", "<body><p>edited by hand</p>") : JSON.stringify({ type: "doc", content: [...JSON.parse(email.body).content, { type: "paragraph", content: [{ type: "text", text: "edited by hand" }] }] });
      add("controlValues", "body edited", () => put({ controlValues: { email: { ...email, body } } }));
    }
  } else if (r.kind === "Topic") {
    const key = (id: string) => `/v2/topics/${encodeURIComponent(id)}`;
    add("name", "renamed", () => (emu, id) => ok(emu.api("PATCH", key(id), { name: `${String(i.name)} (edited)`.slice(-100) }), "patch topic"));
    const subs = (i.subscribers ?? []) as string[];
    const outsider = TOPIC_SUBSCRIBERS.find((x) => !subs.includes(x));
    if (outsider) add("subscribers", `${outsider} subscribed`, () => (emu, id) => ok(emu.api("POST", `${key(id)}/subscriptions`, { subscriptions: [outsider] }), "subscribe"));
    else add("subscribers", `${subs[0]} unsubscribed`, () => (emu, id) => ok(emu.api("DELETE", `${key(id)}/subscriptions`, { subscriptions: [subs[0]] }), "unsubscribe"));
  } else if (r.kind === "Context") {
    // The id is `type:id`; the dashboard's edit replaces the data whole, as every update does.
    const path = (id: string) => `/v2/contexts/${id.split(":").map(encodeURIComponent).join("/")}`;
    add("data", "one more key", () => (emu, id) => ok(emu.api("PATCH", path(id), { data: { ...(i.data as Obj), editedByHand: true } }), "patch context"));
  } else if (r.kind === "Domain") {
    const path = (id: string) => `/v1/domains/${encodeURIComponent(id)}`;
    add("data", "one more key", () => (emu, id) => ok(emu.api("PATCH", path(id), { data: { ...(i.data as Record<string, string>), edited: "by hand" } }), "patch domain"));
    // Declared addresses compared as the service holds them; the one added by hand is typed padded
    // and in mixed case, which the service stores trimmed and lower-cased.
    const routes = Object.keys((i.routes ?? {}) as Obj).map(routeAddress);
    const extra = [" Edited-By-Hand ", "*"].find((a) => !routes.includes(routeAddress(a)))!;
    add("routes", `${extra.trim()} routed`, () => (emu, id) => ok(emu.api("POST", `${path(id)}/routes`, { address: extra, type: "webhook" }), "add route"));
  } else if (r.kind === "Translation") {
    // The dashboard saves a locale's whole document (the service's POST replaces the content).
    add("content", "one more key", () => (emu) => ok(emu.api("POST", "/v2/translations", {
      resourceType: i.resourceType, resourceId: i.resourceId, locale: i.locale, content: { ...(i.content as Obj), editedByHand: "yes" },
    }), "post translation"));
  } else if (r.kind === "SubscriberCredentials") {
    const creds = i.credentials as Obj;
    add("credentials", Array.isArray(creds.deviceTokens) ? "one more device token" : "webhook replaced", () => async (emu) => {
      const next = Array.isArray(creds.deviceTokens) ? { deviceTokens: [...(creds.deviceTokens as string[]), "edited-by-hand"] } : { ...creds, webhookUrl: "https://hooks.example.com/edited-by-hand" };
      await ok(emu.api("PUT", `/v1/subscribers/${encodeURIComponent(String(i.subscriberId))}/credentials`, {
        providerId: i.providerId, integrationIdentifier: i.integrationIdentifier, credentials: next,
      }), "put credentials");
    });
  } else {
    throw new Error(`no hand edits for resource kind ${r.kind}`);
  }
  return edits;
}

/** Per resource kind, the request that deletes its object (id: the resource's id in state). */
const DELETE_PATHS: Record<string, (r: Declared, id: string) => string> = {
  Integration: (_r, id) => `/v1/integrations/${id}`,
  Workflow: (_r, id) => `/v2/workflows/${id}`,
  Environment: (_r, id) => `/v1/environments/${id}`,
  EnvironmentVariable: (_r, id) => `/v1/environment-variables/${encodeURIComponent(id)}`,
  Layout: (_r, id) => `/v2/layouts/${encodeURIComponent(id)}`,
  Topic: (_r, id) => `/v2/topics/${encodeURIComponent(id)}`,
  SubscriberCredentials: (r) => `/v1/subscribers/${encodeURIComponent(String(r.inputs.subscriberId))}/credentials/${String(r.inputs.providerId)}`,
  Domain: (_r, id) => `/v1/domains/${encodeURIComponent(id)}`,
  Translation: (_r, id) => `/v2/translations/${id}`,
  Context: (_r, id) => `/v2/contexts/${id.split(":").map(encodeURIComponent).join("/")}`,
};

/** Deleting the object behind the engine's back. */
export function deletion(r: Declared): Edit {
  const path = DELETE_PATHS[r.kind];
  if (!path) throw new Error(`no hand deletion for resource kind ${r.kind}`);
  return { resource: r.name, description: `${r.name} deleted`, apply: async (emu, id) => void (await ok(emu.api("DELETE", path(r, id)), `delete ${r.kind}`)) };
}
