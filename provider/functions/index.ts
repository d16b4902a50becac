/**
 * Read-only functions: program-side async functions (dynamic providers cannot serve engine
 * invokes), each with an `*Output` twin taking `pulumi.Input`s. The connection comes from
 * `new pulumi.Config("notify")` (`apiUrl`, secret `apiKey`), then NOTIFY_API_URL / NOTIFY_API_KEY.
 * Arguments are validated before any request.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { clientFor, type ConnectionSettings } from "../config";
import { NotifyConfigError } from "../client/errors";
import { collect, paginateEvents, paginateMessages, paginateSubscribers, paginateWorkflows } from "../client/paginate";
import {
  CHANNELS, CHANNEL_TYPES, Channel, ContextKey, OrderDirection, SEVERITIES, WORKFLOW_STATUSES,
  type Event, type Integration, type Message, type Subscriber, type WorkflowListItem,
} from "../schemas";
import { propertyPath } from "../resources/common";

/** Upper bound of `maxResults` for every function. */
export const MAX_RESULTS_LIMIT = 100_000;

function connection(): ConnectionSettings {
  // runtime.getConfig reads the raw value without the secret-access warning of Config.get.
  return {
    apiUrl: pulumi.runtime.getConfig("notify:apiUrl"),
    apiKey: pulumi.runtime.getConfig("notify:apiKey"),
    allowInsecureHttp: pulumi.runtime.getConfig("notify:allowInsecureHttp"),
    requestTimeoutMs: pulumi.runtime.getConfig("notify:requestTimeoutMs"),
  };
}

function validate<T extends z.ZodType>(fn: string, schema: T, args: unknown): z.infer<T> {
  const r = schema.safeParse(args ?? {});
  if (r.success) return r.data;
  const msgs = r.error.issues.map((i) => {
    const p = propertyPath(i.path);
    const reason = i.code === "invalid_value" ? `must be one of ${i.values.map((v) => JSON.stringify(v)).join(", ")}`
      : i.code === "unrecognized_keys" ? `unknown argument ${i.keys.map((k) => JSON.stringify(k)).join(", ")}` : i.message;
    return p ? `${p}: ${reason}` : reason;
  });
  throw new NotifyConfigError(`${fn}: invalid arguments: ${msgs.join("; ")}`);
}

const maxResults = z.number().int().min(1).max(MAX_RESULTS_LIMIT).optional();
const id = z.string().min(1, { error: "must not be empty" }).max(500);

// ---------------------------------------------------------------------------------------------

/** Arguments of {@link getSubscriber}. */
export interface GetSubscriberArgs {
  /** The subscriber's id in your application. */
  subscriberId: string;
}
const GetSubscriberArgs = z.strictObject({ subscriberId: id });

/** One subscriber by its `subscriberId`. Fails when it does not exist. */
export async function getSubscriber(args: GetSubscriberArgs): Promise<Subscriber> {
  const a = validate("getSubscriber", GetSubscriberArgs, args);
  return clientFor(connection()).subscribers.get(a.subscriberId);
}
/** {@link getSubscriber} taking Inputs. */
export function getSubscriberOutput(args: pulumi.Input<{ [K in keyof GetSubscriberArgs]: pulumi.Input<GetSubscriberArgs[K]> }>): pulumi.Output<Subscriber> {
  return pulumi.output(args).apply((a) => getSubscriber(a as GetSubscriberArgs));
}

/** Arguments of {@link getSubscribers}. */
export interface GetSubscribersArgs {
  /** Subscribers whose email contains this (case-sensitive). */
  email?: string;
  /** Subscribers whose phone contains this. */
  phone?: string;
  /** Subscribers whose first or last name contains this. */
  name?: string;
  /** Subscribers whose id contains this. */
  subscriberId?: string;
  /** Sort field (default `_id`). */
  orderBy?: "_id" | "createdAt" | "updatedAt" | "subscriberId" | "email" | "firstName" | "lastName";
  /** `ASC` or `DESC`. */
  orderDirection?: "ASC" | "DESC";
  /** Page size of each request (1 to 100, default 100). */
  limit?: number;
  /** Most subscribers returned (default 1,000). */
  maxResults?: number;
}
const GetSubscribersArgs = z.strictObject({
  email: z.string().optional(), phone: z.string().optional(), name: z.string().optional(), subscriberId: z.string().optional(),
  orderBy: z.enum(["_id", "createdAt", "updatedAt", "subscriberId", "email", "firstName", "lastName"]).optional(),
  orderDirection: OrderDirection.optional(), limit: z.number().int().min(1).max(100).optional(), maxResults,
});
/** Result of {@link getSubscribers}. */
export interface GetSubscribersResult { subscribers: Subscriber[]; totalCount: number; totalCountCapped: boolean }

/** Searches subscribers (case-sensitive), following the cursor until `maxResults`. */
export async function getSubscribers(args: GetSubscribersArgs = {}): Promise<GetSubscribersResult> {
  const { maxResults: max = 1000, limit = 100, ...query } = validate("getSubscribers", GetSubscribersArgs, args);
  const it = paginateSubscribers(clientFor(connection()).subscribers, { ...query, limit }, max);
  const subscribers: Subscriber[] = [];
  let meta = { totalCount: 0, totalCountCapped: false };
  for (;;) {
    const n = await it.next();
    if (n.done) {
      meta = n.value;
      break;
    }
    subscribers.push(n.value);
  }
  if (subscribers.length >= max && meta.totalCount === 0) meta.totalCount = subscribers.length;
  return { subscribers, ...meta };
}
/** {@link getSubscribers} taking Inputs. */
export function getSubscribersOutput(args: pulumi.Input<{ [K in keyof GetSubscribersArgs]?: pulumi.Input<GetSubscribersArgs[K]> }> = {}): pulumi.Output<GetSubscribersResult> {
  return pulumi.output(args).apply((a) => getSubscribers(a as GetSubscribersArgs));
}

/** Arguments of {@link getMessages}. */
export interface GetMessagesArgs {
  /** Only messages of this channel. */
  channel?: "in_app" | "email" | "sms" | "chat" | "push";
  /** Only messages to this subscriber. */
  subscriberId?: string;
  /** Only messages of these triggers (transaction ids). */
  transactionIds?: string[];
  /** Exact set of `type:id` keys, order insensitive. */
  contextKeys?: string[];
  /** Page size (1 to 1,000, default 100). */
  limit?: number;
  /** Most messages returned (default 1,000). */
  maxResults?: number;
}
const GetMessagesArgs = z.strictObject({
  channel: Channel.optional(), subscriberId: z.string().optional(), transactionIds: z.array(z.string()).optional(),
  contextKeys: z.array(ContextKey).optional(), limit: z.number().int().min(1).max(1000).optional(), maxResults,
});
/** Messages of the environment, newest first. */
export async function getMessages(args: GetMessagesArgs = {}): Promise<{ messages: Message[] }> {
  const { maxResults: max = 1000, limit = 100, transactionIds, ...rest } = validate("getMessages", GetMessagesArgs, args);
  const messages = await collect(paginateMessages(clientFor(connection()).messages, { ...rest, transactionId: transactionIds, limit }, max));
  return { messages };
}
/** {@link getMessages} taking Inputs. */
export function getMessagesOutput(args: pulumi.Input<{ [K in keyof GetMessagesArgs]?: pulumi.Input<GetMessagesArgs[K]> }> = {}): pulumi.Output<{ messages: Message[] }> {
  return pulumi.output(args).apply((a) => getMessages(a as GetMessagesArgs));
}

/** Arguments of {@link getEvents}. */
export interface GetEventsArgs {
  /** Only events sent through these channels: `in_app`, `email`, `sms`, `chat`, `push` or `tool` (channel types, not step types such as `digest`). */
  channels?: ("in_app" | "email" | "sms" | "chat" | "push" | "tool")[];
  /** Only events of these workflows (database ids). */
  templates?: string[];
  /** Only events to subscribers with these emails. */
  emails?: string[];
  /** Only events to these subscribers. */
  subscriberIds?: string[];
  /** Only events of these severities. */
  severity?: ("high" | "medium" | "low" | "none")[];
  /** Only the events of this trigger. */
  transactionId?: string;
  /** Only events sent to this topic. */
  topicKey?: string;
  /** Only events with exactly this set of `type:id` context keys. */
  contextKeys?: string[];
  /** ISO 8601: records after this time. */
  after?: string;
  /** ISO 8601: records before this time. */
  before?: string;
  /**
   * Free-text search over events.
   * @deprecated The service deprecates free-text search; use the specific filters.
   */
  search?: string;
  /** Page size (1 to 50, the service's bounds; default 50). */
  limit?: number;
  /** Most events returned (default 500). */
  maxResults?: number;
}
const isoTime = z.string().refine((v) => Number.isFinite(Date.parse(v)), { error: "must be an ISO 8601 timestamp" });
const GetEventsArgs = z.strictObject({
  channels: z.array(z.enum(CHANNEL_TYPES)).optional(), templates: z.array(z.string()).optional(), emails: z.array(z.string()).optional(),
  subscriberIds: z.array(z.string()).optional(), severity: z.array(z.enum(SEVERITIES)).optional(),
  transactionId: z.string().optional(), topicKey: z.string().optional(), contextKeys: z.array(ContextKey).optional(),
  after: isoTime.optional(), before: isoTime.optional(), search: z.string().optional(),
  limit: z.number().int().min(1).max(50).optional(), maxResults,
});
/** Triggered events of the environment, newest first. */
export async function getEvents(args: GetEventsArgs = {}): Promise<{ events: Event[] }> {
  const { maxResults: max = 500, limit = 50, ...rest } = validate("getEvents", GetEventsArgs, args);
  const events = await collect(paginateEvents(clientFor(connection()).events, { ...rest, limit }, max));
  return { events };
}
/** {@link getEvents} taking Inputs. */
export function getEventsOutput(args: pulumi.Input<{ [K in keyof GetEventsArgs]?: pulumi.Input<GetEventsArgs[K]> }> = {}): pulumi.Output<{ events: Event[] }> {
  return pulumi.output(args).apply((a) => getEvents(a as GetEventsArgs));
}

/** Arguments of {@link getEvent}. */
export interface GetEventArgs {
  /** The event's id (`_id` in getEvents results). */
  notificationId: string;
}
const GetEventArgs = z.strictObject({ notificationId: id });
/** One event with its jobs and execution details. */
export async function getEvent(args: GetEventArgs): Promise<Event> {
  const a = validate("getEvent", GetEventArgs, args);
  return clientFor(connection()).events.get(a.notificationId);
}
/** {@link getEvent} taking Inputs. */
export function getEventOutput(args: pulumi.Input<{ [K in keyof GetEventArgs]: pulumi.Input<GetEventArgs[K]> }>): pulumi.Output<Event> {
  return pulumi.output(args).apply((a) => getEvent(a as GetEventArgs));
}

/** Arguments of {@link getIntegrations}. */
export interface GetIntegrationsArgs {
  /** Only integrations of this channel. */
  channel?: "in_app" | "email" | "sms" | "chat" | "push";
  /** Only integrations of this provider (`sendgrid`, `twilio`, ...). */
  providerId?: string;
  /** Only active integrations. */
  activeOnly?: boolean;
  /** Only this environment's (default: every environment the key's organisation has). */
  environmentId?: string;
}
const GetIntegrationsArgs = z.strictObject({
  channel: Channel.optional(), providerId: z.string().optional(), activeOnly: z.boolean().optional(), environmentId: z.string().optional(),
});
/** Integrations of the organisation (never their credentials). */
export async function getIntegrations(args: GetIntegrationsArgs = {}): Promise<{ integrations: Omit<Integration, "credentials">[] }> {
  const a = validate("getIntegrations", GetIntegrationsArgs, args);
  const all = await clientFor(connection()).integrations.list();
  const integrations = all
    .filter((i) => !i.deleted && (!a.channel || i.channel === a.channel) && (!a.providerId || i.providerId === a.providerId) &&
      (!a.activeOnly || i.active) && (!a.environmentId || i._environmentId === a.environmentId))
    .map(({ credentials: _c, ...rest }) => rest);
  return { integrations };
}
/** {@link getIntegrations} taking Inputs. */
export function getIntegrationsOutput(args: pulumi.Input<{ [K in keyof GetIntegrationsArgs]?: pulumi.Input<GetIntegrationsArgs[K]> }> = {}): pulumi.Output<{ integrations: Omit<Integration, "credentials">[] }> {
  return pulumi.output(args).apply((a) => getIntegrations(a as GetIntegrationsArgs));
}

/** Arguments of {@link getWorkflows}. */
export interface GetWorkflowsArgs {
  /** Workflows whose name or id contains this. */
  query?: string;
  /** Only workflows with one of these tags. */
  tags?: string[];
  /** Only workflows with one of these statuses. */
  status?: ("ACTIVE" | "INACTIVE" | "ERROR")[];
  /** Sort field. */
  orderBy?: "createdAt" | "updatedAt" | "name" | "lastTriggeredAt";
  /** `ASC` or `DESC`. */
  orderDirection?: "ASC" | "DESC";
  /** Most workflows returned (default 1,000). */
  maxResults?: number;
}
const GetWorkflowsArgs = z.strictObject({
  query: z.string().optional(), tags: z.array(z.string()).optional(), status: z.array(z.enum(WORKFLOW_STATUSES)).optional(),
  orderBy: z.enum(["createdAt", "updatedAt", "name", "lastTriggeredAt"]).optional(), orderDirection: OrderDirection.optional(), maxResults,
});
/** Workflows of the environment. */
export async function getWorkflows(args: GetWorkflowsArgs = {}): Promise<{ workflows: WorkflowListItem[] }> {
  const { maxResults: max = 1000, ...rest } = validate("getWorkflows", GetWorkflowsArgs, args);
  const workflows = await collect(paginateWorkflows(clientFor(connection()).workflows, { ...rest, limit: 100 }, max));
  return { workflows };
}
/** {@link getWorkflows} taking Inputs. */
export function getWorkflowsOutput(args: pulumi.Input<{ [K in keyof GetWorkflowsArgs]?: pulumi.Input<GetWorkflowsArgs[K]> }> = {}): pulumi.Output<{ workflows: WorkflowListItem[] }> {
  return pulumi.output(args).apply((a) => getWorkflows(a as GetWorkflowsArgs));
}

/** The schema of each function's arguments (checked before any request; also the source of schema.json's function inputs). */
export const FUNCTION_ARGS = {
  getSubscriber: GetSubscriberArgs,
  getSubscribers: GetSubscribersArgs,
  getMessages: GetMessagesArgs,
  getEvents: GetEventsArgs,
  getEvent: GetEventArgs,
  getIntegrations: GetIntegrationsArgs,
  getWorkflows: GetWorkflowsArgs,
} as const;

export { CHANNELS };
