/**
 * Reads one API key's environment through the provider's client: every listing page, then one
 * read per workflow and per layout (their listings leave out steps and control values), and the
 * subscriptions of each topic. Nothing is written. A progress line per kind goes to `progress`.
 */
import type { NotifyClient } from "../provider/client";
import { collect, paginateLayouts, paginateTopics, paginateWorkflows } from "../provider/client";
import { NotifyConfigError } from "../provider/client/errors";
import type { Subscriber, Topic } from "../provider/schemas";
import type { RawEnvironment } from "./model";

/** What to read beyond the key's own environment. */
export interface ReadOptions {
  /** The API key (to find its environment in the organisation's list). */
  apiKey: string;
  /** List the organisation's environments (for Environment resources). */
  environments?: boolean;
  /** Subscribers whose credentials to export. */
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

/** Every subscriberId subscribed to a topic, following the cursor. */
async function topicSubscribers(client: NotifyClient, key: string): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await client.topics.listSubscriptions(key, { limit: 100, after });
    for (const s of page.data) if (s.subscriber) ids.push(s.subscriber.subscriberId);
    if (!page.next || page.data.length === 0) return ids;
    after = page.next;
  }
}

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

  const integrations = await client.integrations.list();
  progress(`integrations: ${integrations.filter((i) => !i.deleted && i._environmentId === own._id).length}`);

  const layoutItems = await collect(paginateLayouts(client.layouts, { limit: 100 }, Number.MAX_SAFE_INTEGER));
  const layouts = await mapLimit(layoutItems, limit, (l) => client.layouts.get(l.layoutId));
  progress(`layouts: ${layouts.length}`);

  const workflowItems = await collect(paginateWorkflows(client.workflows, { limit: 100 }, Number.MAX_SAFE_INTEGER));
  const workflows = await mapLimit(workflowItems, limit, (w) => client.workflows.get(w._id));
  progress(`workflows: ${workflows.length}`);

  const topicItems: Topic[] = await collect(paginateTopics(client.topics, { limit: 100 }, Number.MAX_SAFE_INTEGER));
  const topics = await mapLimit(topicItems, limit, async (topic) => ({ topic, subscribers: await topicSubscribers(client, topic.key) }));
  progress(`topics: ${topics.length} (${topics.reduce((n, t) => n + t.subscribers.length, 0)} subscriptions)`);

  const variables = await client.environmentVariables.list();
  progress(`environment variables: ${variables.length}`);

  let subscribers: Subscriber[] | undefined;
  if (opts.subscribers?.length) {
    subscribers = await mapLimit([...opts.subscribers], limit, (id) => client.subscribers.get(id));
    progress(`subscribers: ${subscribers.length}`);
  }
  if (opts.environments) progress(`environments: ${list.length}`);
  return {
    environment: { _id: own._id, name: "name" in own ? own.name : undefined },
    integrations, workflows, layouts, topics, variables, subscribers,
    environments: opts.environments ? list : undefined,
  };
}
