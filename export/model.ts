/**
 * One model of an environment, built from what the service returns, that the three renderers
 * (TypeScript, Python, Go) write out. Building it is pure: {@link buildModel} takes the objects as
 * read and decides, per object, the resource's declared inputs (the provider's own mappers and
 * field tables say which fields those are), which values are secrets (they become stack config
 * keys), which values are references to another exported resource, and which objects the
 * provider cannot express (skipped, with the reason its input check gives).
 */
import {
  SECRET_MASK, type Context, type Domain, type DomainRoute, type Environment, type EnvironmentVariable, type Integration, type Layout, type Subscriber,
  type Topic, type Translation, type Workflow,
} from "../provider/schemas";
import { RESOURCE_TABLES, type ResourceKind } from "../provider/resources/index";
import type { ResourceTable } from "../provider/resources/fields";
import { isPlainObject, stripUndefined } from "../provider/resources/diff";
import { toIntegrationOutputs } from "../provider/resources/integration";
import { toWorkflowOutputs } from "../provider/resources/workflow";
import { toLayoutOutputs } from "../provider/resources/layout";
import { toTopicOutputs } from "../provider/resources/topic";
import { toEnvironmentVariableOutputs } from "../provider/resources/environmentVariable";
import { toEnvironmentOutputs } from "../provider/resources/environment";
import { credentialsId, toSubscriberCredentialsOutputs } from "../provider/resources/subscriberCredentials";
import { toSubscriberOutputs } from "../provider/resources/subscriber";
import { preferencesId, shownOf } from "../provider/resources/subscriberPreferences";
import type { SubscriberPreferences } from "../provider/client/subscribers";
import { contextKey, toContextOutputs } from "../provider/resources/context";
import { toAgentOutputs } from "../provider/resources/agent";
import type { Agent } from "../provider/client/agents";
import { toTranslationOutputs, translationId } from "../provider/resources/translation";
import { toDomainOutputs } from "../provider/resources/domain";
import { toTopicSubscriptionOutputs, topicSubscriptionId } from "../provider/resources/topicSubscription";
import type { SubscriptionDetails } from "../provider/client/topicSubscriptions";
import { configKey, configKeyBase, configKeySuffix, uniqueName } from "./naming";
import { toChannelConnectionOutputs } from "../provider/resources/channelConnection";
import type { ChannelConnection } from "../provider/client/channelConnections";
import { toChannelEndpointOutputs } from "../provider/resources/channelEndpoint";
import type { ChannelEndpoint } from "../provider/client/channelEndpoints";

/** A reference to an output of another exported resource (an email step's layout, credentials' integration). */
export class Ref {
  constructor(readonly target: string, readonly output: string) {}
}

/** A secret value: the stack config key the program reads it from with `requireSecret`. */
export class SecretRef {
  constructor(readonly key: string) {}
}

/** A value as a renderer writes it: JSON, references and secrets. */
export type Value = null | boolean | number | string | Value[] | { [key: string]: Value } | Ref | SecretRef;

/** A resource kind (a name of RESOURCES). */
export type Kind = ResourceKind;

/** One resource of the exported program. */
export interface ExportedResource {
  /** The resource's key in the model: `<Kind>/<service key>`, unique. */
  key: string;
  kind: Kind;
  /** The service's identifier of the object (identifier, workflowId, layoutId, topic key, ...): also the Pulumi resource name. */
  name: string;
  /** The id `pulumi import` and the native plugin's read take. */
  id: string;
  /** The declared inputs, in the table's field order. */
  inputs: Record<string, Value>;
}

/** A stack config key holding a secret. */
export interface ConfigSecret {
  key: string;
  /** The value, when the service returned it; undefined when it showed it masked (the user supplies it). */
  value?: string;
  /** What the value is, for the printed `pulumi config set` lines and the README. */
  what: string;
  /** The model key of the resource that reads it. */
  owner: string;
}

/** An object (or part of one) the export leaves out, and why. */
export interface Skipped {
  kind: string;
  name: string;
  reason: string;
}

/** Everything read from the service for one API key. */
export interface RawEnvironment {
  /** The API key's environment (found in the environments list by its key), or just its id. */
  environment: { _id: string; name?: string };
  integrations: Integration[];
  workflows: Workflow[];
  layouts: Layout[];
  topics: { topic: Topic; subscribers: string[] }[];
  variables: EnvironmentVariable[];
  /** The organisation's environments (listed only with --environments). */
  environments?: Environment[];
  /** The subscribers named with --subscriber (exported with their credentials). */
  subscribers?: Subscriber[];
  /** The preferences of the subscribers named with --subscriber (every active workflow's). */
  subscriberPreferences?: { subscriberId: string; preferences: SubscriberPreferences }[];
  /** The contexts of the environment. */
  contexts?: Context[];
  /** The translations of the workflows and layouts whose translation is on. */
  translations?: Translation[];
  /** The agents of the environment, each with its linked integrations. */
  agents?: Agent[];
  /** The inbound-email domains, each with its routes. */
  domains?: { domain: Domain; routes: DomainRoute[] }[];
  /** The topics' subscriptions other than plain memberships; `plainToo` when the subscriber has the topic's plain membership as well. */
  topicSubscriptions?: { topic: string; subscriber: string; identifier: string; plainToo: boolean; subscription: SubscriptionDetails }[];
  /** What the read could not read (a feature the organisation's plan refuses), and why. */
  unread?: Skipped[];
  /** The channel connections of the environment, each with its access token (the service answers it in clear). */
  channelConnections?: ChannelConnection[];
  /** The channel endpoints of the environment. */
  channelEndpoints?: ChannelEndpoint[];
}

/** The model the renderers write. */
export interface ExportModel {
  environment: { id: string; name?: string };
  resources: ExportedResource[];
  secrets: ConfigSecret[];
  skipped: Skipped[];
}

const tableOf = (kind: Kind): ResourceTable => RESOURCE_TABLES.find((t) => t.name === kind)!;

/** The declared inputs of a table from its mapper's outputs: the compared input fields, in table order. */
function pickInputs(table: ResourceTable, outs: Record<string, unknown>): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const k of table.inputKeys) if (outs[k] !== undefined) inputs[k] = outs[k];
  return inputs;
}

/** Whether `v` is exactly the mask the service shows for a secret value. */
const isMasked = (v: unknown) => v === SECRET_MASK;

/** What a kind's part of {@link buildModel} is given: the model being built. */
interface ModelBuilder {
  /** The API key's environment. */
  envId: string;
  /** The declared inputs of a kind from its mapper's outputs: the compared input fields, in table order. */
  pick(kind: Kind, outs: Record<string, unknown>): Record<string, unknown>;
  /** Adds a resource when its inputs pass the provider's own input check; else records why not. */
  add(kind: Kind, name: string, id: string, inputs: Record<string, unknown>): void;
  /** Makes every string under `value` a secret of the resource. */
  secretLeaves(kind: Kind, name: string, path: string[], value: unknown, what: string): Value;
  /** Makes the table's secret inputs secrets. */
  secretInputs(kind: Kind, name: string, inputs: Record<string, unknown>, what: (field: string) => string): void;
  /** Whether a resource of that key (`<Kind>/<name>`) is in the model already. */
  has(key: string): boolean;
  skip(s: Skipped): void;
  sortBy<T>(list: readonly T[], key: (t: T) => string): T[];
}

/** The integrations of the key's environment. */
const ownIntegrations = (raw: RawEnvironment, envId: string) => raw.integrations.filter((i) => !i.deleted && i._environmentId === envId);

/**
 * Each kind's part of the model: how the objects the service returned become declared inputs.
 * Keyed by every kind of the provider (the compiler refuses a kind left out), in the order a
 * program declares them: what others reference comes first, since a reference is made only to a
 * resource already in the model.
 */
const DECLARE: { readonly [K in Kind]: (raw: RawEnvironment, m: ModelBuilder) => void } = {
  Environment: (raw, m) => {
    // Environments (other than the key's own), when listed.
    const environments = m.sortBy(raw.environments ?? [], (e) => e.name);
    const envName = new Map(environments.map((e) => [e._id, e.name]));
    for (const e of environments) {
      if (e._id === m.envId) continue;
      const inputs = m.pick("Environment", toEnvironmentOutputs(e));
      if (typeof inputs.parentId === "string" && envName.has(inputs.parentId) && inputs.parentId !== m.envId) {
        inputs.parentId = new Ref(`Environment/${envName.get(inputs.parentId)}`, "environmentId");
      }
      m.add("Environment", e.name, e._id, inputs);
    }
  },
  Integration: (raw, m) => {
    // Integrations of the key's environment.
    const integrations = m.sortBy(ownIntegrations(raw, m.envId), (i) => i.identifier);
    for (const i of integrations) {
      const inputs = m.pick("Integration", toIntegrationOutputs(i));
      if (inputs.credentials !== undefined && isPlainObject(inputs.credentials) && Object.keys(inputs.credentials).length === 0) delete inputs.credentials;
      m.secretInputs("Integration", i.identifier, inputs, (f) => `${f} of integration ${i.identifier}`);
      m.add("Integration", i.identifier, i._id, inputs);
    }
  },
  Layout: (raw, m) => {
    // Layouts, before the workflows whose email steps name them.
    for (const l of m.sortBy(raw.layouts, (x) => x.layoutId)) {
      m.add("Layout", l.layoutId, l.layoutId, m.pick("Layout", toLayoutOutputs(l)));
    }
  },
  Workflow: (raw, m) => {
    for (const w of m.sortBy(raw.workflows, (x) => x.workflowId)) {
      const inputs = m.pick("Workflow", toWorkflowOutputs(w));
      // A preferences block the service holds none of reads as null: left out, as the typed SDKs
      // cannot say null (the provider compares only the blocks declared).
      if (isPlainObject(inputs.preferences)) inputs.preferences = Object.fromEntries(Object.entries(inputs.preferences).filter(([, v]) => v !== null));
      inputs.steps = (inputs.steps as Record<string, unknown>[]).map((s) => {
        const step = stripUndefined({ name: s.name, type: s.type, stepId: s.stepId, controlValues: s.controlValues }) as Record<string, unknown>;
        const cv = step.controlValues;
        // An email step names its layout by layoutId: the Layout resource's output, so the engine orders them.
        if (step.type === "email" && isPlainObject(cv) && typeof cv.layoutId === "string" && m.has(`Layout/${cv.layoutId}`)) {
          step.controlValues = { ...cv, layoutId: new Ref(`Layout/${cv.layoutId}`, "layoutId") };
        }
        return step;
      });
      m.add("Workflow", w.workflowId, w._id, inputs);
    }
  },
  Translation: (raw, m) => {
    // Translations, after their workflows and layouts: the resourceId is the Workflow's or Layout's
    // output when that resource is exported, so the engine makes (or imports) it first.
    const TARGET = { workflow: ["Workflow", "workflowId"], layout: ["Layout", "layoutId"] } as const;
    for (const t of m.sortBy(raw.translations ?? [], (x) => translationId(x.resourceType, x.resourceId, x.locale))) {
      // A locale holds no `-` (the service stores `_`), so `type-resourceId-locale` names one translation.
      const name = `${t.resourceType}-${t.resourceId}-${t.locale}`;
      const inputs = m.pick("Translation", toTranslationOutputs(t));
      const target = TARGET[t.resourceType as keyof typeof TARGET];
      if (target && m.has(`${target[0]}/${t.resourceId}`)) inputs.resourceId = new Ref(`${target[0]}/${t.resourceId}`, target[1]);
      m.secretInputs("Translation", name, inputs, (f) => `${f} of translation ${name}`);
      m.add("Translation", name, translationId(t.resourceType, t.resourceId, t.locale), inputs);
    }
  },
  Topic: (raw, m) => {
    for (const { topic, subscribers } of m.sortBy(raw.topics, (t) => t.topic.key)) {
      m.add("Topic", topic.key, topic.key, m.pick("Topic", toTopicOutputs(topic, subscribers)));
    }
  },
  EnvironmentVariable: (raw, m) => {
    for (const v of m.sortBy(raw.variables, (x) => x.key)) {
      const inputs = m.pick("EnvironmentVariable", toEnvironmentVariableOutputs(v));
      const values = (inputs.values ?? {}) as Record<string, string>;
      const others = Object.keys(values).filter((e) => e !== m.envId).sort();
      if (others.length) {
        m.skip({ kind: "EnvironmentVariable", name: v.key, reason: `its values in other environments (${others.join(", ")}): an API key writes only its own environment's value; export those with their environments' keys` });
      }
      if (values[m.envId] === undefined) delete inputs.values;
      else {
        const own = values[m.envId]!;
        // A secret variable's value is a secret whether or not the service masked it; a plain one is not.
        inputs.values = { [m.envId]: v.isSecret || isMasked(own) ? m.secretLeaves("EnvironmentVariable", v.key, ["value"], own, `value of variable ${v.key}`) : own };
      }
      m.add("EnvironmentVariable", v.key, v.key, inputs);
    }
  },
  Context: (raw, m) => {
    for (const c of m.sortBy(raw.contexts ?? [], (x) => contextKey(x.type, x.id))) {
      const key = contextKey(c.type, c.id);
      const inputs = m.pick("Context", toContextOutputs(c));
      m.secretInputs("Context", key, inputs, (f) => `${f} of context ${key}`);
      m.add("Context", key, key, inputs);
    }
  },
  Agent: (raw, m) => {
    for (const a of m.sortBy(raw.agents ?? [], (x) => x.identifier)) {
      const inputs = m.pick("Agent", toAgentOutputs(a));
      // Links name integrations by identifier: the Integration's output when it is exported, so the engine makes it first.
      if (Array.isArray(inputs.integrations)) {
        inputs.integrations = (inputs.integrations as string[]).map((i) => (m.has(`Integration/${i}`) ? new Ref(`Integration/${i}`, "identifier") : i));
      }
      m.secretInputs("Agent", a.identifier, inputs, (f) => `${f} of agent ${a.identifier}`);
      m.add("Agent", a.identifier, a.identifier, inputs);
    }
  },
  Domain: (raw, m) => {
    for (const { domain: d, routes } of m.sortBy(raw.domains ?? [], (x) => x.domain.name)) {
      // An agent route reads back with the agent's `_id`, while the resource (and the service's
      // write) names the agent's identifier: the agents read map one to the other, and an exported
      // agent is named by its output, so the engine makes it first. The routes are one map,
      // compared whole: declared only when every route can be, else left as they are (unmanaged).
      const identifierOf = new Map((raw.agents ?? []).map((a) => [a._id, a.identifier]));
      const unknown = routes.filter((r) => r.type !== "webhook" && !(r.type === "agent" && r.agentId && identifierOf.has(r.agentId)));
      const routeInputs: Record<string, unknown> | undefined = unknown.length ? undefined : Object.fromEntries(m.sortBy(routes, (r) => r.address).map((r) => {
        const data = r.data && Object.keys(r.data).length ? r.data : undefined;
        if (r.type !== "agent") return [r.address, stripUndefined({ type: "webhook" as const, data })];
        const identifier = identifierOf.get(r.agentId!)!;
        // Built without stripUndefined, which would copy the Ref into a plain object.
        return [r.address, { type: "agent" as const, agentId: m.has(`Agent/${identifier}`) ? new Ref(`Agent/${identifier}`, "identifier") : identifier, ...(data ? { data } : {}) }];
      }));
      if (unknown.length) {
        m.skip({
          kind: "Domain", name: d.name,
          reason: `its ${routes.length} routes are not declared (so not managed: they stay as they are): ` + unknown.map((r) => r.type === "agent"
            ? `${r.address} goes to agent ${r.agentId ?? "(none shown)"}, which no agent of the environment has`
            : `${r.address} is a route of type ${r.type}, which this release does not know`).join("; "),
        });
      }
      // The routes set after the mapping, whose stripUndefined would copy a Ref into a plain object.
      const inputs = m.pick("Domain", toDomainOutputs(d, {}));
      if (routeInputs) inputs.routes = routeInputs;
      else delete inputs.routes;
      // Data declared even when empty, so that data added in the dashboard shows as drift.
      inputs.data ??= {};
      m.secretInputs("Domain", d.name, inputs, (f) => `${f} of domain ${d.name}`);
      m.add("Domain", d.name, d.name, inputs);
    }
  },
  // Subscribers, before their credentials, which name them by the Subscriber's output.
  Subscriber: (raw, m) => {
    for (const s of m.sortBy(raw.subscribers ?? [], (x) => x.subscriberId)) {
      const inputs = m.pick("Subscriber", toSubscriberOutputs(s));
      m.secretInputs("Subscriber", s.subscriberId, inputs, (f) => `${f} of subscriber ${s.subscriberId}`);
      m.add("Subscriber", s.subscriberId, s.subscriberId, inputs);
    }
  },
  SubscriberCredentials: (raw, m) => {
    const integrationById = new Map(ownIntegrations(raw, m.envId).map((i) => [i._id, i]));
    for (const sub of m.sortBy(raw.subscribers ?? [], (s) => s.subscriberId)) {
      for (const entry of m.sortBy(sub.channels ?? [], (c) => `${c.providerId}/${c.integrationIdentifier ?? ""}`)) {
        const identifier = entry.integrationIdentifier ?? (entry._integrationId ? integrationById.get(entry._integrationId)?.identifier : undefined);
        const outs = toSubscriberCredentialsOutputs(sub.subscriberId, { ...entry, integrationIdentifier: identifier });
        const inputs = m.pick("SubscriberCredentials", outs);
        const name = `${sub.subscriberId}-${entry.providerId}${identifier ? `-${identifier}` : ""}`;
        m.secretInputs("SubscriberCredentials", name, inputs, (f) => `${f} of subscriber ${sub.subscriberId} for ${entry.providerId}`);
        if (identifier && m.has(`Integration/${identifier}`)) inputs.integrationIdentifier = new Ref(`Integration/${identifier}`, "identifier");
        if (m.has(`Subscriber/${sub.subscriberId}`)) inputs.subscriberId = new Ref(`Subscriber/${sub.subscriberId}`, "subscriberId");
        m.add("SubscriberCredentials", name, credentialsId(sub.subscriberId, entry.providerId, identifier), inputs);
      }
    }
  },
  ChannelConnection: (raw, m) => {
    for (const c of m.sortBy(raw.channelConnections ?? [], (x) => x.identifier)) {
      const inputs = m.pick("ChannelConnection", toChannelConnectionOutputs(c));
      // The mode is declared only where it is not the default, as a program would write it.
      if (inputs.connectionMode === "subscriber") delete inputs.connectionMode;
      // The token, which the service answers in clear, becomes a stack config secret with its value.
      m.secretInputs("ChannelConnection", c.identifier, inputs, (f) => `${f} of channel connection ${c.identifier}`);
      const integration = c.integrationIdentifier;
      if (integration && m.has(`Integration/${integration}`)) inputs.integrationIdentifier = new Ref(`Integration/${integration}`, "identifier");
      m.add("ChannelConnection", c.identifier, c.identifier, inputs);
    }
  },
  ChannelEndpoint: (raw, m) => {
    for (const e of m.sortBy(raw.channelEndpoints ?? [], (x) => x.identifier)) {
      const inputs = m.pick("ChannelEndpoint", toChannelEndpointOutputs(e));
      // Its integration and connection as the exported resources' outputs, so the engine makes them first.
      const integration = e.integrationIdentifier, connection = e.connectionIdentifier;
      if (integration && m.has(`Integration/${integration}`)) inputs.integrationIdentifier = new Ref(`Integration/${integration}`, "identifier");
      if (connection && m.has(`ChannelConnection/${connection}`)) inputs.connectionIdentifier = new Ref(`ChannelConnection/${connection}`, "identifier");
      m.add("ChannelEndpoint", e.identifier, e.identifier, inputs);
    }
  },
  // Only the choices a subscriber made (the rest are the service's defaults), after the subscribers and workflows they name.
  SubscriberPreferences: (raw, m) => {
    for (const { subscriberId, preferences } of m.sortBy(raw.subscriberPreferences ?? [], (p) => p.subscriberId)) {
      const subscriber = m.has(`Subscriber/${subscriberId}`) ? new Ref(`Subscriber/${subscriberId}`, "subscriberId") : subscriberId;
      const scopes = [undefined, ...m.sortBy(preferences.workflows.map((w) => w.workflow.identifier), (id) => id)];
      for (const workflowId of scopes) {
        const shown = shownOf(preferences, workflowId);
        if (!shown?.chosen) continue;
        const name = workflowId === undefined ? `${subscriberId}-preferences` : `${subscriberId}-${workflowId}-preferences`;
        // Built key by key: a reference is an object stripUndefined would flatten.
        const inputs: Record<string, unknown> = { subscriberId: subscriber };
        if (workflowId !== undefined) inputs.workflowId = m.has(`Workflow/${workflowId}`) ? new Ref(`Workflow/${workflowId}`, "workflowId") : workflowId;
        inputs.channels = shown.channels;
        if (shown.schedule !== undefined) inputs.schedule = shown.schedule;
        m.add("SubscriberPreferences", name, preferencesId(subscriberId, workflowId), inputs);
      }
    }
  },
  TopicSubscription: (raw, m) => {
    for (const s of m.sortBy(raw.topicSubscriptions ?? [], (x) => x.identifier)) {
      if (s.plainToo) {
        m.skip({
          kind: "TopicSubscription", name: s.identifier,
          reason: `its subscriber "${s.subscriber}" also has the plain membership of topic "${s.topic}" (in the Topic's subscribers), which lets every ` +
            "notification through whatever this subscription's conditions say; the provider takes one of the two per subscriber: remove one on the service, then export again",
        });
        continue;
      }
      const inputs = m.pick("TopicSubscription", toTopicSubscriptionOutputs(s.topic, s.subscriber, s.identifier, { ...s.subscription }));
      // The topic and the workflows by the exported resources' outputs, so the engine makes (or imports) them first.
      if (m.has(`Topic/${s.topic}`)) inputs.topic = new Ref(`Topic/${s.topic}`, "key");
      if (Array.isArray(inputs.preferences)) {
        inputs.preferences = (inputs.preferences as Record<string, unknown>[]).map((p) =>
          (typeof p.workflowId === "string" && m.has(`Workflow/${p.workflowId}`) ? { ...p, workflowId: new Ref(`Workflow/${p.workflowId}`, "workflowId") } : p));
      }
      m.add("TopicSubscription", s.identifier, topicSubscriptionId(s.topic, s.identifier), inputs);
    }
  },
};

/** The resource kinds, in the order a program declares them (what others reference comes first). */
export const KIND_ORDER = Object.keys(DECLARE) as readonly Kind[];

/** What an earlier export of the project named, which an update keeps. */
export interface PreviousNames {
  /** The stack config keys each resource (by model key) read its secrets from. */
  secretKeys: ReadonlyMap<string, readonly string[]>;
}

/**
 * Builds the model. Pure: the same objects give the same model, whatever order the service listed
 * them in (every list is sorted by its service key here). With `previous` (an update), a secret
 * keeps the config key its resource read it from before (the stack's config holds its value under
 * that key), and no other secret takes a key found there.
 */
export function buildModel(raw: RawEnvironment, previous?: PreviousNames): ExportModel {
  const envId = raw.environment._id;
  const resources: ExportedResource[] = [];
  const skipped: Skipped[] = [...(raw.unread ?? [])];
  const secrets: ConfigSecret[] = [];
  const earlier = new Map([...(previous?.secretKeys ?? [])].map(([owner, keys]) => [owner, [...keys]]));
  const usedKeys = new Set<string>([...earlier.values()].flat());
  /** Each secret key's value where the service returned it: the input check sees the real value. */
  const known = new Map<string, string>();
  const byKey = new Map<string, ExportedResource>();
  const sortBy = <T>(list: readonly T[], key: (t: T) => string) => [...list].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

  /** Makes every string under `value` a secret of the resource (booleans and numbers stay: they reveal nothing). */
  const secretLeaves = (kind: Kind, name: string, path: string[], value: unknown, what: string): Value => {
    if (typeof value === "string") {
      // Keys are made from the resource and the field path, unique over the model: the lists are
      // walked in a stable order, so the same environment gives the same keys; a key the resource
      // had before is its own again.
      const base = configKey(kind, name, path);
      const own = earlier.get(`${kind}/${name}`);
      const was = own?.findIndex((k) => configKeyBase(k) === base) ?? -1;
      const key = was >= 0 ? own!.splice(was, 1)[0]! : uniqueName(base, usedKeys, undefined, configKeySuffix);
      secrets.push({ key, value: isMasked(value) ? undefined : value, what, owner: `${kind}/${name}` });
      if (!isMasked(value)) known.set(key, value);
      return new SecretRef(key);
    }
    if (Array.isArray(value)) return value.map((v, i) => secretLeaves(kind, name, [...path, String(i)], v, what));
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, secretLeaves(kind, name, [...path, k], v, what)]));
    return value as Value;
  };

  /** Adds a resource when its inputs pass the provider's own input check; else records why not. */
  const add = (kind: Kind, name: string, id: string, inputs: Record<string, unknown>) => {
    const table = tableOf(kind);
    const key = `${kind}/${name}`;
    if (byKey.has(key)) {
      skipped.push({ kind, name, reason: `a second ${kind} with the same name (the service listed it twice)` });
      return;
    }
    const check = table.schema.safeParse(placeholders(inputs, known));
    if (!check.success) {
      const issue = check.error.issues[0]!;
      skipped.push({ kind, name, reason: `the provider cannot declare it: ${issue.path.join(".") || "(object)"}: ${issue.message}` });
      return;
    }
    const r: ExportedResource = { key, kind, name, id, inputs: inputs as Record<string, Value> };
    resources.push(r);
    byKey.set(key, r);
  };
  const secretInputs = (kind: Kind, name: string, inputs: Record<string, unknown>, what: (field: string) => string) => {
    for (const k of tableOf(kind).secretKeys) {
      if (inputs[k] !== undefined) inputs[k] = secretLeaves(kind, name, [k], inputs[k], what(k));
    }
  };

  const builder: ModelBuilder = {
    envId, add, secretLeaves, secretInputs, sortBy, has: (key) => byKey.has(key), skip: (x) => void skipped.push(x),
    pick: (kind, outs) => pickInputs(tableOf(kind), outs),
  };
  for (const kind of KIND_ORDER) DECLARE[kind](raw, builder);

  resources.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    environment: { id: envId, name: raw.environment.name },
    resources,
    secrets: secrets.filter((x) => byKey.has(x.owner)),
    skipped,
  };
}

/**
 * The inputs with references and secrets as strings, for the provider's input check: a secret's
 * value where it is known, else a string any string field takes (a URL, since some fields are).
 */
function placeholders(v: unknown, known: ReadonlyMap<string, string>): unknown {
  if (v instanceof SecretRef) return known.get(v.key) ?? "https://placeholder.example.com/value";
  if (v instanceof Ref) return "placeholder";
  if (Array.isArray(v)) return v.map((x) => placeholders(x, known));
  if (isPlainObject(v)) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, placeholders(x, known)]));
  }
  return v;
}
