/**
 * What the emulated service stores that more than one module reads: the records several kinds
 * share, and the store's lists by name. A record only its own kind reads lives in that kind's
 * route module, beside its routes. Enumerations are plain strings on purpose: production adds
 * step kinds, channels and providers over time, and seeded records (see the seed control) may
 * carry values this emulator does not know yet.
 */

/**
 * The store's lists by name, each typed by its record. Empty here on purpose: each kind's route
 * module adds its own lists (`declare module "../records"`, see kind.ts), so that this file, and
 * the store that imports it, import no route module. kinds.ts checks that every list added here
 * is one a registered kind makes.
 */
export interface StoredLists {}

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
