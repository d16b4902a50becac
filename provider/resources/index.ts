/** The provider's resources: each one's field table, in the order schema.json and the docs list them. */
import { AGENT } from "./agent";
import { CONTEXT } from "./context";
import { DOMAIN } from "./domain";
import { ENVIRONMENT } from "./environment";
import { ENVIRONMENT_VARIABLE } from "./environmentVariable";
import { INTEGRATION } from "./integration";
import { LAYOUT } from "./layout";
import { SUBSCRIBER_CREDENTIALS } from "./subscriberCredentials";
import { SUBSCRIBER } from "./subscriber";
import { SUBSCRIBER_PREFERENCES } from "./subscriberPreferences";
import { TOPIC } from "./topic";
import { TOPIC_SUBSCRIPTION } from "./topicSubscription";
import { TRANSLATION } from "./translation";
import { WORKFLOW } from "./workflow";
import type { ResourceTable } from "./fields";
import { CHANNEL_CONNECTION } from "./channelConnection";
import { CHANNEL_ENDPOINT } from "./channelEndpoint";

/**
 * Every resource's table by its name: the one registration of a kind in the package. Keyed, so
 * that a record over {@link ResourceKind} (the exporter's per-kind part, the tests' descriptors)
 * is checked complete by the compiler; each key is its table's `name`
 * (test/unit/kinds/registration.test.ts).
 */
export const RESOURCES = {
  Integration: INTEGRATION, Workflow: WORKFLOW, SubscriberCredentials: SUBSCRIBER_CREDENTIALS, Environment: ENVIRONMENT,
  EnvironmentVariable: ENVIRONMENT_VARIABLE, Layout: LAYOUT, Topic: TOPIC, Context: CONTEXT, Translation: TRANSLATION, Domain: DOMAIN,
  Agent: AGENT,
  ChannelConnection: CHANNEL_CONNECTION,
  ChannelEndpoint: CHANNEL_ENDPOINT,
  Subscriber: SUBSCRIBER,
  SubscriberPreferences: SUBSCRIBER_PREFERENCES,
  TopicSubscription: TOPIC_SUBSCRIPTION,
} as const satisfies Record<string, ResourceTable>;

/** The name of a resource kind (`Integration`, `Workflow`, ...). */
export type ResourceKind = keyof typeof RESOURCES;

/** The tables of {@link RESOURCES}, in its order. */
export const RESOURCE_TABLES: readonly ResourceTable[] = Object.values(RESOURCES);
