/**
 * The objects of an environment by their identifiers, through the provider's client (its pacing,
 * its pagination, its reading of both answer shapes): what a live run checks before it starts (an
 * object carrying its prefix is a collision), what its cleanup removes (those objects, and only
 * those), and what test/live/names.ts reads the suite's names from on an emulator.
 *
 * One entry per kind of object the service names, in the order a cleanup removes them: an object
 * before those it refers to. A kind whose listing the server refuses as a route it lacks (an older
 * version, a module it was built without, a route that takes no API key) is left out of the listing,
 * said in `skipped`.
 */
import { NotifyClient, NotifyRouteError, collect, paginateContexts, paginateLayouts, paginateSubscribers, paginateTopics, paginateWorkflows, isNotFound } from "../../provider/client/index";
import type { Environment } from "../../provider/schemas";
import { listDomains } from "../../export/kinds";
import { carriesPrefix } from "./namespace";

/** One object: the identifier it is named by, and how to remove it. */
export interface Named {
  kind: string;
  identifier: string;
  remove(): Promise<void>;
}

interface OwnedKind {
  kind: string;
  list(c: NotifyClient, env: Environment): Promise<Named[]>;
}

const named = (kind: string) => (identifier: string, remove: () => Promise<unknown>): Named => ({ kind, identifier, remove: async () => { await remove(); } });

/** A delete whose object is gone already is done. */
const gone = async (del: () => Promise<unknown>) => {
  try {
    await del();
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
};

/** Removes a workflow's translations, where the server has them (a workflow's delete may leave them). */
async function translationsOf(c: NotifyClient, workflowId: string): Promise<void> {
  let locales: readonly string[];
  try {
    locales = (await c.translations.group("workflow", workflowId)).locales;
  } catch (e) {
    if (isNotFound(e) || e instanceof NotifyRouteError) return;
    throw e;
  }
  for (const locale of locales) await gone(() => c.translations.delete("workflow", workflowId, locale));
}

const KINDS: readonly OwnedKind[] = [
  { kind: "channel endpoint", list: async (c) => (await c.channelEndpoints.list()).map((e) => named("channel endpoint")(e.identifier, () => gone(() => c.channelEndpoints.delete(e.identifier)))) },
  { kind: "channel connection", list: async (c) => (await c.channelConnections.list()).map((e) => named("channel connection")(e.identifier, () => gone(() => c.channelConnections.delete(e.identifier)))) },
  { kind: "domain", list: async (c) => (await listDomains(c)).map((d) => named("domain")(d.name, () => gone(() => c.domains.delete(d.name)))) },
  { kind: "agent", list: async (c) => (await c.agents.list()).map((a) => named("agent")(a.identifier, () => gone(() => c.agents.delete(a.identifier)))) },
  { kind: "topic", list: async (c) => (await collect(paginateTopics(c.topics))).map((t) => named("topic")(t.key, () => gone(() => c.topics.delete(t.key)))) },
  {
    kind: "workflow",
    list: async (c) => (await collect(paginateWorkflows(c.workflows))).map((w) => named("workflow")(w.workflowId, async () => {
      await translationsOf(c, w.workflowId);
      await gone(() => c.workflows.delete(w.workflowId));
    })),
  },
  { kind: "layout", list: async (c) => (await collect(paginateLayouts(c.layouts))).map((l) => named("layout")(l.layoutId, () => gone(() => c.layouts.delete(l.layoutId)))) },
  {
    kind: "integration",
    list: async (c, env) => (await c.integrations.list()).filter((i) => !i.deleted && i._environmentId === env._id)
      .map((i) => named("integration")(i.identifier, () => gone(() => c.integrations.delete(i._id)))),
  },
  { kind: "subscriber", list: async (c) => (await collect(paginateSubscribers(c.subscribers))).map((s) => named("subscriber")(s.subscriberId, () => gone(() => c.subscribers.delete(s.subscriberId)))) },
  { kind: "context", list: async (c) => (await collect(paginateContexts(c.contexts))).map((x) => named("context")(x.id, () => gone(() => c.contexts.delete(x.type, x.id)))) },
  { kind: "environment variable", list: async (c) => (await c.environmentVariables.list()).map((v) => named("environment variable")(v.key, () => gone(() => c.environmentVariables.delete(v.key)))) },
  {
    kind: "environment",
    list: async (c, env) => (await c.environments.list()).filter((e) => e._id !== env._id)
      .map((e) => named("environment")(e.name, () => gone(() => c.environments.delete(e._id)))),
  },
];

/** Every named object of the key's environment (and the organisation's other environments), and the kinds the server would not list. */
export async function listNamed(c: NotifyClient): Promise<{ objects: Named[]; skipped: { kind: string; why: string }[] }> {
  const env = await c.environments.me();
  const objects: Named[] = [];
  const skipped: { kind: string; why: string }[] = [];
  for (const k of KINDS) {
    try {
      objects.push(...await k.list(c, env));
    } catch (e) {
      if (!(e instanceof NotifyRouteError) && !(e instanceof Error && /402/.test(e.message))) throw e;
      skipped.push({ kind: k.kind, why: e.message.split("\n")[0]! });
    }
  }
  return { objects, skipped };
}

/** The objects of the environment that carry `prefix`. */
export async function listPrefixed(c: NotifyClient, prefix: string): Promise<Named[]> {
  return (await listNamed(c)).objects.filter((o) => carriesPrefix(prefix, o.identifier));
}

/**
 * Removes every object carrying `prefix`, kind by kind in {@link KINDS}' order, and lists again
 * until none is left (a removal can bring another into view: a deleted workflow's translations);
 * returns what it removed and what it could not, each with why.
 */
export async function cleanUp(c: NotifyClient, prefix: string): Promise<{ removed: string[]; failed: string[] }> {
  const removed: string[] = [];
  const failed: string[] = [];
  for (let round = 0; round < 3; round++) {
    const left = await listPrefixed(c, prefix);
    if (left.length === 0) break;
    failed.length = 0;
    for (const o of left) {
      try {
        await o.remove();
        removed.push(`${o.kind} ${o.identifier}`);
      } catch (e) {
        failed.push(`${o.kind} ${o.identifier}: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`);
      }
    }
  }
  return { removed, failed };
}
