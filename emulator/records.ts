/**
 * What the emulated service stores, one interface per record kind. Enumerations are plain
 * strings on purpose: production adds step kinds, channels and providers over time, and seeded
 * records (see the seed control) may carry values this emulator does not know yet.
 */

/** Where a record lives; every stored record carries both. */
export interface Scoped {
  _id: string;
  _environmentId: string;
  _organizationId: string;
}

/** Any JSON object (control values, payloads, configurations). */
export type JsonObject = Record<string, unknown>;

/** An integration: a provider's account behind one channel (or none, for agent integrations). */
export interface IntegrationRecord extends Scoped {
  name: string;
  identifier: string;
  providerId: string;
  /** Absent on agent integrations (`kind: "agent"`). */
  channel?: string;
  kind?: string;
  credentials: JsonObject;
  configurations: JsonObject;
  active: boolean;
  deleted: boolean;
  deletedAt?: string;
  deletedBy?: string;
  primary: boolean;
  conditions: unknown[];
  createdAt: string;
  updatedAt: string;
  [extra: string]: unknown;
}

/** What production keeps of a subscriber's channel credentials. */
export interface StoredCredentials {
  webhookUrl?: string;
  deviceTokens?: string[];
  channel?: string;
}

/** One provider entry of a subscriber's `channels`. */
export interface ChannelEntry {
  providerId: string;
  integrationIdentifier?: string;
  _integrationId: string;
  credentials: StoredCredentials;
}

export interface SubscriberRecord extends Scoped {
  subscriberId: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  avatar: string | null;
  locale: string | null;
  timezone: string | null;
  data: JsonObject | null;
  channels: ChannelEntry[];
  topics: unknown[];
  isOnline: boolean;
  lastOnlineAt: string | null;
  __v: number;
  deleted: boolean;
  createdAt: string;
  updatedAt: string;
  [extra: string]: unknown;
}

export interface StepRecord {
  _id: string;
  stepId: string;
  name: string;
  /** A step kind; may be one this emulator does not know (kept and echoed as is). */
  type: string;
  controlValues: JsonObject;
  /**
   * The step's control issues as the service stores them on create and update (integration
   * issues are computed on each read, never stored); absent when there are none.
   */
  issues?: { controls?: Record<string, StepIssue[]> };
  [extra: string]: unknown;
}

/** One issue of a step: a control's (`MISSING_VALUE`, ...) or the integration's (`MISSING_INTEGRATION`). */
export interface StepIssue {
  issueType: string;
  variableName?: string;
  message: string;
}

export interface WorkflowPreferencesInput {
  user?: JsonObject | null;
  workflow?: JsonObject | null;
}

export interface WorkflowRecord extends Scoped {
  workflowId: string;
  slug: string;
  name: string;
  description: string;
  tags: string[];
  active: boolean;
  validatePayload: boolean;
  payloadSchema: JsonObject | null;
  isTranslationEnabled: boolean;
  preferences: WorkflowPreferencesInput;
  severity: string;
  /** As produced or seeded: `platform-cloud` here, `<service>-cloud` in production. */
  origin: string;
  steps: StepRecord[];
  createdAt: string;
  updatedAt: string;
  lastTriggeredAt?: string | null;
  /**
   * `ACTIVE`, `INACTIVE` or `ERROR`, as the last write set it: a create or update computes it from
   * `active` and the steps' control issues, a PATCH of `active` sets it directly. Absent on a
   * seeded record: then computed as a create would.
   */
  status?: string;
  [extra: string]: unknown;
}

export interface ExecutionDetail {
  _id: string;
  createdAt: string;
  status: string;
  detail: string;
  isRetry: boolean;
  isTest: boolean;
  providerId: string;
  raw: null;
  source: string;
}

export interface JobRecord {
  _id: string;
  type: string;
  status: string;
  providerId: string;
  payload: JsonObject;
  overrides: JsonObject;
  updatedAt: string;
  digest?: JsonObject;
  step: { _id: string; active: boolean; filters: unknown[]; _templateId: string; name: string; _parentId: null };
  executionDetails: ExecutionDetail[];
}

/** A triggered event for one recipient (production calls it a notification). */
export interface EventRecord extends Scoped {
  _subscriberId: string;
  transactionId: string;
  _templateId?: string;
  createdAt: string;
  updatedAt: string;
  channels: string[];
  subscriber?: JsonObject;
  template?: JsonObject;
  jobs: JobRecord[];
  payload: JsonObject;
  tags?: string[];
  to?: JsonObject;
  severity?: string;
  critical?: boolean;
  contextKeys?: string[];
  topics?: { topicKey?: string }[];
  [extra: string]: unknown;
}

export interface MessageRecord extends Scoped {
  _notificationId: string;
  _subscriberId: string;
  createdAt: string;
  transactionId: string;
  channel: string;
  read: boolean;
  seen: boolean;
  cta: JsonObject;
  status: string;
  contextKeys?: string[];
  [extra: string]: unknown;
}

/** One API key of an environment: kept in clear here; responses show it encrypted or clear as production does. */
export interface ApiKeyRecord {
  key: string;
  /** SHA-256 hex of the clear key. */
  hash: string;
  _userId: string;
}

/** An environment of the organisation: a tenant, with its own API keys and objects. */
export interface EnvironmentRecord {
  _id: string;
  _organizationId: string;
  name: string;
  identifier: string;
  /** `dev` for Development, `prod` for Production and every custom environment. */
  type: "dev" | "prod";
  color: string;
  _parentId?: string;
  apiKeys: ApiKeyRecord[];
  createdAt: string;
  updatedAt: string;
  [extra: string]: unknown;
}

/** A v2 layout (production-notes.md, Third pass §3): per environment, soft-deleted. */
export interface LayoutRecord extends Scoped {
  /** The layout's `layoutId`. */
  identifier: string;
  name: string;
  isDefault: boolean;
  isTranslationEnabled: boolean;
  /** The stored control values, `{email: {body, editorType}}`; absent when cleared. */
  controlValues?: JsonObject;
  deleted: boolean;
  createdAt: string;
  updatedAt: string;
  [extra: string]: unknown;
}

/** A variable of the organisation, with one value per environment (stored in clear here). */
export interface EnvironmentVariableRecord {
  _id: string;
  _organizationId: string;
  key: string;
  type: string;
  isSecret: boolean;
  values: { _environmentId: string; value: string }[];
  createdAt: string;
  updatedAt: string;
  _updatedBy?: string;
}

/** A topic (production-notes.md, Third pass §4): per environment, unique key. */
export interface TopicRecord extends Scoped {
  key: string;
  name?: string;
  createdAt: string;
  updatedAt: string;
  [extra: string]: unknown;
}

/** A subscriber's subscription to a topic. */
export interface SubscriptionRecord extends Scoped {
  _topicId: string;
  topicKey: string;
  /** The subscriber's database `_id`. */
  _subscriberId: string;
  /** The subscriber's external id. */
  subscriberId: string;
  identifier: string;
  name?: string;
  contextKeys: string[];
  createdAt: string;
  updatedAt: string;
  [extra: string]: unknown;
}

/** A context (`/v2/contexts`): per environment, unique by type and id; `key` is `type:id`. */
export interface ContextRecord extends Scoped {
  type: string;
  id: string;
  key: string;
  data: JsonObject;
  createdAt: string;
  updatedAt: string;
  [extra: string]: unknown;
}

/** A translation (`/v2/translations`): one locale's content of a workflow or layout, per environment. */
export interface TranslationRecord extends Scoped {
  resourceType: "workflow" | "layout";
  /** The resource's identifier (workflowId or layoutId). */
  resourceId: string;
  /** The resource's database `_id`: the translations go with that object. */
  _resourceInternalId: string;
  /** Normalised to `_` separators (`en_US`). */
  locale: string;
  content: JsonObject;
  createdAt: string;
  updatedAt: string;
}

/** An inbound-email domain (`/v1/domains`): unique by name across the whole service, per environment. */
export interface DomainRecord extends Scoped {
  /** Lower-cased. */
  name: string;
  status: "pending" | "verified";
  mxRecordConfigured: boolean;
  data?: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** An address of a domain routed to a webhook or an agent. */
export interface DomainRouteRecord extends Scoped {
  _domainId: string;
  address: string;
  type: "agent" | "webhook";
  agentId?: string;
  data?: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** An agent (`/v1/agents`): per environment, addressed by its identifier. */
export interface AgentRecord extends Scoped {
  identifier: string;
  name: string;
  description?: string;
  active: boolean;
  behavior?: JsonObject;
  bridgeUrl?: string;
  devBridgeUrl?: string;
  devBridgeActive?: boolean;
  runtime: "self-hosted" | "managed";
  managedRuntime?: JsonObject;
  createdAt: string;
  updatedAt: string;
}

/** A link of an agent to an integration of its environment (`/v1/agents/{identifier}/integrations`). */
export interface AgentLinkRecord extends Scoped {
  _agentId: string;
  _integrationId: string;
  connectedAt: null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A subscriber's own preferences (production's preferences of type SUBSCRIBER_GLOBAL, or
 * SUBSCRIBER_WORKFLOW for one workflow): the channels the subscriber chose, and (global only) the
 * delivery schedule. Only what was chosen is stored; the rest comes from the workflow's defaults.
 */
export interface SubscriberPreferenceRecord extends Scoped {
  /** The subscriber's database `_id`. */
  _subscriberId: string;
  /** The workflow's database `_id`; absent for the global preferences. */
  _templateId?: string;
  channels: Record<string, boolean>;
  schedule?: JsonObject;
  createdAt: string;
  updatedAt: string;
}

/**
 * One workflow's preference of a topic subscription (a preferences entity of type
 * `SUBSCRIPTION_SUBSCRIBER_WORKFLOW` in the service): `all.enabled` and the JSON Logic `all.condition`.
 */
export interface SubscriptionPreferenceRecord extends Scoped {
  /** The subscription's `_id`. */
  _topicSubscriptionId: string;
  _subscriberId: string;
  /** The workflow's `_id`. */
  _templateId: string;
  enabled: boolean;
  condition?: JsonObject;
  createdAt: string;
  updatedAt: string;
}

/**
 * Every list the store holds, each typed by its record: one line per kind. The store takes its
 * shape, its reset and its state file from here, so a new kind adds its line here and leaves
 * store.ts alone.
 */
export function emptyLists() {
  return {
    integrations: list<IntegrationRecord>(),
    subscribers: list<SubscriberRecord>(),
    workflows: list<WorkflowRecord>(),
    events: list<EventRecord>(),
    messages: list<MessageRecord>(),
    /** The organisations' environments (the tenants API keys belong to). */
    environments: list<EnvironmentRecord>(),
    environmentVariables: list<EnvironmentVariableRecord>(),
    layouts: list<LayoutRecord>(),
    topics: list<TopicRecord>(),
    subscriptions: list<SubscriptionRecord>(),
    contexts: list<ContextRecord>(),
    translations: list<TranslationRecord>(),
    domains: list<DomainRecord>(),
    domainRoutes: list<DomainRouteRecord>(),
    agents: list<AgentRecord>(),
    agentLinks: list<AgentLinkRecord>(),
    channelConnections: list<ChannelConnectionRecord>(),
    channelEndpoints: list<ChannelEndpointRecord>(),
    subscriberPreferences: list<SubscriberPreferenceRecord>(),
    subscriptionPreferences: list<SubscriptionPreferenceRecord>(),
  };
}

function list<R>(): R[] {
  return [];
}

/** The store's lists by name. */
export type StoredLists = ReturnType<typeof emptyLists>;

/**
 * A channel connection (`/v1/channel-connections`): a workspace's authorisation for one
 * integration, per environment, addressed by its identifier. The token is kept as given (the
 * service encrypts it at rest and answers it in clear).
 */
export interface ChannelConnectionRecord extends Scoped {
  identifier: string;
  integrationIdentifier: string;
  providerId: string;
  channel: string | null;
  /** Absent on a shared connection. */
  subscriberId?: string;
  contextKeys: string[];
  workspace: JsonObject;
  auth: JsonObject;
  createdAt: string;
  updatedAt: string;
}

/** A channel endpoint (`/v1/channel-endpoints`): where a subscriber is reached, per environment, addressed by its identifier. */
export interface ChannelEndpointRecord extends Scoped {
  identifier: string;
  subscriberId: string;
  integrationIdentifier: string;
  providerId: string;
  channel: string | null;
  connectionIdentifier?: string;
  contextKeys: string[];
  type: string;
  endpoint: JsonObject;
  createdAt: string;
  updatedAt: string;
}
