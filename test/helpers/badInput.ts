/**
 * The bad-input table: each row a resource's inputs (or a function's arguments) that must fail
 * before any request, with a message naming the property.
 * test/component/provider/badInput.test.ts runs every row through the resources' `check` and the
 * functions; test/e2e/badInput.test.ts runs one
 * row of each kind, and each row marked `engine`, through the engine, for each front end.
 */

import { KINDS } from "../kinds/index";
import type { BadInputOptions } from "../kinds/descriptor";

/** Whether a row also runs through the engine on both front ends (test/e2e/badInput.test.ts), beside the first row of its kind. */
export type RowOptions = BadInputOptions;

/**
 * One bad input: label, kind (a resource's name, or `fn:` and a function's name), arguments, the
 * error it must give, and where else it runs.
 */
export type Row = [label: string, kind: string, args: Record<string, unknown>, expected: RegExp, options?: RowOptions];

/** The kind a row covers: the resource's name, or "fn" for every function. */
export const kindOf = (row: Row): string => (row[1].startsWith("fn:") ? "fn" : row[1]);

/** Every bad input, by kind: each resource kind's rows from its descriptor (test/kinds/<kind>.ts), then the functions'. */
export const ROWS: Row[] = [
  ...KINDS.flatMap((k) => k.badInput.map(([label, args, expected, options]): Row => [label, k.kind, args, expected, options])),
  // Functions (Environment)
  ["getEnvironments unknown argument", "fn:getEnvironments", { nmae: "Development" }, /getEnvironments: invalid arguments: unknown argument "nmae"/],
  // Functions
  ["getLayouts unknown order field", "fn:getLayouts", { orderBy: "size" }, /getLayouts: invalid arguments: orderBy: must be one of/],
  ["getTopics maxResults 0", "fn:getTopics", { maxResults: 0 }, /getTopics: invalid arguments: maxResults/],
  ["getSubscribers page size over 100", "fn:getSubscribers", { limit: 500 }, /getSubscribers: invalid arguments: limit/],
  ["getSubscribers maxResults 0", "fn:getSubscribers", { maxResults: 0 }, /getSubscribers: invalid arguments: maxResults/],
  ["getMessages unknown channel", "fn:getMessages", { channel: "fax" }, /getMessages: invalid arguments: channel: must be one of/],
  ["getEvents limit over 50", "fn:getEvents", { limit: 51 }, /getEvents: invalid arguments: limit/],
  ["getEvents channels with a step type", "fn:getEvents", { channels: ["digest"] }, /getEvents: invalid arguments: channels\[0\]: must be one of "in_app", "email", "sms", "chat", "push", "tool"/],
  ["getEvents after not a timestamp", "fn:getEvents", { after: "yesterday" }, /getEvents: invalid arguments: after: must be an ISO 8601 timestamp/],
  ["getEvent without an id", "fn:getEvent", {}, /getEvent: invalid arguments: notificationId/],
  ["getSubscriber empty id", "fn:getSubscriber", { subscriberId: "" }, /getSubscriber: invalid arguments: subscriberId: must not be empty/],
  ["getWorkflows unknown status", "fn:getWorkflows", { status: ["PAUSED"] }, /getWorkflows: invalid arguments: status\[0\]: must be one of/],
  ["getIntegrations unknown argument", "fn:getIntegrations", { chanel: "email" }, /getIntegrations: invalid arguments: unknown argument "chanel"/],
  ["getTranslations unknown resource type", "fn:getTranslations", { resourceType: "topic", resourceId: "x" }, /getTranslations: invalid arguments: resourceType: must be one of "workflow", "layout"/],
  ["getDomains maxResults 0", "fn:getDomains", { maxResults: 0 }, /getDomains: invalid arguments: maxResults/],
  ["getContexts unknown argument", "fn:getContexts", { type: "tenant" }, /getContexts: invalid arguments: unknown argument "type"/],
  ["getAgents maxResults 0", "fn:getAgents", { maxResults: 0 }, /getAgents: invalid arguments: maxResults/],
  ["getChannelConnections context key without its type", "fn:getChannelConnections", { contextKeys: ["acme"] }, /getChannelConnections: invalid arguments: contextKeys\[0\]: must have the form type:id/],
  ["getChannelEndpoints unknown channel", "fn:getChannelEndpoints", { channel: "slack" }, /getChannelEndpoints: invalid arguments: channel: must be one of/],
  ["getSubscriberPreferences unknown criticality", "fn:getSubscriberPreferences", { subscriberId: "alice", criticality: "high" },
    /getSubscriberPreferences: invalid arguments: criticality: must be one of "nonCritical", "critical", "all"/],
  ["getTopicSubscriptions without a topic", "fn:getTopicSubscriptions", { subscriberId: "alice" }, /getTopicSubscriptions: invalid arguments: topicKey: Invalid input/],
];
