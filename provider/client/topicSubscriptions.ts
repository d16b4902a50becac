/**
 * One topic subscription (v2): `/v2/topics/{topicKey}/subscriptions/{identifier}` (read, update)
 * and the topic's bulk subscribe and unsubscribe for one subscription by its identifier. The wire
 * shapes live here, beside the operations that read them (`SubscriptionDetailsResponseDto`,
 * `SubscriptionResponseDto`, `CreateTopicSubscriptionsResponseDto` of spec/openapi.json).
 */
import { z } from "zod";
import type { RequestBody } from "../../spec/operations";
import { SubscriptionItemError } from "../schemas";
import type { HttpTransport } from "./http";

/** The workflow a stored subscription preference is for (`WorkflowDto`); absent when that workflow is gone. */
const PreferenceWorkflow = z.looseObject({
  id: z.string(),
  identifier: z.string(),
  name: z.string().optional(),
  tags: z.array(z.string()).optional(),
});

/** One stored preference of a subscription: one workflow's `enabled` and JSON Logic `condition` (`SubscriptionPreferenceDto`). */
export const SubscriptionPreference = z.looseObject({
  subscriptionId: z.string().optional(),
  workflow: PreferenceWorkflow.nullable().optional(),
  enabled: z.boolean(),
  condition: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type SubscriptionPreference = z.infer<typeof SubscriptionPreference>;

/** A subscription as `GET /v2/topics/{topicKey}/subscriptions/{identifier}` answers it (no subscriber, no topic). */
export const SubscriptionDetails = z.looseObject({
  id: z.string(),
  identifier: z.string().optional(),
  name: z.string().nullable().optional(),
  preferences: z.array(SubscriptionPreference).nullable().optional(),
  contextKeys: z.array(z.string()).nullable().optional(),
});
export type SubscriptionDetails = z.infer<typeof SubscriptionDetails>;

/** A subscription as a subscribe (each item) or an update answers it: with its topic and subscriber. */
export const Subscription = z.looseObject({
  _id: z.string(),
  identifier: z.string().optional(),
  name: z.string().nullable().optional(),
  topic: z.looseObject({ _id: z.string(), key: z.string() }).optional(),
  subscriber: z.looseObject({ _id: z.string().optional(), subscriberId: z.string() }).nullable().optional(),
  preferences: z.array(SubscriptionPreference).nullable().optional(),
  contextKeys: z.array(z.string()).nullable().optional(),
});
export type Subscription = z.infer<typeof Subscription>;

/** A topic's subscription as getTopicSubscriptions gives it: what a TopicSubscription declares, and whether it is a plain membership. */
export const TopicSubscriptionResult = z.object({
  topic: z.string().describe("The topic's key."),
  subscriber: z.string().describe("The subscriberId of the subscriber."),
  identifier: z.string().describe("The subscription's identifier, unique in the environment."),
  subscriptionId: z.string().describe("The service's `_id` of the subscription."),
  plain: z.boolean().describe("Whether it is a plain membership (identifier `tk_<topic>:si_<subscriber>`, no context): what a Topic's `subscribers` holds."),
  name: z.string().optional().describe("The subscription's name."),
  preferences: z.array(z.object({
    workflowId: z.string().describe("The workflow's identifier."),
    enabled: z.boolean().describe("Whether the workflow's notifications pass when no condition is given."),
    condition: z.record(z.string(), z.unknown()).optional().describe("The JSON Logic rule the service evaluates when a trigger fans out to the topic."),
  }).meta({ id: "TopicSubscriptionPreferenceResult", description: "One workflow's preference in a topic subscription." }))
    .describe("The subscription's preferences, one per workflow, sorted by workflow."),
  contextKeys: z.array(z.string()).describe("The context keys (`type:id`) that scope the subscription."),
  createdAt: z.string().optional().describe("When the subscription was made (ISO 8601)."),
}).meta({ id: "TopicSubscriptionResult", description: "A subscription of a topic: its subscriber, identifier, name, preferences and context keys." });

/** The answer of a subscribe (201; not wrapped in the envelope): the subscriptions made or found, and per-item errors. */
const Subscribed = z.looseObject({ data: z.array(Subscription), errors: z.array(SubscriptionItemError).optional() });
/** The answer of an unsubscribe. */
const Unsubscribed = z.looseObject({ data: z.array(z.looseObject({ _id: z.string() })), errors: z.array(SubscriptionItemError).optional() });

/** `/v2/topics/{topicKey}/subscriptions[/{identifier}]`, one subscription at a time. */
export class TopicSubscriptionsApi {
  constructor(private readonly http: HttpTransport) {}

  /**
   * `GET /v2/topics/{topicKey}/subscriptions/{identifier}`: the subscription, or undefined when the
   * topic or the subscription does not exist, which the service answers with 204 and no body (not
   * 404: apps/api/src/app/topics-v2/topics.controller.ts).
   */
  get(topicKey: string, identifier: string): Promise<SubscriptionDetails | undefined> {
    return this.http.request({
      operation: `get subscription "${identifier}" of topic "${topicKey}"`, method: "GET", route: "/v2/topics/{topicKey}/subscriptions/{identifier}",
      params: { topicKey, identifier }, schema: SubscriptionDetails, noContent: true,
    });
  }

  /**
   * `POST /v2/topics/{topicKey}/subscriptions` with one subscription. The service answers an
   * identifier the topic holds with that subscription, unchanged (an idempotent subscribe), and
   * makes a missing topic: callers look first.
   */
  create(topicKey: string, body: RequestBody<"TopicsController_createTopicSubscriptions">): Promise<z.infer<typeof Subscribed>> {
    return this.http.request({
      operation: `subscribe to topic "${topicKey}"`, method: "POST", route: "/v2/topics/{topicKey}/subscriptions",
      params: { topicKey }, body, schema: Subscribed,
    });
  }

  /** `PATCH /v2/topics/{topicKey}/subscriptions/{identifier}`: the name, and `preferences`, which replace every stored one. */
  update(topicKey: string, identifier: string, body: RequestBody<"TopicsController_updateTopicSubscription">): Promise<Subscription> {
    return this.http.request({
      operation: `update subscription "${identifier}" of topic "${topicKey}"`, method: "PATCH", route: "/v2/topics/{topicKey}/subscriptions/{identifier}",
      params: { topicKey, identifier }, body, schema: Subscription,
    });
  }

  /**
   * `DELETE /v2/topics/{topicKey}/subscriptions` naming the identifier alone: an item that also
   * names the subscriber removes every subscription of that subscriber in the topic
   * (delete-topic-subscriptions.usecase.ts, `lookupBySubscriberIds`).
   */
  remove(topicKey: string, identifier: string): Promise<z.infer<typeof Unsubscribed>> {
    return this.http.request({
      operation: `delete subscription "${identifier}" of topic "${topicKey}"`, method: "DELETE", route: "/v2/topics/{topicKey}/subscriptions",
      params: { topicKey }, body: { subscriptions: [{ identifier }] } satisfies RequestBody<"TopicsController_deleteTopicSubscriptions">, schema: Unsubscribed,
    });
  }
}
