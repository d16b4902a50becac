/** Topic shapes of production-notes.md (Third pass §4) and spec/openapi.json: topics, their list page and subscriptions. */
import { z } from "zod";

/** A topic as the service returns it. */
export const Topic = z.looseObject({
  _id: z.string(),
  key: z.string(),
  name: z.string().nullable().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
});
export type Topic = z.infer<typeof Topic>;

/** A topic as getTopics lists it. */
export const TopicSummary = Topic.meta({ id: "TopicSummary", description: "A topic: its key, name and database id." });

/** One page of `GET /v2/topics` (cursor pagination, not wrapped in the envelope). */
export const TopicListPage = z.looseObject({
  data: z.array(Topic),
  next: z.string().nullable(),
  previous: z.string().nullable().optional(),
  totalCount: z.number(),
  totalCountCapped: z.boolean().optional(),
});
export type TopicListPage = z.infer<typeof TopicListPage>;

/** A subscription as `GET /v2/topics/{topicKey}/subscriptions` lists it. */
export const TopicSubscription = z.looseObject({
  _id: z.string(),
  identifier: z.string().optional(),
  subscriber: z.looseObject({ _id: z.string().optional(), subscriberId: z.string() }).nullable(),
  contextKeys: z.array(z.string()).optional(),
  createdAt: z.string().optional(),
});
export type TopicSubscription = z.infer<typeof TopicSubscription>;

/** One page of `GET /v2/topics/{topicKey}/subscriptions`. */
export const TopicSubscriptionPage = z.looseObject({
  data: z.array(TopicSubscription),
  next: z.string().nullable(),
  previous: z.string().nullable().optional(),
  totalCount: z.number().optional(),
  totalCountCapped: z.boolean().optional(),
});
export type TopicSubscriptionPage = z.infer<typeof TopicSubscriptionPage>;

/** One failed item of a bulk subscribe or unsubscribe. */
export const SubscriptionItemError = z.looseObject({ subscriberId: z.string().optional(), identifier: z.string().optional(), code: z.string(), message: z.string() });

/** The answer of a bulk subscribe (201) or unsubscribe (200): per-item results and errors. */
export const SubscriptionsResult = z.looseObject({
  data: z.array(z.looseObject({ _id: z.string(), identifier: z.string().optional() })),
  meta: z.looseObject({ totalCount: z.number(), successful: z.number(), failed: z.number() }).optional(),
  errors: z.array(SubscriptionItemError).optional(),
});
export type SubscriptionsResult = z.infer<typeof SubscriptionsResult>;
