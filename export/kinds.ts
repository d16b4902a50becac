/**
 * Each resource kind's part in the exporter, one entry per kind in {@link EXPORT}: what it reads
 * from the service (its read returns its fields of the reading, whose types make
 * {@link RawEnvironment}) and how those objects become declared resources. A new kind is one entry
 * here: the record is keyed by every kind of the provider, so the compiler refuses a kind left out.
 */
import type { NotifyClient } from "../provider/client";
import { collect, paginateContexts, paginateLayouts, paginateTopics, paginateWorkflows } from "../provider/client";
import { NotifyApiError, isNotFound } from "../provider/client/errors";
import type { TranslationResourceType } from "../provider/client/translations";
import {
  type Context, type Domain, type DomainRoute, type Environment, type EnvironmentVariable, type Integration, type Layout, type Subscriber,
  type Topic, type Translation, type Workflow,
} from "../provider/schemas";
import type { ResourceKind } from "../provider/resources/index";
import { isPlainObject, stripUndefined } from "../provider/resources/diff";
import { toIntegrationOutputs } from "../provider/resources/integration";
import { toWorkflowOutputs } from "../provider/resources/workflow";
import { toLayoutOutputs } from "../provider/resources/layout";
import { isPlainMembership, toTopicOutputs } from "../provider/resources/topic";
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
import { toChannelConnectionOutputs } from "../provider/resources/channelConnection";
import type { ChannelConnection } from "../provider/client/channelConnections";
import { toChannelEndpointOutputs } from "../provider/resources/channelEndpoint";
import type { ChannelEndpoint } from "../provider/client/channelEndpoints";
import { isMasked, Ref } from "./value";
import type { ModelBuilder, Skipped } from "./shapes";

/** One kind's part in the exporter; `Raw` is its fields of {@link RawEnvironment}. */
export interface KindExport<Raw extends object> {
  /**
   * Reads the kind's objects through the client (nothing is written) and prints its progress line;
   * returns its fields of the reading. `r.raw` holds the fields of the kinds read before it (see
   * {@link readOrder}): data several kinds use is read once, by the first of them, and its field
   * is that kind's.
   */
  read(r: ReadContext): Promise<Raw>;
  /**
   * Turns the objects read into declared resources (`m.add`). The kinds before it in the record
   * are in the model already: a reference is made only to a resource the model holds.
   */
  declare(raw: RawEnvironment, m: ModelBuilder): void;
  /**
   * Read later than its place in the record: right after this kind, which comes after it there.
   * The kinds it is moved past are read without its fields.
   */
  readAfter?: ResourceKind;
}

/** Runs `fn` over `items`, at most `limit` at once, keeping the order of the results. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
/** A topic subscription other than a plain membership, as the topic's listing gives it. */
type ListedSubscription = { subscriber: string; identifier: string };

/**
 * A topic's subscriptions, following the cursor, in one pass for both kinds that declare them: the
 * subscriberIds of its plain memberships (a Topic's `subscribers`) and every other subscription
 * with its identifier (a TopicSubscription, read whole later: the listing leaves out its name and
 * preferences).
 */
async function topicSubscriptions(client: NotifyClient, key: string): Promise<{ subscribers: string[]; others: ListedSubscription[] }> {
  const subscribers: string[] = [];
  const others: ListedSubscription[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await client.topics.listSubscriptions(key, { limit: 100, after });
    for (const s of page.data) {
      if (!s.subscriber) continue;
      if (isPlainMembership(key, s)) subscribers.push(s.subscriber.subscriberId);
      else if (s.identifier) others.push({ subscriber: s.subscriber.subscriberId, identifier: s.identifier });
    }
    if (!page.next || page.data.length === 0) return { subscribers, others };
    after = page.next;
  }
}

/** Every route of a domain, following the cursor. */
async function domainRoutes(client: NotifyClient, domain: string): Promise<DomainRoute[]> {
  const routes: DomainRoute[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await client.domains.listRoutes(domain, { limit: 100, after });
    routes.push(...page.data);
    if (!page.next || page.data.length === 0) return routes;
    after = page.next;
  }
}

/** Every domain of the environment, following the cursor. */
export async function listDomains(client: NotifyClient): Promise<Domain[]> {
  const domains: Domain[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await client.domains.list({ limit: 100, after });
    domains.push(...page.data);
    if (!page.next || page.data.length === 0) return domains;
    after = page.next;
  }
}

/**
 * One workflow's or layout's translations: its locales (a resource without any answers 404), then
 * each locale's document, in locale order. A locale deleted between the two reads is left out.
 */
async function resourceTranslations(client: NotifyClient, type: TranslationResourceType, resourceId: string): Promise<Translation[]> {
  let locales: string[];
  try {
    locales = [...(await client.translations.group(type, resourceId)).locales].sort();
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
  const out: Translation[] = [];
  for (const locale of locales) {
    try {
      out.push(await client.translations.get(type, resourceId, locale));
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  return out;
}

/** Whether the service refused a feature the organisation's plan does not include (402 Payment Required). */
const isPlanRefusal = (err: unknown) => err instanceof NotifyApiError && err.status === 402;
/** Why objects of a kind the plan refuses are not exported. */
const planReason = (what: string) => `the service answered 402 Payment Required to reading ${what}: the organisation's plan does not include them`;

/** The integrations of the key's environment. */
const ownIntegrations = (raw: RawEnvironment, envId: string) => raw.integrations.filter((i) => !i.deleted && i._environmentId === envId);

/**
 * Every kind's part, in the order a program declares them ({@link KIND_ORDER}): what others
 * reference comes first, since a reference is made only to a resource already in the model. Each
 * kind is read in that order too (so a read sees what the kinds it follows read), unless its entry
 * says `readAfter`.
 */
export const EXPORT = {
  Environment: {
    // The organisation's list is read first, always (it finds the key's environment); exported only when asked.
    read: async ({ opts, list, progress }): Promise<{
      /** The organisation's environments (listed only with --environments). */
      environments?: Environment[];
    }> => {
      if (!opts.environments) return {};
      progress(`environments: ${list.length}`);
      return { environments: list };
    },
    // Its progress line where it has always been printed, after the subscribers'.
    readAfter: "SubscriberCredentials",
    declare: (raw, m) => {
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
  },
  Integration: {
    read: async ({ client, own, progress }): Promise<{ integrations: Integration[] }> => {
      const integrations = await client.integrations.list();
      progress(`integrations: ${integrations.filter((i) => !i.deleted && i._environmentId === own._id).length}`);
      return { integrations };
    },
    declare: (raw, m) => {
      // Integrations of the key's environment.
      const integrations = m.sortBy(ownIntegrations(raw, m.envId), (i) => i.identifier);
      for (const i of integrations) {
        const inputs = m.pick("Integration", toIntegrationOutputs(i));
        if (inputs.credentials !== undefined && isPlainObject(inputs.credentials) && Object.keys(inputs.credentials).length === 0) delete inputs.credentials;
        m.secretInputs("Integration", i.identifier, inputs, (f) => `${f} of integration ${i.identifier}`);
        m.add("Integration", i.identifier, i._id, inputs);
      }
    },
  },
  // Layouts, before the workflows whose email steps name them.
  Layout: {
    read: async ({ client, limit, progress }): Promise<{ layouts: Layout[] }> => {
      const layoutItems = await collect(paginateLayouts(client.layouts, { limit: 100 }, Number.MAX_SAFE_INTEGER));
      const layouts = await mapLimit(layoutItems, limit, (l) => client.layouts.get(l.layoutId));
      progress(`layouts: ${layouts.length}`);
      return { layouts };
    },
    declare: (raw, m) => {
      for (const l of m.sortBy(raw.layouts, (x) => x.layoutId)) {
        m.add("Layout", l.layoutId, l.layoutId, m.pick("Layout", toLayoutOutputs(l)));
      }
    },
  },
  Workflow: {
    read: async ({ client, limit, progress }): Promise<{ workflows: Workflow[] }> => {
      const workflowItems = await collect(paginateWorkflows(client.workflows, { limit: 100 }, Number.MAX_SAFE_INTEGER));
      const workflows = await mapLimit(workflowItems, limit, (w) => client.workflows.get(w._id));
      progress(`workflows: ${workflows.length}`);
      return { workflows };
    },
    declare: (raw, m) => {
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
  },
  // Translations, after their workflows and layouts: the resourceId is the Workflow's or Layout's
  // output when that resource is exported, so the engine makes (or imports) it first.
  Translation: {
    read: async ({ client, limit, progress, raw }): Promise<{
      /** The translations of the workflows and layouts whose translation is on. */
      translations?: Translation[];
    }> => {
      // Translations only of the workflows and layouts whose translation is on: those are the ones the
      // service renders per locale (a resource switched off keeps its documents, unused).
      const translated = [
        ...raw.layouts.filter((l) => l.isTranslationEnabled).map((l) => ({ type: "layout" as const, id: l.layoutId })),
        ...raw.workflows.filter((w) => w.isTranslationEnabled).map((w) => ({ type: "workflow" as const, id: w.workflowId })),
      ];
      let refused = false;
      const translations = (await mapLimit(translated, limit, async (r) => {
        if (refused) return [];
        try {
          return await resourceTranslations(client, r.type, r.id);
        } catch (err) {
          if (!isPlanRefusal(err)) throw err;
          refused = true;
          return [];
        }
      })).flat();
      if (refused) for (const r of translated) raw.unread.push({ kind: "Translation", name: `${r.type} ${r.id}`, reason: planReason("translations") });
      progress(`translations: ${translations.length} (of ${translated.length} workflows and layouts with translation on)`);
      return { translations };
    },
    // Its progress line where it has always been printed, after the contexts'.
    readAfter: "Context",
    declare: (raw, m) => {
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
  },
  Subscriber: {
    // Only the subscribers named with --subscriber, read once here for every kind that needs them
    // (their credentials, their preferences): an environment's subscribers are its users, far too
    // many to export whole.
    read: async ({ client, opts, limit, progress }): Promise<{
      /** The subscribers named with --subscriber (exported with their credentials). */
      subscribers?: Subscriber[];
    }> => {
      if (!opts.subscribers?.length) return {};
      const subscribers: Subscriber[] = await mapLimit([...opts.subscribers], limit, (id) => client.subscribers.get(id));
      progress(`subscribers: ${subscribers.length}`);
      return { subscribers };
    },
    declare: (raw, m) => {
      for (const s of m.sortBy(raw.subscribers ?? [], (x) => x.subscriberId)) {
        const inputs = m.pick("Subscriber", toSubscriberOutputs(s));
        m.secretInputs("Subscriber", s.subscriberId, inputs, (f) => `${f} of subscriber ${s.subscriberId}`);
        m.add("Subscriber", s.subscriberId, s.subscriberId, inputs);
      }
    },
  },
  Topic: {
    read: async ({ client, limit, progress }): Promise<{
      /** Each topic with the subscriberIds of its plain memberships and its other subscriptions (TopicSubscription's to read). */
      topics: { topic: Topic; subscribers: string[]; others: ListedSubscription[] }[];
    }> => {
      const topicItems: Topic[] = await collect(paginateTopics(client.topics, { limit: 100 }, Number.MAX_SAFE_INTEGER));
      const topics = await mapLimit(topicItems, limit, async (topic) => ({ topic, ...(await topicSubscriptions(client, topic.key)) }));
      progress(`topics: ${topics.length} (${topics.reduce((n, t) => n + t.subscribers.length, 0)} subscriptions)`);
      return { topics };
    },
    declare: (raw, m) => {
      for (const { topic, subscribers } of m.sortBy(raw.topics, (t) => t.topic.key)) {
        const inputs = m.pick("Topic", toTopicOutputs(topic, subscribers));
        // An exported subscriber by its output, so that the engine makes it before it is subscribed.
        if (Array.isArray(inputs.subscribers)) {
          inputs.subscribers = (inputs.subscribers as string[]).map((id) => (m.has(`Subscriber/${id}`) ? new Ref(`Subscriber/${id}`, "subscriberId") : id));
        }
        m.add("Topic", topic.key, topic.key, inputs);
      }
    },
  },
  EnvironmentVariable: {
    read: async ({ client, progress }): Promise<{ variables: EnvironmentVariable[] }> => {
      const variables = await client.environmentVariables.list();
      progress(`environment variables: ${variables.length}`);
      return { variables };
    },
    declare: (raw, m) => {
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
  },
  Context: {
    read: async ({ client, progress }): Promise<{
      /** The contexts of the environment. */
      contexts?: Context[];
    }> => {
      const contexts = await collect(paginateContexts(client.contexts, { limit: 100 }, Number.MAX_SAFE_INTEGER));
      progress(`contexts: ${contexts.length}`);
      return { contexts };
    },
    declare: (raw, m) => {
      for (const c of m.sortBy(raw.contexts ?? [], (x) => contextKey(x.type, x.id))) {
        const key = contextKey(c.type, c.id);
        const inputs = m.pick("Context", toContextOutputs(c));
        m.secretInputs("Context", key, inputs, (f) => `${f} of context ${key}`);
        m.add("Context", key, key, inputs);
      }
    },
  },
  Agent: {
    read: async ({ client, progress }): Promise<{
      /** The agents of the environment, each with its linked integrations. */
      agents?: Agent[];
    }> => {
      const agents = await client.agents.list();
      progress(`agents: ${agents.length}`);
      return { agents };
    },
    declare: (raw, m) => {
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
  },
  Domain: {
    read: async ({ client, limit, progress, raw }): Promise<{
      /** The inbound-email domains, each with its routes. */
      domains?: { domain: Domain; routes: DomainRoute[] }[];
    }> => {
      let domains: { domain: Domain; routes: DomainRoute[] }[] = [];
      try {
        domains = await mapLimit(await listDomains(client), limit, async (domain) => ({ domain, routes: await domainRoutes(client, domain.name) }));
      } catch (err) {
        if (!isPlanRefusal(err)) throw err;
        raw.unread.push({ kind: "Domain", name: "(every domain)", reason: planReason("inbound-email domains") });
      }
      progress(`domains: ${domains.length} (${domains.reduce((n, d) => n + d.routes.length, 0)} routes)`);
      return { domains };
    },
    declare: (raw, m) => {
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
  },
  // Subscribers, before their credentials, connections, endpoints and preferences, which name them by the Subscriber's output.
  SubscriberCredentials: {
    // Nothing of its own: the credentials are the channels of the subscribers Subscriber read.
    read: async (): Promise<Record<never, never>> => ({}),
    declare: (raw, m) => {
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
  },
  ChannelConnection: {
    read: async ({ client, progress }): Promise<{
      /** The channel connections of the environment, each with its access token (the service answers it in clear). */
      channelConnections?: ChannelConnection[];
    }> => {
      const channelConnections = await client.channelConnections.list();
      progress(`channel connections: ${channelConnections.length}`);
      return { channelConnections };
    },
    declare: (raw, m) => {
      for (const c of m.sortBy(raw.channelConnections ?? [], (x) => x.identifier)) {
        const inputs = m.pick("ChannelConnection", toChannelConnectionOutputs(c));
        // The mode is declared only where it is not the default, as a program would write it.
        if (inputs.connectionMode === "subscriber") delete inputs.connectionMode;
        // The token, which the service answers in clear, becomes a stack config secret with its value.
        m.secretInputs("ChannelConnection", c.identifier, inputs, (f) => `${f} of channel connection ${c.identifier}`);
        // Its integration and subscriber as the exported resources' outputs, so the engine makes them first.
        const integration = c.integrationIdentifier, subscriber = c.subscriberId;
        if (integration && m.has(`Integration/${integration}`)) inputs.integrationIdentifier = new Ref(`Integration/${integration}`, "identifier");
        if (subscriber && m.has(`Subscriber/${subscriber}`)) inputs.subscriberId = new Ref(`Subscriber/${subscriber}`, "subscriberId");
        m.add("ChannelConnection", c.identifier, c.identifier, inputs);
      }
    },
  },
  ChannelEndpoint: {
    read: async ({ client, progress }): Promise<{
      /** The channel endpoints of the environment. */
      channelEndpoints?: ChannelEndpoint[];
    }> => {
      const channelEndpoints = await client.channelEndpoints.list();
      progress(`channel endpoints: ${channelEndpoints.length}`);
      return { channelEndpoints };
    },
    declare: (raw, m) => {
      for (const e of m.sortBy(raw.channelEndpoints ?? [], (x) => x.identifier)) {
        const inputs = m.pick("ChannelEndpoint", toChannelEndpointOutputs(e));
        // Its integration, connection and subscriber as the exported resources' outputs, so the engine makes them first.
        const integration = e.integrationIdentifier, connection = e.connectionIdentifier, subscriber = e.subscriberId;
        if (integration && m.has(`Integration/${integration}`)) inputs.integrationIdentifier = new Ref(`Integration/${integration}`, "identifier");
        if (connection && m.has(`ChannelConnection/${connection}`)) inputs.connectionIdentifier = new Ref(`ChannelConnection/${connection}`, "identifier");
        if (subscriber && m.has(`Subscriber/${subscriber}`)) inputs.subscriberId = new Ref(`Subscriber/${subscriber}`, "subscriberId");
        m.add("ChannelEndpoint", e.identifier, e.identifier, inputs);
      }
    },
  },
  // Only the choices a subscriber made (the rest are the service's defaults), after the subscribers and workflows they name.
  SubscriberPreferences: {
    read: async ({ client, limit, progress, raw }): Promise<{
      /** The preferences of the subscribers named with --subscriber (every active workflow's). */
      subscriberPreferences?: { subscriberId: string; preferences: SubscriberPreferences }[];
    }> => {
      if (!raw.subscribers?.length) return {};
      // Every active workflow's (read-only ones too), as the resource reads them.
      const subscriberPreferences = await mapLimit(raw.subscribers, limit, async (s) => ({ subscriberId: s.subscriberId, preferences: await client.subscribers.preferences(s.subscriberId, "all") }));
      progress(`subscriber preferences: ${subscriberPreferences.length} subscribers`);
      return { subscriberPreferences };
    },
    declare: (raw, m) => {
      for (const { subscriberId, preferences } of m.sortBy(raw.subscriberPreferences ?? [], (p) => p.subscriberId)) {
        const subscriber = m.has(`Subscriber/${subscriberId}`) ? new Ref(`Subscriber/${subscriberId}`, "subscriberId") : subscriberId;
        const scopes = [undefined, ...m.sortBy(preferences.workflows.map((w) => w.workflow.identifier), (id) => id)];
        const nameOf = (workflowId: string | undefined) => (workflowId === undefined ? `${subscriberId}-preferences` : `${subscriberId}-${workflowId}-preferences`);
        for (const workflowId of scopes) {
          const shown = shownOf(preferences, workflowId);
          if (!shown?.chosen) continue;
          // Built key by key: a reference is an object stripUndefined would flatten.
          const inputs: Record<string, unknown> = { subscriberId: subscriber };
          if (workflowId !== undefined) inputs.workflowId = m.has(`Workflow/${workflowId}`) ? new Ref(`Workflow/${workflowId}`, "workflowId") : workflowId;
          inputs.channels = shown.channels;
          if (shown.schedule !== undefined) inputs.schedule = shown.schedule;
          // A workflow's after the subscriber's global ones, when declared (add keeps only those the
          // model holds; docs/subscribers.md): a write of a global channel clears that channel's
          // per-workflow choices.
          m.add("SubscriberPreferences", nameOf(workflowId), preferencesId(subscriberId, workflowId), inputs,
            workflowId !== undefined ? [`SubscriberPreferences/${nameOf(undefined)}`] : undefined);
        }
      }
    },
  },
  TopicSubscription: {
    // After the topics, from their listings: each subscription other than a plain membership, read whole (the listing leaves out name and preferences).
    read: async ({ client, limit, progress, raw }): Promise<{
      /** The topics' subscriptions other than plain memberships; `plainToo` when the subscriber has the topic's plain membership as well. */
      topicSubscriptions?: { topic: string; subscriber: string; identifier: string; plainToo: boolean; subscription: SubscriptionDetails }[];
    }> => {
      const listed = raw.topics.flatMap(({ topic, subscribers, others }) =>
        others.map((o) => ({ topic: topic.key, ...o, plainToo: subscribers.includes(o.subscriber) })));
      const read = await mapLimit(listed, limit, async (l) => ({ ...l, subscription: await client.topicSubscriptions.get(l.topic, l.identifier) }));
      const topicSubscriptions = read.flatMap((r) => (r.subscription ? [{ ...r, subscription: r.subscription }] : []));
      progress(`topic subscriptions: ${topicSubscriptions.length}`);
      return { topicSubscriptions };
    },
    declare: (raw, m) => {
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
        if (m.has(`Subscriber/${s.subscriber}`)) inputs.subscriber = new Ref(`Subscriber/${s.subscriber}`, "subscriberId");
        if (Array.isArray(inputs.preferences)) {
          inputs.preferences = (inputs.preferences as Record<string, unknown>[]).map((p) =>
            (typeof p.workflowId === "string" && m.has(`Workflow/${p.workflowId}`) ? { ...p, workflowId: new Ref(`Workflow/${p.workflowId}`, "workflowId") } : p));
        }
        m.add("TopicSubscription", s.identifier, topicSubscriptionId(s.topic, s.identifier), inputs);
      }
    },
  },
} satisfies { readonly [K in ResourceKind]: KindExport<object> };

/** Every kind's part, as the reader and the model builder take them. */
const KINDS: { readonly [K in ResourceKind]: KindExport<object> } = EXPORT;

/** One kind's fields of the reading: what its read returns. */
type RawOf<K extends ResourceKind> = Awaited<ReturnType<(typeof EXPORT)[K]["read"]>>;

/** Every kind's fields of the reading, as one object type. */
type KindFields = { [K in ResourceKind]: (fields: RawOf<K>) => void }[ResourceKind] extends (fields: infer All) => void ? All : never;

/**
 * Everything read from the service for one API key: the key's environment, every kind's fields
 * (each typed in its entry of {@link EXPORT}), and what could not be read.
 */
export interface RawEnvironment extends KindFields {
  /** The API key's environment (found in the environments list by its key), or just its id. */
  environment: { _id: string; name?: string };
  /** What the read could not read (a feature the organisation's plan refuses), and why. */
  unread?: Skipped[];
}

/** The resource kinds, in the order a program declares them (what others reference comes first). */
export const KIND_ORDER = Object.keys(EXPORT) as readonly ResourceKind[];

/**
 * The order of `kinds` (the declaration order) with each kind that `readAfter` names a later kind
 * moved to right after it. Only ever later, so that a kind is read after every kind declared
 * before it, save those moved past it: a `readAfter` naming a kind not after it is refused, with
 * the kinds it may name.
 */
export function readOrder<K extends string>(kinds: readonly K[], readAfter: (k: K) => K | undefined): K[] {
  for (const k of kinds) {
    const after = readAfter(k);
    if (after !== undefined && !kinds.slice(kinds.indexOf(k) + 1).includes(after)) {
      throw new Error(`EXPORT.${k}.readAfter: ${after} is not declared after ${k}, and readAfter only moves a read later; allowed: ${kinds.slice(kinds.indexOf(k) + 1).join(", ") || "(none)"}`);
    }
  }
  const order: K[] = [];
  const visit = (k: K): void => {
    order.push(k);
    for (const later of kinds) if (readAfter(later) === k) visit(later);
  };
  for (const k of kinds) if (readAfter(k) === undefined) visit(k);
  return order;
}

/** The order the kinds are read in (see {@link readOrder}). */
export const READ_ORDER: readonly ResourceKind[] = readOrder(KIND_ORDER, (k) => KINDS[k].readAfter);

/** Reads every kind, in {@link READ_ORDER}, into `r.raw`. */
export async function readKinds(r: ReadContext): Promise<void> {
  for (const kind of READ_ORDER) Object.assign(r.raw, await KINDS[kind].read(r));
}

/** Adds every kind's resources to the model, in {@link KIND_ORDER}. */
export function declareKinds(raw: RawEnvironment, m: ModelBuilder): void {
  for (const kind of KIND_ORDER) KINDS[kind].declare(raw, m);
}

/** What to read beyond the key's own environment. */
export interface ReadOptions {
  /** The API key (to find its environment in the organisation's list). */
  apiKey: string;
  /** List the organisation's environments (for Environment resources). */
  environments?: boolean;
  /** Subscribers to export, with their credentials. */
  subscribers?: readonly string[];
  /** The key's environment id, when the service does not show keys in the environments list. */
  environmentId?: string;
  /** Reads in flight at once (default 8). */
  concurrency?: number;
  progress?: (line: string) => void;
}

/** What a kind's read is given: the client, the options, the organisation's environments, the key's own, and the reading so far. */
export interface ReadContext {
  client: NotifyClient;
  opts: ReadOptions;
  list: Environment[];
  own: { _id: string };
  limit: number;
  progress: (line: string) => void;
  raw: Reading;
}

/** A reading in progress: the fields of the kinds read so far, and what could not be read. */
export type Reading = RawEnvironment & { unread: Skipped[] };
