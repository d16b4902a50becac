/** Topic operations (v2): upsert, list, get, rename, delete, and the subscriptions of a topic. */
import type { z } from "zod";
import { SubscriptionsResult, Topic, TopicListPage, TopicSubscriptionPage, type OrderDirection } from "../schemas";
import type { RequestBody } from "../../spec/operations";
import type { HttpTransport } from "./http";
import { ListedReads } from "./shared";

/** Query of `GET /v2/topics`. */
export interface ListTopicsQuery {
  limit?: number;
  after?: string;
  before?: string;
  orderDirection?: z.infer<typeof OrderDirection>;
  /** Topics whose key contains this (case-insensitive). */
  key?: string;
  /** Topics whose name contains this (case-insensitive). */
  name?: string;
}

/** Query of `GET /v2/topics/{topicKey}/subscriptions`. */
export interface ListTopicSubscriptionsQuery {
  limit?: number;
  after?: string;
  subscriberId?: string;
}

/** `/v2/topics` */
export class TopicsApi {
  /** The list maps each topic as the read-one route does (map-topic-entity-to.dto.ts), newest first, at most 100 a page. */
  private readonly listed: ListedReads<Topic>;

  constructor(private readonly http: HttpTransport) {
    this.listed = new ListedReads(async () => (await this.list({ limit: 100 })).data, (t) => t.key);
  }

  /** `GET /v2/topics` (cursor pagination). */
  list(query: ListTopicsQuery = {}): Promise<TopicListPage> {
    return this.http.request({ operation: "list topics", method: "GET", route: "/v2/topics", query: { ...query }, schema: TopicListPage });
  }

  /**
   * `POST /v2/topics?failIfExists=true`: creates the topic, or fails with 409 when the key exists.
   * (Without `failIfExists` the service updates an existing topic and answers it as it was before
   * the update, so this client never relies on that answer.)
   */
  create(body: RequestBody<"TopicsController_upsertTopic">): Promise<Topic> {
    return this.listed.writing(() => this.http.request({ operation: `create topic "${body.key}"`, method: "POST", route: "/v2/topics", creates: true, query: { failIfExists: true }, body, schema: Topic }));
  }

  /** `GET /v2/topics/{topicKey}` */
  get(topicKey: string): Promise<Topic> {
    return this.http.request({ operation: `get topic "${topicKey}"`, method: "GET", route: "/v2/topics/{topicKey}", params: { topicKey }, schema: Topic });
  }

  /** The topic for a resource's read: as {@link get} answers, from a listing that reads of other topics share ({@link ListedReads}). */
  read(topicKey: string): Promise<Topic> {
    return this.listed.read(topicKey, () => this.get(topicKey));
  }

  /** `PATCH /v2/topics/{topicKey}`: the name (not empty). */
  update(topicKey: string, body: RequestBody<"TopicsController_updateTopic">): Promise<Topic> {
    return this.listed.writing(() => this.http.request({ operation: `rename topic "${topicKey}"`, method: "PATCH", route: "/v2/topics/{topicKey}", params: { topicKey }, body, schema: Topic }));
  }

  /** `DELETE /v2/topics/{topicKey}`: the topic and all its subscriptions. */
  async delete(topicKey: string): Promise<void> {
    await this.listed.writing(() => this.http.request({ operation: `delete topic "${topicKey}"`, method: "DELETE", route: "/v2/topics/{topicKey}", params: { topicKey }, schema: undefined }));
  }

  /** `GET /v2/topics/{topicKey}/subscriptions` (cursor pagination). */
  listSubscriptions(topicKey: string, query: ListTopicSubscriptionsQuery = {}): Promise<TopicSubscriptionPage> {
    return this.http.request({
      operation: `list subscriptions of topic "${topicKey}"`, method: "GET", route: "/v2/topics/{topicKey}/subscriptions",
      params: { topicKey }, query: { ...query }, schema: TopicSubscriptionPage,
    });
  }

  /** `POST /v2/topics/{topicKey}/subscriptions` (1 to 100 subscriber ids): per-item results and errors. */
  subscribe(topicKey: string, subscriberIds: readonly string[]): Promise<SubscriptionsResult> {
    return this.http.request({
      operation: `subscribe to topic "${topicKey}"`, method: "POST", route: "/v2/topics/{topicKey}/subscriptions",
      params: { topicKey }, body: { subscriptions: [...subscriberIds] } satisfies RequestBody<"TopicsController_createTopicSubscriptions">, schema: SubscriptionsResult,
    });
  }

  /**
   * `DELETE /v2/topics/{topicKey}/subscriptions` (1 to 100 subscription identifiers): those
   * subscriptions only. Items name the identifier alone: a bare subscriber id, or one beside the
   * identifier, removes every subscription of that subscriber in the topic
   * (delete-topic-subscriptions.usecase.ts, `lookupBySubscriberIds`).
   */
  unsubscribe(topicKey: string, identifiers: readonly string[]): Promise<SubscriptionsResult> {
    return this.http.request({
      operation: `unsubscribe from topic "${topicKey}"`, method: "DELETE", route: "/v2/topics/{topicKey}/subscriptions",
      params: { topicKey }, body: { subscriptions: identifiers.map((identifier) => ({ identifier })) } satisfies RequestBody<"TopicsController_deleteTopicSubscriptions">, schema: SubscriptionsResult,
    });
  }
}
