/**
 * The registration of every resource kind's descriptor (test/kinds/descriptor.ts): the one place
 * a kind joins the tests and the bench. Keyed by the provider's kinds (`RESOURCES` of
 * provider/resources/index.ts), so a kind the provider has and this record lacks does not
 * compile; test/unit/kinds/registration.test.ts checks the same at run time, and every
 * descriptor whole.
 */
import { RESOURCES, type ResourceKind } from "../../provider/resources/index";
import type { KindDescriptor } from "./descriptor";
import { agentKind } from "./agent";
import { context } from "./context";
import { domain } from "./domain";
import { environment } from "./environment";
import { environmentVariable } from "./environmentVariable";
import { integration } from "./integration";
import { layout } from "./layout";
import { subscriberCredentials } from "./subscriberCredentials";
import { subscriberKind } from "./subscriber";
import { subscriberPreferencesKind } from "./subscriberPreferences";
import { topicKind } from "./topic";
import { topicSubscriptionKind } from "./topicSubscription";
import { translation } from "./translation";
import { workflow } from "./workflow";
import { channelConnectionKind } from "./channelConnection";
import { channelEndpointKind } from "./channelEndpoint";

/** Each kind's descriptor, by kind. */
export const DESCRIPTORS: { readonly [K in ResourceKind]: KindDescriptor<K> } = {
  Integration: integration,
  Workflow: workflow,
  SubscriberCredentials: subscriberCredentials,
  Environment: environment,
  EnvironmentVariable: environmentVariable,
  Layout: layout,
  Topic: topicKind,
  Context: context,
  Translation: translation,
  Domain: domain,
  Agent: agentKind,
  ChannelConnection: channelConnectionKind,
  ChannelEndpoint: channelEndpointKind,
  Subscriber: subscriberKind,
  SubscriberPreferences: subscriberPreferencesKind,
  TopicSubscription: topicSubscriptionKind,
};

/** Every kind's descriptor, in the provider's order of its resources (schema.json's). */
export const KINDS: readonly KindDescriptor[] = (Object.keys(RESOURCES) as ResourceKind[]).map((k) => DESCRIPTORS[k]);

/** The descriptor of a kind named at run time (a stack's resource); throws for a name no kind has. */
export function descriptorOf(kind: string): KindDescriptor {
  const d = (DESCRIPTORS as Readonly<Record<string, KindDescriptor>>)[kind];
  if (!d) throw new Error(`no descriptor for resource kind ${kind} (test/kinds/index.ts)`);
  return d;
}
