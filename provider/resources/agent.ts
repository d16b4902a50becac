/**
 * Agent: a conversational agent of the environment, answering inbound messages on the
 * integrations linked to it, through its bridge (self-hosted) or a managed runtime.
 *
 *   check   no request; the integrations kept as a sorted set
 *   diff    no request
 *   create  with adopt, GET /v1/agents/{identifier} first; else POST /v1/agents, then one POST
 *           /v1/agents/{identifier}/integrations per linked integration, then a PATCH of what the
 *           create does not take (behavior, bridgeUrl), whose answer carries the links. A taken
 *           identifier answers 409 (3.15) or, on a newer service, makes an agent under a suffixed
 *           identifier: that one is deleted again and the identifier counts as taken.
 *   read    GET /v1/agents/{identifier} (the answer lists the linked integrations)
 *   update  PATCH /v1/agents/{identifier} with what changed; links added by POST, removed by
 *           DELETE of the link (its id from GET /v1/agents/{identifier}/integrations)
 *   delete  DELETE /v1/agents/{identifier} (the service removes the links; a 404 counts as done)
 *
 * In an environment of type production (Production and every custom environment) the service
 * refuses links (403): they come from a development environment through a publish.
 */
import { z } from "zod";
import { clientFor } from "../config";
import { NotifyApiError, NotifyConflictError } from "../client/errors";
import type { NotifyClient } from "../client";
import type { Agent as ApiAgent } from "../client/agents";
import type { RequestBody } from "../../spec/operations";
import { checkWith, topLevel, unknownKeyHint, type CheckFailure } from "./check";
import { asSet, type DiffResult, declaredKeys, declaredKeysOf, deepEqual, stripUndefined, UNKNOWN } from "./diff";
import { dynamicProvider as makeDynamicProvider } from "./dynamic";
import { defineResource, diffOf, field, output, requestBody, serviceFields, type ArgsOf, type StateOf } from "./fields";
import { adoptExisting, controlInputs, createOrAdopt, deleteIfPresent, failure, findIfPresent, gone, readIfPresent, readInputs, undoSuffixed, warn } from "./lifecycle";

/** The slug rule of an agent's identifier (the service's packages/shared/src/consts/slug-identifier.ts). */
export const AGENT_IDENTIFIER = /^[a-zA-Z0-9]+(?:[-_.][a-zA-Z0-9]+)*$/;
/** The providers of a managed runtime (ManagedRuntimeDto of spec/openapi.json). */
export const MANAGED_RUNTIME_PROVIDERS = ["anthropic", "platform-anthropic", "anthropic-aws"] as const;

/** A bridge URL: http(s), and not an address the service refuses to call (loopback, private, link-local). */
const bridgeUrl = z.string().refine((v) => {
  if (v === UNKNOWN) return true;
  try {
    const u = new URL(v);
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
}, { error: "must be an http or https URL" }).refine((v) => {
  if (v === UNKNOWN) return true;
  const host = URL.canParse(v) ? new URL(v).hostname.replace(/^\[|\]$/g, "").toLowerCase() : "";
  return !(host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^(127|10|0)\./.test(host) ||
    /^192\.168\./.test(host) || /^169\.254\./.test(host) || /^172\.(1[6-9]|2\d|3[01])\./.test(host));
}, { error: "must not point to a loopback, private or link-local address (the service refuses to call one)" });

/** The field table of an {@link Agent}. */
export const AGENT = defineResource({
  name: "Agent",
  module: "agent",
  doc: "A conversational agent of the environment: it answers inbound messages (email, chat) on the integrations linked to it, " +
    "through its bridge or a managed runtime. The id, and the import id, is the agent's identifier.",
  inputs: {
    identifier: field(z.string().min(1, { error: "must not be empty" }).refine((v) => v === UNKNOWN || AGENT_IDENTIFIER.test(v), {
      error: "must be a slug: letters and digits, parts joined by single -, _ or . (e.g. `support-bot`)",
    }), "The agent's identifier, its address in every call and in domain routes: letters and digits, parts joined by single `-`, `_` or `.`. " +
      "Changing it replaces the agent.", { createOnly: true }),
    name: field(z.string().min(1, { error: "must not be empty" }).max(60, { error: "must be at most 60 characters" }), "The agent's name (1 to 60 characters)."),
    description: field(z.string().optional(), "What the agent is for."),
    active: field(z.boolean().optional(), "Whether the agent answers (default true).", { serviceDefault: true }),
    behavior: field(z.strictObject({
      acknowledgeOnReceived: z.boolean().optional().describe("Acknowledge each inbound message (a typing indicator, or a reaction where a platform has none); the service's default is true."),
      reactionOnResolved: z.string().min(1).nullable().optional().describe("The emoji name reacted with when a conversation is resolved (`check`, `star`); null for none (the service's default is `check`)."),
      subscriberAccess: z.enum(["open", "restricted"]).optional().describe("`open` answers senders not yet linked to a subscriber; `restricted` refuses them."),
    }).optional(), "How the agent behaves in conversations. Only the keys given are managed.", { updateOnly: true }),
    bridgeUrl: field(bridgeUrl.optional(), "The production bridge URL the service forwards each turn to (a self-hosted agent).", { updateOnly: true }),
    runtime: field(z.enum(["self-hosted", "managed"]).optional(), "`self-hosted` (a bridge) or `managed` (a provider runs the agent). Changing it replaces the agent.",
      { createOnly: true }),
    managedRuntime: field(z.strictObject({
      providerId: z.enum(MANAGED_RUNTIME_PROVIDERS).describe("The provider running the agent."),
      integrationId: z.string().min(1).describe("The id of the agent integration (kind `agent`) holding the provider's key."),
      externalAgentId: z.string().optional().describe("An agent on the provider to take over instead of creating one."),
      externalEnvironmentId: z.string().optional().describe("An environment on the provider to take over."),
      model: z.string().optional().describe("The model the provider runs."),
      systemPrompt: z.string().optional().describe("The system prompt."),
    }).optional(), "The managed runtime, when `runtime` is `managed` (required then). Changing it replaces the agent.", { createOnly: true, exact: true }),
    integrations: field(z.array(z.string().min(1, { error: "must not be empty" })).superRefine((ids, ctx) => {
      const seen = new Map<string, number>();
      ids.forEach((id, i) => {
        if (id !== UNKNOWN && seen.has(id)) ctx.addIssue({ code: "custom", path: [i], message: `lists integration ${JSON.stringify(id)} again (first at [${seen.get(id)}])` });
        seen.set(id, i);
      });
    }).optional(), "The identifiers of the integrations linked to the agent, as a set (pass `Integration` outputs, so the engine makes them first). " +
      "Left out, the links are not managed; an empty list unlinks every integration. The service refuses links in an environment of type " +
      "production: link in a development environment and publish.", { local: true }),
    adopt: field(z.boolean().optional(), "Take over an existing agent with the same identifier instead of failing.", { control: true }),
  },
  outputs: {
    agentId: output(z.string(), "The service's `_id` of the agent (what a domain route of type `agent` reads back)."),
    visibility: output(z.string().optional(), "The agent's discovery scope (`public`)."),
    exceedsPlanLimit: output(z.boolean().optional(), "Whether the agent is beyond the plan's limit of agents: stored, but it does not answer."),
    createdAt: output(z.string().optional(), "When the agent was created (ISO 8601)."),
  },
});

/** Inputs of an {@link Agent}. */
export type AgentArgs = ArgsOf<typeof AGENT>;
/** The state of an {@link Agent}: the service's view, each declared input as declared. */
export type AgentState = StateOf<typeof AGENT>;

type Inputs = z.infer<typeof AGENT.schema>;
/** A property map as the engine passes it: inputs or old state, not yet checked. */
type Props = Record<string, unknown>;


/** The identifiers of the integrations linked to an agent, as its answer lists them. */
const linkedOf = (a: ApiAgent): string[] => asSet((a.integrations ?? []).map((i) => i.identifier));

/** Maps the service's agent to outputs. */
export function toAgentOutputs(a: ApiAgent): Props {
  const behavior = a.behavior ? stripUndefined({ ...a.behavior }) : undefined;
  return stripUndefined({
    ...serviceFields(AGENT, a), behavior, integrations: linkedOf(a), managedRuntime: a.managedRuntime ?? undefined,
    description: a.description ?? undefined, bridgeUrl: a.bridgeUrl ?? undefined,
    agentId: a._id, visibility: a.visibility, exceedsPlanLimit: a.exceedsPlanLimit, createdAt: a.createdAt,
  });
}

/**
 * The outputs of an agent for the declared inputs: of `behavior`, only the declared keys (the
 * service fills the others with its defaults); the links as `links` say when given (the agent's
 * answer to a write made before them lacks them).
 */
function outputsFor(a: ApiAgent, declared: Props, keys: string[], links?: readonly string[]): AgentState {
  const outs = toAgentOutputs(a);
  if (links) outs.integrations = asSet(links);
  const want = declared.behavior as Props | undefined;
  if (want) outs.behavior = Object.fromEntries(Object.entries((outs.behavior ?? {}) as Props).filter(([k]) => k in want));
  return stripUndefined({ ...outs, ...controlInputs(declared, AGENT.controlKeys), declaredKeys: keys }) as AgentState;
}

/** Warns when the service stores the agent beyond the plan's limit, where it does not answer. */
async function warnIfOverLimit(a: ApiAgent): Promise<void> {
  if (a.exceedsPlanLimit) {
    await warn(`agent "${a.identifier}" is beyond the organisation plan's limit of active agents: the service keeps it, but it will not answer ` +
      "inbound messages until the plan is upgraded or an older agent is deactivated");
  }
}

/** The hint of a refused link: the service takes links only in development environments. */
function linkHint(err: unknown): string | undefined {
  if (err instanceof NotifyApiError && err.status === 403) {
    return "the service refuses agent integration links in an environment of type production (Production and every custom environment): " +
      "declare the agent with its integrations in the development environment's stack and publish the environment (the publish copies the links), " +
      "and leave `integrations` out of this environment's declaration";
  }
  return undefined;
}

/** Links `add` and unlinks `remove` (by the link ids the links list gives). */
async function syncLinks(client: NotifyClient, identifier: string, live: readonly string[], wanted: readonly string[]): Promise<boolean> {
  const add = wanted.filter((i) => !live.includes(i));
  const remove = live.filter((i) => !wanted.includes(i));
  for (const i of add) await client.agents.link(identifier, i);
  if (remove.length) {
    for (const l of await client.agents.links(identifier)) {
      if (l.integration?.identifier && remove.includes(l.integration.identifier)) await client.agents.unlink(identifier, l._id);
    }
  }
  return add.length + remove.length > 0;
}

/** The PATCH body of the fields that differ from `held` (the service's object as inputs); undefined when none does. */
function changedBody(inputs: Inputs, held: Props): RequestBody<"AgentsController_updateAgent"> | undefined {
  const body: Props = requestBody(AGENT, inputs, "update");
  const changed = Object.entries(body).filter(([k, v]) => {
    if (k === "behavior" && v && typeof v === "object") return Object.entries(v).some(([bk, bv]) => !deepEqual(bv, (held.behavior as Props | undefined)?.[bk]));
    return !deepEqual(v, held[k]);
  });
  return changed.length ? Object.fromEntries(changed) : undefined;
}

/** Takes an existing agent over: written only where it differs from the declaration. */
function adopt(existing: ApiAgent, raw: Props, keys: string[]) {
  return adoptExisting(`agent "${existing.identifier}"`, {
    id: existing.identifier, compared: outputsFor(existing, raw, keys) as unknown as Props, inputs: raw, diff: provider.diff,
    update: async (olds) => {
      try {
        return (await provider.update(existing.identifier, olds, raw)).outs;
      } catch (e) {
        throw failure(`adopt agent "${existing.identifier}"`, e, linkHint(e));
      }
    },
  });
}

/** The provider implementation, loaded in the engine's provider process. */
export const provider = {
  async check(_olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const inputs = stripUndefined(news);
    const failures = checkWith(AGENT.schema, inputs, topLevel(unknownKeyHint(Object.keys(AGENT.inputs))));
    if (!failures.length && inputs.runtime === "managed" && inputs.managedRuntime === undefined) {
      failures.push({ property: "managedRuntime", reason: 'managedRuntime: is required when runtime is "managed" (the provider, and the integration holding its key)' });
    }
    if (!failures.length && inputs.managedRuntime !== undefined && inputs.runtime !== "managed") {
      failures.push({ property: "managedRuntime", reason: `managedRuntime: is taken only with runtime "managed" (given runtime ${JSON.stringify(inputs.runtime ?? "(none)")})` });
    }
    // A set: kept sorted, so that declaring the same integrations in another order is no change.
    if (!failures.length && Array.isArray(inputs.integrations) && !inputs.integrations.includes(UNKNOWN)) inputs.integrations = asSet(inputs.integrations as string[]);
    return { inputs, failures };
  },

  async diff(_id: string, olds: Props, news: Props): Promise<DiffResult> {
    const sorted = (p: Props) => (Array.isArray(p.integrations) ? { ...p, integrations: asSet(p.integrations as string[]) } : p);
    return diffOf(AGENT, sorted(olds), sorted(news));
  },

  async create(raw: Props) {
    const inputs = raw as Inputs;
    const keys = declaredKeys(raw, AGENT.inputKeys);
    const client = clientFor();
    const id = inputs.identifier;
    const action = `create agent "${id}"`;
    return createOrAdopt({
      what: `agent "${id}"`, adopt: inputs.adopt,
      refuse: `An agent with identifier "${id}" already exists; set adopt: true to manage it with this stack`,
      find: () => findIfPresent(() => client.agents.get(id)),
      takeOver: (existing) => adopt(existing, raw, keys),
      create: async () => {
        const made = await client.agents.create(requestBody(AGENT, inputs, "create"));
        if (made.identifier === id) return made;
        // A newer service keeps a duplicate under `<identifier>-<suffix>`: not what was declared, so undone.
        return undoSuffixed({ kind: "agent", field: "identifier", declared: id, answered: made.identifier, route: "/v1/agents", remove: () => client.agents.delete(made.identifier) });
      },
      created: async (made) => {
        try {
          let live = made;
          if (inputs.integrations?.length) await syncLinks(client, id, [], inputs.integrations);
          const body = changedBody(inputs, toAgentOutputs(made));
          // The PATCH last: its answer lists the links just made.
          if (body) live = await client.agents.update(id, body);
          await warnIfOverLimit(live);
          return { id, outs: outputsFor(live, raw, keys, body ? undefined : inputs.integrations ?? linkedOf(made)) };
        } catch (err) {
          throw failure(action, err, linkHint(err));
        }
      },
      partial: (made) => ({ id, outs: outputsFor(made, raw, keys, linkedOf(made)) }),
    });
  },

  async read(id: string, props: Props) {
    const keys = declaredKeysOf(props) ?? [];
    const live = await readIfPresent(`read agent "${id}"`, () => clientFor().agents.get(id));
    if (!live) return gone();
    await warnIfOverLimit(live);
    const outs = outputsFor(live, props, keys);
    return { id, props: outs, inputs: readInputs(props, outs, keys, AGENT.controlKeys) };
  },

  async update(id: string, olds: Props, news: Props) {
    const inputs = news as Inputs;
    const keys = declaredKeys(news, AGENT.inputKeys);
    const client = clientFor();
    try {
      const liveLinks = Array.isArray(olds.integrations) ? (olds.integrations as string[]) : [];
      const linked = inputs.integrations !== undefined && await syncLinks(client, id, liveLinks, inputs.integrations);
      const body = changedBody(inputs, olds);
      // The PATCH after the links, so its answer lists them; without one, the links are as synced.
      const live = body ? await client.agents.update(id, body) : undefined;
      if (live) {
        await warnIfOverLimit(live);
        return { outs: outputsFor(live, news, keys) };
      }
      const held: Props = { ...olds, ...(linked || inputs.integrations !== undefined ? { integrations: asSet(inputs.integrations ?? []) } : {}) };
      // No write was needed: the declared behaviour keys hold their values already (an empty one declares none).
      if (inputs.behavior !== undefined) held.behavior = Object.fromEntries(Object.entries((olds.behavior ?? {}) as Props).filter(([k]) => k in inputs.behavior!));
      return { outs: stripUndefined({ ...held, ...controlInputs(news, AGENT.controlKeys), declaredKeys: keys }) as AgentState };
    } catch (err) {
      throw failure(`update agent "${id}"`, err, linkHint(err));
    }
  },

  async delete(id: string) {
    await deleteIfPresent(`delete agent "${id}"`, () => clientFor().agents.delete(id));
  },
};

/** What this module's `__provider` line hands the engine's dynamic-provider plugin. */
export const dynamicProvider = makeDynamicProvider(provider);
