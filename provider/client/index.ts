/** The notification service client: one per connection. Knows nothing of Pulumi. */
import { HttpTransport, type TransportOptions } from "./http";
import { IntegrationsApi } from "./integrations";
import { WorkflowsApi } from "./workflows";
import { SubscribersApi } from "./subscribers";
import { MessagesApi } from "./messages";
import { EventsApi } from "./events";
import { EnvironmentsApi } from "./environments";
import { EnvironmentVariablesApi } from "./environmentVariables";
import { LayoutsApi } from "./layouts";
import { TopicsApi } from "./topics";
import { ContextsApi } from "./contexts";
import { TranslationsApi } from "./translations";
import { DomainsApi } from "./domains";
import { AgentsApi } from "./agents";
import { ChannelConnectionsApi } from "./channelConnections";
import { ChannelEndpointsApi } from "./channelEndpoints";
import { TopicSubscriptionsApi } from "./topicSubscriptions";

/** Typed access to every operation of the service. */
export class NotifyClient {
  readonly http: HttpTransport;
  readonly integrations: IntegrationsApi;
  readonly workflows: WorkflowsApi;
  readonly subscribers: SubscribersApi;
  readonly messages: MessagesApi;
  readonly events: EventsApi;
  readonly environments: EnvironmentsApi;
  readonly environmentVariables: EnvironmentVariablesApi;
  readonly layouts: LayoutsApi;
  readonly topics: TopicsApi;
  readonly contexts: ContextsApi;
  readonly translations: TranslationsApi;
  readonly domains: DomainsApi;
  readonly agents: AgentsApi;
  readonly channelConnections: ChannelConnectionsApi;
  readonly channelEndpoints: ChannelEndpointsApi;
  readonly topicSubscriptions: TopicSubscriptionsApi;

  constructor(options: TransportOptions) {
    this.http = new HttpTransport(options);
    this.integrations = new IntegrationsApi(this.http);
    this.workflows = new WorkflowsApi(this.http);
    this.subscribers = new SubscribersApi(this.http);
    this.messages = new MessagesApi(this.http);
    this.events = new EventsApi(this.http);
    this.environments = new EnvironmentsApi(this.http);
    this.environmentVariables = new EnvironmentVariablesApi(this.http);
    this.layouts = new LayoutsApi(this.http);
    this.topics = new TopicsApi(this.http);
    this.contexts = new ContextsApi(this.http);
    this.translations = new TranslationsApi(this.http);
    this.domains = new DomainsApi(this.http);
    this.agents = new AgentsApi(this.http);
    this.channelConnections = new ChannelConnectionsApi(this.http);
    this.channelEndpoints = new ChannelEndpointsApi(this.http);
    this.topicSubscriptions = new TopicSubscriptionsApi(this.http);
  }

  private ownEnvironment?: Promise<string>;

  /** The id of the API key's environment (`GET /v1/environments/me`), asked once per client; a failure is asked again next time. */
  ownEnvironmentId(): Promise<string> {
    this.ownEnvironment ??= this.environments.me().then((e) => e._id, (err: unknown) => {
      this.ownEnvironment = undefined;
      throw err;
    });
    return this.ownEnvironment;
  }

  /** Closes the connections. */
  close(): Promise<void> {
    return this.http.close();
  }
}

export * from "./errors";
export * from "./paginate";
export { type TransportOptions, type RequestLogEntry, encodeSegment, buildPath, buildQuery, unwrapEnvelope, routeSince, ROUTES_SINCE } from "./http";
export type { RetryPolicy } from "./retry";
export { Pacer, readRateLimitHeaders } from "./pacing";
export type { ListWorkflowsQuery } from "./workflows";
export type { SearchSubscribersQuery } from "./subscribers";
export type { ListMessagesQuery } from "./messages";
export type { ListEventsQuery } from "./events";
export type { ListLayoutsQuery } from "./layouts";
export type { ListTopicsQuery, ListTopicSubscriptionsQuery } from "./topics";
export type { ListContextsQuery } from "./contexts";
export type { TranslationResourceType } from "./translations";
export type { DomainRouteBody } from "./domains";
export type { ListChannelConnectionsQuery } from "./channelConnections";
export type { ListChannelEndpointsQuery } from "./channelEndpoints";
