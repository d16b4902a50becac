/**
 * Reads one API key's environment through the provider's client: every listing page, then one
 * read per workflow and per layout (their listings leave out steps and control values), the
 * subscriptions of each topic, the translations of each workflow and layout whose translation is
 * on (its locales, then one read per locale), and the routes of each domain. Nothing is written.
 * A progress line per kind goes to `progress`.
 */
import type { NotifyClient } from "../provider/client";
import { collect, paginateContexts, paginateLayouts, paginateTopics, paginateWorkflows } from "../provider/client";
import { NotifyApiError, NotifyConfigError, isNotFound } from "../provider/client/errors";
import type { TranslationResourceType } from "../provider/client/translations";
import type { Domain, DomainRoute, Environment, Subscriber, Topic, Translation } from "../provider/schemas";
import type { Kind, RawEnvironment, Skipped } from "./model";
import { isPlainMembership } from "../provider/resources/topic";

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

/** Every subscriberId with a plain membership of a topic (what a Topic's `subscribers` declares), following the cursor. */
async function topicSubscribers(client: NotifyClient, key: string): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await client.topics.listSubscriptions(key, { limit: 100, after });
    for (const s of page.data) if (s.subscriber && isPlainMembership(key, s)) ids.push(s.subscriber.subscriberId);
    if (!page.next || page.data.length === 0) return ids;
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
async function listDomains(client: NotifyClient): Promise<Domain[]> {
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

/**
 * The subscribers named with --subscriber, read once for every kind that needs them (the
 * subscribers themselves, their credentials): an environment's subscribers are its users, far too
 * many to export whole.
 */
async function namedSubscribers({ client, opts, limit, progress, raw }: ReadContext): Promise<void> {
  if (!opts.subscribers?.length || raw.subscribers) return;
  const subscribers: Subscriber[] = await mapLimit([...opts.subscribers], limit, (id) => client.subscribers.get(id));
  raw.subscribers = subscribers;
  progress(`subscribers: ${subscribers.length}`);
}

/** Whether the service refused a feature the organisation's plan does not include (402 Payment Required). */
const isPlanRefusal = (err: unknown) => err instanceof NotifyApiError && err.status === 402;
/** Why objects of a kind the plan refuses are not exported. */
const planReason = (what: string) => `the service answered 402 Payment Required to reading ${what}: the organisation's plan does not include them`;

/** What a kind's read is given: the client, the options, the organisation's environments, the key's own, and the reading so far. */
interface ReadContext {
  client: NotifyClient;
  opts: ReadOptions;
  list: Environment[];
  own: { _id: string };
  limit: number;
  progress: (line: string) => void;
  raw: Reading;
}

/** A reading in progress: every list the model needs, and what could not be read. */
type Reading = RawEnvironment & { unread: Skipped[] };

/**
 * Each kind's read, in the order they are read (a kind after those it needs: translations after
 * the workflows and layouts whose translation is on); keyed by every kind of the provider, so
 * the compiler refuses a kind left out.
 */
const READ: { readonly [K in Kind]: (r: ReadContext) => Promise<void> } = {
  Integration: async ({ client, own, progress, raw }) => {
    raw.integrations = await client.integrations.list();
    progress(`integrations: ${raw.integrations.filter((i) => !i.deleted && i._environmentId === own._id).length}`);
  },
  Layout: async ({ client, limit, progress, raw }) => {
    const layoutItems = await collect(paginateLayouts(client.layouts, { limit: 100 }, Number.MAX_SAFE_INTEGER));
    raw.layouts = await mapLimit(layoutItems, limit, (l) => client.layouts.get(l.layoutId));
    progress(`layouts: ${raw.layouts.length}`);
  },
  Workflow: async ({ client, limit, progress, raw }) => {
    const workflowItems = await collect(paginateWorkflows(client.workflows, { limit: 100 }, Number.MAX_SAFE_INTEGER));
    raw.workflows = await mapLimit(workflowItems, limit, (w) => client.workflows.get(w._id));
    progress(`workflows: ${raw.workflows.length}`);
  },
  Topic: async ({ client, limit, progress, raw }) => {
    const topicItems: Topic[] = await collect(paginateTopics(client.topics, { limit: 100 }, Number.MAX_SAFE_INTEGER));
    const topics = await mapLimit(topicItems, limit, async (topic) => ({ topic, subscribers: await topicSubscribers(client, topic.key) }));
    raw.topics = topics;
    progress(`topics: ${topics.length} (${topics.reduce((n, t) => n + t.subscribers.length, 0)} subscriptions)`);
  },
  EnvironmentVariable: async ({ client, progress, raw }) => {
    raw.variables = await client.environmentVariables.list();
    progress(`environment variables: ${raw.variables.length}`);
  },
  Context: async ({ client, progress, raw }) => {
    raw.contexts = await collect(paginateContexts(client.contexts, { limit: 100 }, Number.MAX_SAFE_INTEGER));
    progress(`contexts: ${raw.contexts.length}`);
  },
  Translation: async ({ client, limit, progress, raw }) => {
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
    raw.translations = translations;
    progress(`translations: ${translations.length} (of ${translated.length} workflows and layouts with translation on)`);
  },
  Agent: async ({ client, progress, raw }) => {
    raw.agents = await client.agents.list();
    progress(`agents: ${raw.agents.length}`);
  },
  Domain: async ({ client, limit, progress, raw }) => {
    let domains: { domain: Domain; routes: DomainRoute[] }[] = [];
    try {
      domains = await mapLimit(await listDomains(client), limit, async (domain) => ({ domain, routes: await domainRoutes(client, domain.name) }));
    } catch (err) {
      if (!isPlanRefusal(err)) throw err;
      raw.unread.push({ kind: "Domain", name: "(every domain)", reason: planReason("inbound-email domains") });
    }
    raw.domains = domains;
    progress(`domains: ${domains.length} (${domains.reduce((n, d) => n + d.routes.length, 0)} routes)`);
  },
  SubscriberCredentials: namedSubscribers,
  // The organisation's list is read first, always (it finds the key's environment); exported only when asked.
  Environment: async ({ opts, list, progress, raw }) => {
    if (!opts.environments) return;
    raw.environments = list;
    progress(`environments: ${list.length}`);
  },
  ChannelConnection: async ({ client, progress, raw }) => {
    raw.channelConnections = await client.channelConnections.list();
    progress(`channel connections: ${raw.channelConnections.length}`);
  },
  ChannelEndpoint: async ({ client, progress, raw }) => {
    raw.channelEndpoints = await client.channelEndpoints.list();
    progress(`channel endpoints: ${raw.channelEndpoints.length}`);
  },
  Subscriber: namedSubscribers,
  SubscriberPreferences: async (r) => {
    await namedSubscribers(r);
    const { client, limit, progress, raw } = r;
    if (!raw.subscribers?.length) return;
    // Every active workflow's (read-only ones too), as the resource reads them.
    raw.subscriberPreferences = await mapLimit(raw.subscribers, limit, async (s) => ({ subscriberId: s.subscriberId, preferences: await client.subscribers.preferences(s.subscriberId, "all") }));
    progress(`subscriber preferences: ${raw.subscriberPreferences.length} subscribers`);
  },
  // After the topics: each topic's subscriptions other than plain memberships, each read whole (the listing leaves out name and preferences).
  TopicSubscription: async ({ client, limit, progress, raw }) => {
    const listed = (await mapLimit(raw.topics, limit, async ({ topic }) => {
      const own: { topic: string; subscriber: string; identifier: string; plainToo: boolean }[] = [];
      const plain = new Set<string>();
      let after: string | undefined;
      for (;;) {
        const page = await client.topics.listSubscriptions(topic.key, { limit: 100, after });
        for (const s of page.data) {
          if (!s.subscriber) continue;
          if (isPlainMembership(topic.key, s)) plain.add(s.subscriber.subscriberId);
          else if (s.identifier) own.push({ topic: topic.key, subscriber: s.subscriber.subscriberId, identifier: s.identifier, plainToo: false });
        }
        if (!page.next || page.data.length === 0) break;
        after = page.next;
      }
      return own.map((o) => ({ ...o, plainToo: plain.has(o.subscriber) }));
    })).flat();
    const read = await mapLimit(listed, limit, async (l) => ({ ...l, subscription: await client.topicSubscriptions.get(l.topic, l.identifier) }));
    raw.topicSubscriptions = read.flatMap((r) => (r.subscription ? [{ ...r, subscription: r.subscription }] : []));
    progress(`topic subscriptions: ${raw.topicSubscriptions.length}`);
  },
};

/** Reads the environment of the client's key. */
export async function readEnvironment(client: NotifyClient, opts: ReadOptions): Promise<RawEnvironment> {
  const progress = opts.progress ?? (() => undefined);
  const limit = opts.concurrency ?? 8;
  const list = await client.environments.list();
  const own = opts.environmentId
    ? list.find((e) => e._id === opts.environmentId) ?? { _id: opts.environmentId }
    : list.find((e) => (e.apiKeys ?? []).some((k) => k.key === opts.apiKey));
  if (!own) {
    throw new NotifyConfigError(
      "cannot tell which environment the API key belongs to: the service's environments list does not show API keys to this caller; " +
      "give the environment's id with --environment-id",
    );
  }
  progress(`environment: ${"name" in own ? own.name : own._id}`);

  // `unread`: what the organisation's plan keeps the key from reading, listed as skipped, never a crash.
  const raw: Reading = { environment: { _id: own._id, name: "name" in own ? own.name : undefined }, integrations: [], workflows: [], layouts: [], topics: [], variables: [], unread: [] };
  const r: ReadContext = { client, opts, list, own, limit, progress, raw };
  for (const kind of Object.keys(READ) as Kind[]) await READ[kind](r);
  return raw;
}
