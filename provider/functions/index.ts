/**
 * Read-only functions: program-side async functions (dynamic providers cannot serve engine
 * invokes), each with an `*Output` twin taking `pulumi.Input`s. The connection comes from
 * `new pulumi.Config("notify")` (`apiUrl`, secret `apiKey`), then NOTIFY_API_URL / NOTIFY_API_KEY.
 * Arguments are validated before any request.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { clientFor, isUnauthorized, UNAUTHORIZED_HINT, type ConnectionSettings } from "../config";
import { programConnection } from "../programConnection";
import { NotifyApiError, NotifyConfigError, isNotFound } from "../client/errors";
import { SubscriberPreferencesResult } from "../client/subscribers";
import { collect, paginateContexts, paginateEvents, paginateLayouts, paginateMessages, paginateSubscribers, paginateTopics, paginateWorkflows } from "../client/paginate";
import {
  CHANNELS, Channel, ChannelType, ContextKey, ContextSummary, DomainSummary, EnvironmentResult, EventResult, IntegrationSummary, LayoutSummary, MessageResult, OrderDirection, Severity,
  SubscriberResult, TopicSummary, TRANSLATION_RESOURCE_TYPES, TranslationResult, WorkflowStatusInput, WorkflowSummary,
} from "../schemas";
import { AgentSummary } from "../client/agents";
import { propertyPath } from "../resources/check";
import { stripUndefined } from "../resources/diff";
import type { InputOf } from "../resources/fields";
import { ChannelConnectionSummary } from "../client/channelConnections";
import { ChannelEndpointSummary } from "../client/channelEndpoints";
import { isPlainMembership } from "../resources/topic";
import { toTopicSubscriptionOutputs } from "../resources/topicSubscription";
import { TopicSubscriptionResult } from "../client/topicSubscriptions";

/** Upper bound of `maxResults` for every function. */
export const MAX_RESULTS_LIMIT = 100_000;

/**
 * The program's stack config, else (in the native plugin, which serves these functions as invokes)
 * what the provider was configured with.
 */
function connection(): ConnectionSettings {
  return programConnection();
}

function validate<T extends z.ZodType>(fn: string, schema: T, args: unknown): z.infer<T> {
  const r = schema.safeParse(unsetNulls(args ?? {}));
  if (r.success) return r.data;
  const msgs = r.error.issues.map((i) => {
    const p = propertyPath(i.path);
    const reason = i.code === "invalid_value" ? `must be one of ${i.values.map((v) => JSON.stringify(v)).join(", ")}`
      : i.code === "unrecognized_keys" ? `unknown argument ${i.keys.map((k) => JSON.stringify(k)).join(", ")}` : i.message;
    return p ? `${p}: ${reason}` : reason;
  });
  throw new NotifyConfigError(`${fn}: invalid arguments: ${msgs.join("; ")}`);
}

/**
 * An argument given as null is not set, as Pulumi reads a null input: the Go SDK sends an optional
 * argument whose Output resolved to nil as null. Only top-level arguments; nothing below them is
 * touched.
 */
function unsetNulls(args: unknown): unknown {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return args;
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null));
}

/**
 * A read-only function, declared once: its name, description, arguments (zod, each described),
 * result (zod, for schema.json) and what it does. Gives the function, which checks its arguments
 * before any request, and its `*Output` twin taking Inputs.
 */
export interface FunctionDefinition<A extends z.ZodObject = z.ZodObject, R extends z.ZodType = z.ZodType> {
  name: string;
  doc: string;
  args: A;
  result: R;
  fn: (...args: ArgsParam<z.input<A>>) => Promise<z.output<R>>;
  output: (...args: ArgsParam<InputOf<z.input<A>>>) => pulumi.Output<z.output<R>>;
  /** Top-level result keys that hold secrets: the `*Output` twin's result is then secret, and so are they in an invoke's answer. */
  secretResults?: readonly string[];
}
/** A function's parameter: optional when every argument is. */
type ArgsParam<T> = {} extends T ? [args?: T] : [args: T];

export function defineFunction<A extends z.ZodObject, R extends z.ZodType>(
  name: string, doc: string, args: A, result: R, run: (args: z.output<A>) => Promise<z.output<R>>, secretResults?: readonly string[],
): FunctionDefinition<A, R> {
  const fn = async (...a: ArgsParam<z.input<A>>) => {
    const valid = validate(name, args, a[0]);
    try {
      return await run(valid);
    } catch (err) {
      // A refused key: say where the key comes from (the error keeps its class for callers that branch on it).
      if (isUnauthorized(err) && err instanceof Error) err.message = `${err.message}. ${UNAUTHORIZED_HINT}`;
      throw err;
    }
  };
  const output = (...a: ArgsParam<InputOf<z.input<A>>>) => {
    const out = pulumi.output(a[0] ?? {}).apply((v) => fn(...([v] as ArgsParam<z.input<A>>)));
    return secretResults?.length ? (pulumi.secret(out) as unknown as pulumi.Output<z.output<R>>) : out;
  };
  return { name, doc, args, result, fn, output, ...(secretResults ? { secretResults } : {}) };
}

const maxResults = z.number().int().min(1).max(MAX_RESULTS_LIMIT).optional();
const id = z.string().min(1, { error: "must not be empty" }).max(500);
const isoTime = z.string().refine((v) => Number.isFinite(Date.parse(v)), { error: "must be an ISO 8601 timestamp" });

// ---------------------------------------------------------------------------------------------

const subscriber = defineFunction("getSubscriber", "One subscriber by its `subscriberId`. Fails when it does not exist.",
  z.strictObject({ subscriberId: id.describe("The subscriber's id in your application.") }),
  SubscriberResult,
  async (a) => clientFor(connection()).subscribers.get(a.subscriberId));
export const { fn: getSubscriber, output: getSubscriberOutput } = subscriber;

const subscribers = defineFunction("getSubscribers", "Searches subscribers (case-sensitive), following the cursor until `maxResults`.",
  z.strictObject({
    email: z.string().optional().describe("Subscribers whose email contains this (case-sensitive)."),
    phone: z.string().optional().describe("Subscribers whose phone contains this."),
    name: z.string().optional().describe("Subscribers whose first or last name contains this."),
    subscriberId: z.string().optional().describe("Subscribers whose id contains this."),
    orderBy: z.enum(["_id", "createdAt", "updatedAt", "subscriberId", "email", "firstName", "lastName"]).optional().describe("Sort field (default `_id`)."),
    orderDirection: OrderDirection.optional().describe("`ASC` or `DESC`."),
    limit: z.number().int().min(1).max(100).optional().describe("Page size of each request (1 to 100, default 100)."),
    maxResults: maxResults.describe("Most subscribers returned (default 1,000)."),
  }),
  z.object({ subscribers: z.array(SubscriberResult), totalCount: z.number(), totalCountCapped: z.boolean() }),
  async ({ maxResults: max = 1000, limit = 100, ...query }) => {
    const it = paginateSubscribers(clientFor(connection()).subscribers, { ...query, limit }, max);
    const list: z.output<typeof SubscriberResult>[] = [];
    let meta = { totalCount: 0, totalCountCapped: false };
    for (;;) {
      const n = await it.next();
      if (n.done) {
        meta = n.value;
        break;
      }
      list.push(n.value);
    }
    if (list.length >= max && meta.totalCount === 0) meta.totalCount = list.length;
    return { subscribers: list, ...meta };
  });
export const { fn: getSubscribers, output: getSubscribersOutput } = subscribers;

const messages = defineFunction("getMessages", "Messages of the environment, newest first.",
  z.strictObject({
    channel: Channel.optional().describe("Only messages of this channel."),
    subscriberId: z.string().optional().describe("Only messages to this subscriber."),
    transactionIds: z.array(z.string()).optional().describe("Only messages of these triggers (transaction ids)."),
    contextKeys: z.array(ContextKey).optional().describe("Exact set of `type:id` keys, order insensitive."),
    limit: z.number().int().min(1).max(1000).optional().describe("Page size (1 to 1,000, default 100)."),
    maxResults: maxResults.describe("Most messages returned (default 1,000)."),
  }),
  z.object({ messages: z.array(MessageResult) }),
  async ({ maxResults: max = 1000, limit = 100, transactionIds, ...rest }) =>
    ({ messages: await collect(paginateMessages(clientFor(connection()).messages, { ...rest, transactionId: transactionIds, limit }, max)) }));
export const { fn: getMessages, output: getMessagesOutput } = messages;

const events = defineFunction("getEvents", "Triggered events of the environment, newest first.",
  z.strictObject({
    channels: z.array(ChannelType).optional().describe("Only events sent through these channels: `in_app`, `email`, `sms`, `chat`, `push` or `tool` (channel types, not step types such as `digest`)."),
    templates: z.array(z.string()).optional().describe("Only events of these workflows (database ids)."),
    emails: z.array(z.string()).optional().describe("Only events to subscribers with these emails."),
    subscriberIds: z.array(z.string()).optional().describe("Only events to these subscribers."),
    severity: z.array(Severity).optional().describe("Only events of these severities."),
    transactionId: z.string().optional().describe("Only the events of this trigger."),
    topicKey: z.string().optional().describe("Only events sent to this topic."),
    contextKeys: z.array(ContextKey).optional().describe("Only events with exactly this set of `type:id` context keys."),
    after: isoTime.optional().describe("ISO 8601: records after this time."),
    before: isoTime.optional().describe("ISO 8601: records before this time."),
    search: z.string().optional().describe("Free-text search over events. Deprecated by the service; use the specific filters."),
    limit: z.number().int().min(1).max(50).optional().describe("Page size (1 to 50, the service's bounds; default 50)."),
    maxResults: maxResults.describe("Most events returned (default 500)."),
  }),
  z.object({ events: z.array(EventResult) }),
  async ({ maxResults: max = 500, limit = 50, ...rest }) =>
    ({ events: await collect(paginateEvents(clientFor(connection()).events, { ...rest, limit }, max)) }));
export const { fn: getEvents, output: getEventsOutput } = events;

const event = defineFunction("getEvent", "One event with its jobs and execution details.",
  z.strictObject({ notificationId: id.describe("The event's id (`_id` in getEvents results).") }),
  EventResult,
  async (a) => clientFor(connection()).events.get(a.notificationId));
export const { fn: getEvent, output: getEventOutput } = event;

const integrations = defineFunction("getIntegrations", "Integrations of the organisation (never their credentials).",
  z.strictObject({
    channel: Channel.optional().describe("Only integrations of this channel."),
    providerId: z.string().optional().describe("Only integrations of this provider (`sendgrid`, `twilio`, ...)."),
    activeOnly: z.boolean().optional().describe("Only active integrations."),
    environmentId: z.string().optional().describe("Only this environment's (default: every environment the key's organisation has)."),
  }),
  z.object({ integrations: z.array(IntegrationSummary) }),
  async (a) => {
    const all = await clientFor(connection()).integrations.list();
    return {
      integrations: all
        .filter((i) => !i.deleted && (!a.channel || i.channel === a.channel) && (!a.providerId || i.providerId === a.providerId) &&
          (!a.activeOnly || i.active) && (!a.environmentId || i._environmentId === a.environmentId))
        .map(({ credentials: _c, ...rest }) => rest),
    };
  });
export const { fn: getIntegrations, output: getIntegrationsOutput } = integrations;

const workflows = defineFunction("getWorkflows", "Workflows of the environment.",
  z.strictObject({
    query: z.string().optional().describe("Workflows whose name or id contains this."),
    tags: z.array(z.string()).optional().describe("Only workflows with one of these tags."),
    status: z.array(WorkflowStatusInput).optional().describe("Only workflows with one of these statuses."),
    orderBy: z.enum(["createdAt", "updatedAt", "name", "lastTriggeredAt"]).optional().describe("Sort field."),
    orderDirection: OrderDirection.optional().describe("`ASC` or `DESC`."),
    maxResults: maxResults.describe("Most workflows returned (default 1,000)."),
  }),
  z.object({ workflows: z.array(WorkflowSummary) }),
  async ({ maxResults: max = 1000, ...rest }) =>
    ({ workflows: await collect(paginateWorkflows(clientFor(connection()).workflows, { ...rest, limit: 100 }, max)) }));
export const { fn: getWorkflows, output: getWorkflowsOutput } = workflows;

const environments = defineFunction("getEnvironments",
  "The organisation's environments (Development, Production and the custom ones) with their API keys, which are secret: the `*Output` twin's result is secret, and the plain function's `apiKeys` should be wrapped with `pulumi.secret` before they are exported.",
  z.strictObject({
    name: z.string().optional().describe("Only the environment with this name."),
  }),
  z.object({ environments: z.array(EnvironmentResult) }),
  async (a) => ({
    environments: (await clientFor(connection()).environments.list()).filter((e) => a.name === undefined || e.name === a.name).map((e) => stripUndefined({
      _id: e._id, name: e.name, identifier: e.identifier, type: e.type, color: e.color, _parentId: e._parentId, slug: e.slug,
      // The list gives keys in clear; an encrypted one (`nvsk.`) is not usable and is left out.
      apiKeys: (e.apiKeys ?? []).map((k) => k.key).filter((k) => !k.startsWith("nvsk.")),
    })),
  }),
  ["environments"]);
export const { fn: getEnvironments, output: getEnvironmentsOutput } = environments;

const layouts = defineFunction("getLayouts", "Email layouts of the environment (without their bodies), newest first unless ordered otherwise.",
  z.strictObject({
    query: z.string().optional().describe("Layouts whose name or layoutId contains this (case-insensitive)."),
    orderBy: z.enum(["createdAt", "updatedAt", "name"]).optional().describe("Sort field (default `createdAt`)."),
    orderDirection: OrderDirection.optional().describe("`ASC` or `DESC` (default `DESC`)."),
    maxResults: maxResults.describe("Most layouts returned (default 1,000)."),
  }),
  z.object({ layouts: z.array(LayoutSummary) }),
  async ({ maxResults: max = 1000, ...rest }) =>
    ({ layouts: await collect(paginateLayouts(clientFor(connection()).layouts, { ...rest, limit: 100 }, max)) }));
export const { fn: getLayouts, output: getLayoutsOutput } = layouts;

const topics = defineFunction("getTopics", "Topics of the environment (without their subscribers), following the cursor until `maxResults`.",
  z.strictObject({
    key: z.string().optional().describe("Topics whose key contains this (case-insensitive)."),
    name: z.string().optional().describe("Topics whose name contains this (case-insensitive)."),
    orderDirection: OrderDirection.optional().describe("`ASC` or `DESC` (default `DESC`, newest first)."),
    maxResults: maxResults.describe("Most topics returned (default 1,000)."),
  }),
  z.object({ topics: z.array(TopicSummary) }),
  async ({ maxResults: max = 1000, ...rest }) =>
    ({ topics: await collect(paginateTopics(clientFor(connection()).topics, { ...rest, limit: 100 }, max)) }));
export const { fn: getTopics, output: getTopicsOutput } = topics;

const contexts = defineFunction("getContexts", "Contexts of the environment with their data, newest first unless ordered otherwise, following the cursor until `maxResults`.",
  z.strictObject({
    contextId: z.string().optional().describe("Only contexts with exactly this id (of any type)."),
    search: z.string().optional().describe("Contexts whose key `type:id` contains this (case-insensitive)."),
    orderDirection: OrderDirection.optional().describe("`ASC` or `DESC` (default `DESC`, newest first)."),
    maxResults: maxResults.describe("Most contexts returned (default 1,000)."),
  }),
  z.object({ contexts: z.array(ContextSummary) }),
  async ({ maxResults: max = 1000, contextId, ...rest }) =>
    ({ contexts: await collect(paginateContexts(clientFor(connection()).contexts, stripUndefined({ ...rest, id: contextId, limit: 100 }), max)) }));
export const { fn: getContexts, output: getContextsOutput } = contexts;

const translations = defineFunction("getTranslations",
  "The translations of one workflow or layout, one per locale with its content (the locales in alphabetical order, at most `maxResults`). " +
  "A resource without translations (or one that does not exist) gives an empty list.",
  z.strictObject({
    resourceType: z.enum(TRANSLATION_RESOURCE_TYPES).describe("`workflow` or `layout`."),
    resourceId: id.describe("The workflow's workflowId or the layout's layoutId."),
    maxResults: z.number().int().min(1).max(1000).optional().describe("Most translations returned, one request each (1 to 1,000, default 100)."),
  }),
  z.object({ translations: z.array(TranslationResult) }),
  async ({ resourceType, resourceId, maxResults: max = 100 }) => {
    const api = clientFor(connection()).translations;
    let locales: string[];
    try {
      locales = [...(await api.group(resourceType, resourceId)).locales].sort().slice(0, max);
    } catch (err) {
      if (isNotFound(err)) return { translations: [] };
      throw err;
    }
    const out: z.output<typeof TranslationResult>[] = [];
    // One locale at a time: a resource has few, and the client paces itself.
    for (const l of locales) {
      try {
        out.push(await api.get(resourceType, resourceId, l));
      } catch (err) {
        // Deleted between the two reads.
        if (!isNotFound(err)) throw err;
      }
    }
    return { translations: out };
  });
export const { fn: getTranslations, output: getTranslationsOutput } = translations;

const domains = defineFunction("getDomains", "Inbound-email domains of the environment with their status and expected DNS records, following the cursor until `maxResults`.",
  z.strictObject({
    name: z.string().optional().describe("Domains whose name contains this."),
    maxResults: maxResults.describe("Most domains returned (default 1,000)."),
  }),
  z.object({ domains: z.array(DomainSummary) }),
  async ({ maxResults: max = 1000, name }) => {
    const api = clientFor(connection()).domains;
    const out: z.output<typeof DomainSummary>[] = [];
    let after: string | undefined;
    while (out.length < max) {
      const page = await api.list(stripUndefined({ name, after, limit: Math.min(100, max - out.length) }));
      out.push(...page.data.slice(0, max - out.length));
      if (!page.next || page.data.length === 0) break;
      after = page.next;
    }
    return { domains: out };
  });
export const { fn: getDomains, output: getDomainsOutput } = domains;

/** The filters the channel connection and endpoint listings share (ListChannelConnectionsQuery, ListChannelEndpointsQuery). */
const channelFilters = {
  subscriberId: z.string().min(1).optional().describe("Only those of this subscriber."),
  integrationIdentifier: z.string().min(1).optional().describe("Only those of this integration."),
  channel: Channel.optional().describe("Only those of integrations of this channel."),
  providerId: z.string().min(1).optional().describe("Only those of integrations of this provider (`slack`, `msteams`, ...)."),
  contextKeys: z.array(ContextKey).optional().describe("Only those of exactly this set of contexts (`type:id` each), order insensitive."),
  maxResults: maxResults.describe("Most returned (default 1,000)."),
};

const channelConnections = defineFunction("getChannelConnections",
  "Channel connections of the environment (workspaces authorised for an integration), following the cursor until `maxResults`. " +
  "The result is secret: each connection carries its access token, which the service answers in clear.",
  z.strictObject(channelFilters),
  z.object({ connections: z.array(ChannelConnectionSummary) }),
  async ({ maxResults: max = 1000, ...query }) => ({ connections: await clientFor(connection()).channelConnections.list(stripUndefined(query), max) }),
  ["connections"]);
export const { fn: getChannelConnections, output: getChannelConnectionsOutput } = channelConnections;

const channelEndpoints = defineFunction("getChannelEndpoints",
  "Channel endpoints of the environment (where subscribers are reached), following the cursor until `maxResults`.",
  z.strictObject({ ...channelFilters, connectionIdentifier: z.string().min(1).optional().describe("Only those that deliver through this channel connection.") }),
  z.object({ endpoints: z.array(ChannelEndpointSummary) }),
  async ({ maxResults: max = 1000, ...query }) => ({ endpoints: await clientFor(connection()).channelEndpoints.list(stripUndefined(query), max) }));
export const { fn: getChannelEndpoints, output: getChannelEndpointsOutput } = channelEndpoints;

const topicSubscriptions = defineFunction("getTopicSubscriptions",
  "The subscriptions of one topic, newest first, each read whole (its name and preferences: one request each), at most `maxResults`: " +
  "plain memberships (a Topic's `subscribers`) and subscriptions with an identifier of their own (TopicSubscription resources). Fails when the topic does not exist.",
  z.strictObject({
    topicKey: id.describe("The topic's key."),
    subscriberId: id.optional().describe("Only this subscriber's subscriptions."),
    maxResults: z.number().int().min(1).max(1000).optional().describe("Most subscriptions returned, one request each (1 to 1,000, default 100)."),
  }),
  z.object({ subscriptions: z.array(TopicSubscriptionResult) }),
  async ({ topicKey, subscriberId, maxResults: max = 100 }) => {
    const client = clientFor(connection());
    const out: z.output<typeof TopicSubscriptionResult>[] = [];
    let after: string | undefined;
    while (out.length < max) {
      const page = await client.topics.listSubscriptions(topicKey, stripUndefined({ subscriberId, after, limit: Math.min(100, max - out.length) }));
      for (const s of page.data.slice(0, max - out.length)) {
        if (!s.subscriber || !s.identifier) continue;
        const held = await client.topicSubscriptions.get(topicKey, s.identifier);
        // Deleted between the listing and the read.
        if (!held) continue;
        const outs = toTopicSubscriptionOutputs(topicKey, s.subscriber.subscriberId, s.identifier, { ...held });
        out.push(TopicSubscriptionResult.parse({ ...outs, contextKeys: outs.contextKeys ?? [], plain: isPlainMembership(topicKey, s), createdAt: s.createdAt }));
      }
      if (!page.next || page.data.length === 0) break;
      after = page.next;
    }
    return { subscriptions: out };
  });
export const { fn: getTopicSubscriptions, output: getTopicSubscriptionsOutput } = topicSubscriptions;

const agents = defineFunction("getAgents",
  "Agents of the environment, each with its behaviour, runtime and linked integrations (the service's order, following the cursor until `maxResults`).",
  z.strictObject({
    identifier: z.string().optional().describe("Only the agent with exactly this identifier."),
    maxResults: maxResults.describe("Most agents returned (default 1,000)."),
  }),
  z.object({ agents: z.array(AgentSummary) }),
  async ({ maxResults: max = 1000, identifier }) =>
    ({ agents: await clientFor(connection()).agents.list(stripUndefined({ identifier }), max) }));
export const { fn: getAgents, output: getAgentsOutput } = agents;

const subscriberPreferences = defineFunction("getSubscriberPreferences",
  "One subscriber's preferences: the global ones (the channels the active workflows use, and the delivery schedule once one is set) and each active " +
  "workflow's channels, merged as delivery applies them (the workflow's defaults, then the subscriber's global and per-workflow choices). " +
  "Fails when the subscriber does not exist.",
  z.strictObject({
    subscriberId: id.describe("The subscriber's id in your application."),
    criticality: z.enum(["nonCritical", "critical", "all"]).optional()
      .describe("Which workflows: `nonCritical` (the service's default) those whose preferences subscribers may change, `critical` those whose they may not, or `all`."),
  }),
  SubscriberPreferencesResult,
  async (a) => clientFor(connection()).subscribers.preferences(a.subscriberId, a.criticality));
export const { fn: getSubscriberPreferences, output: getSubscriberPreferencesOutput } = subscriberPreferences;

/** Every function, in the order schema.json and the docs list them. */
export const FUNCTIONS: readonly FunctionDefinition[] = [subscriber, subscribers, messages, events, event, integrations, workflows, environments, layouts, topics, contexts, translations, domains, agents,
  subscriberPreferences, channelConnections, channelEndpoints, topicSubscriptions];

/** Arguments and results of the functions, for programs that name them. */
export type GetSubscriberArgs = z.input<typeof subscriber.args>;
export type GetSubscribersArgs = z.input<typeof subscribers.args>;
export type GetSubscribersResult = z.output<typeof subscribers.result>;
export type GetMessagesArgs = z.input<typeof messages.args>;
export type GetEventsArgs = z.input<typeof events.args>;
export type GetEventArgs = z.input<typeof event.args>;
export type GetIntegrationsArgs = z.input<typeof integrations.args>;
export type GetWorkflowsArgs = z.input<typeof workflows.args>;
export type GetEnvironmentsArgs = z.input<typeof environments.args>;
export type GetEnvironmentsResult = z.output<typeof environments.result>;
export type GetLayoutsArgs = z.input<typeof layouts.args>;
export type GetTopicsArgs = z.input<typeof topics.args>;
export type GetContextsArgs = z.input<typeof contexts.args>;
export type GetTranslationsArgs = z.input<typeof translations.args>;
export type GetDomainsArgs = z.input<typeof domains.args>;
export type GetAgentsArgs = z.input<typeof agents.args>;
export type GetChannelConnectionsArgs = z.input<typeof channelConnections.args>;
export type GetChannelEndpointsArgs = z.input<typeof channelEndpoints.args>;
export type GetSubscriberPreferencesArgs = z.input<typeof subscriberPreferences.args>;
export type GetTopicSubscriptionsArgs = z.input<typeof topicSubscriptions.args>;

export { CHANNELS };
