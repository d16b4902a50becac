/** Workflow shapes of spec/api.md and production-notes.md: list items, the full workflow, steps. */
import { z } from "zod";
import type { RequestBody } from "../../spec/operations";
import { JsonObject, Origin, SeverityRead, StepType, TIME_UNITS, UrlLike, User, WorkflowStatus, WorkflowStepKind, openEnum } from "./common";

const skip = JsonObject.optional();
const Redirect = z.strictObject({
  url: UrlLike,
  target: z.enum(["_self", "_blank", "_parent", "_top", "_unfencedTop"]).optional(),
});
const Action = z.strictObject({ label: z.string().optional(), redirect: Redirect.optional() });

/** Throttle window units production accepts. */
export const THROTTLE_UNITS = ["minutes", "hours", "days"] as const;
/** Methods of an `http_request` step. */
export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const KeyValue = z.strictObject({ key: z.string(), value: z.string() });

/** Control values of each step kind. Unknown keys are refused for the kinds api.md shows. */
export const StepControlValues = {
  in_app: z.strictObject({
    skip,
    // InAppControlDto: body and subject, when given, are not empty.
    body: z.string().min(1, { error: "must not be empty (leave it out instead)" }).optional(),
    subject: z.string().min(1, { error: "must not be empty (leave it out instead)" }).optional(),
    avatar: UrlLike.optional(),
    primaryAction: Action.optional(),
    secondaryAction: Action.optional(),
    redirect: Redirect.optional(),
    disableOutputSanitization: z.boolean().optional(),
    data: JsonObject.optional(),
  }).refine((v) => !!(v.body && v.body.length) || !!(v.subject && v.subject.length), {
    error: "an in_app step needs a non-empty body or subject",
    path: ["body"],
  }),
  email: z.strictObject({
    skip,
    subject: z.string({ error: "an email step requires a subject (string)" }).min(1, { error: "must not be empty" }),
    body: z.string({ error: "an email step requires a body (string)" }),
    editorType: z.enum(["block", "html"]).optional(),
    disableOutputSanitization: z.boolean().optional(),
    layoutId: z.string().nullable().optional(),
    // Accepted by production (production-notes.md, Second pass), newer than spec/openapi.json.
    from: z.strictObject({ email: z.string().optional(), name: z.string().optional() }).optional(),
    replyTo: z.string().optional(),
    preheader: z.string().optional(),
    useProviderDefaults: z.boolean().optional(),
  }),
  sms: z.strictObject({ skip, body: z.string().optional() }),
  push: z.strictObject({ skip, subject: z.string().optional(), body: z.string().optional() }),
  chat: z.strictObject({ skip, body: z.string().optional(), editorType: z.enum(["block", "text"]).optional() }),
  delay: z.strictObject({
    skip,
    type: z.enum(["regular", "timed"]).optional(),
    amount: z.number().min(1).optional(),
    unit: z.enum(TIME_UNITS).optional(),
    cron: z.string().min(1).optional(),
  }),
  // The digest, throttle and custom step shapes are not shown in api.md: known fields are typed,
  // anything else passes through to the service.
  digest: z.looseObject({
    skip,
    type: z.enum(["regular", "timed"]).optional(),
    amount: z.number().min(1).optional(),
    unit: z.enum(TIME_UNITS).optional(),
    digestKey: z.string().optional(),
    cron: z.string().min(1).optional(),
    lookBackWindow: z.looseObject({ amount: z.number().min(1), unit: z.enum(TIME_UNITS) }).optional(),
  }),
  // ThrottleControlDto of spec/openapi.json: production refuses a unit other than minutes, hours or days.
  throttle: z.looseObject({
    skip,
    type: z.enum(["fixed", "dynamic"]).optional(),
    amount: z.number().min(1).optional(),
    unit: z.enum(THROTTLE_UNITS).optional(),
    dynamicKey: z.string().optional(),
    threshold: z.number().int().min(1).optional(),
    throttleKey: z.string().optional(),
  }),
  custom: z.looseObject({ skip }),
  // HttpRequestControlDto of spec/openapi.json.
  http_request: z.strictObject({
    skip,
    method: z.enum(HTTP_METHODS, { error: `an http_request step requires method: one of ${HTTP_METHODS.join(", ")}` }),
    url: z.string({ error: "an http_request step requires a url (string)" }).min(1, { error: "must not be empty" }),
    headers: z.array(KeyValue).optional(),
    body: z.union([z.string(), z.array(KeyValue)]).optional(),
    responseBodySchema: JsonObject.optional(),
    enforceSchemaValidation: z.boolean().optional(),
    continueOnFailure: z.boolean().optional(),
  }),
} as const satisfies Record<z.infer<typeof WorkflowStepKind>, z.ZodType>;

/** Per-channel preference: `{ enabled }`. */
const ChannelPreference = z.strictObject({ enabled: z.boolean().describe("Whether the channel delivers.") })
  .meta({ id: "ChannelPreference", description: "The setting of one channel." });
/** One preferences block: `{ all: { enabled, readOnly }, channels }`. */
export const PreferenceBlock = z.strictObject({
  all: z.strictObject({
    enabled: z.boolean().describe("Whether the workflow delivers at all."),
    readOnly: z.boolean().describe("Whether subscribers may change their preferences."),
  }).meta({ id: "PreferenceAll", description: "The setting of every channel." }).describe("The setting of every channel."),
  channels: z.strictObject({
    email: ChannelPreference.optional().describe("The email channel."),
    sms: ChannelPreference.optional().describe("The SMS channel."),
    in_app: ChannelPreference.optional().describe("The in-app channel."),
    chat: ChannelPreference.optional().describe("The chat channel."),
    push: ChannelPreference.optional().describe("The push channel."),
  }).meta({ id: "ChannelPreferences", description: "Per-channel settings." }).describe("Per-channel settings."),
}).meta({ id: "PreferenceBlock", description: "One preferences block: all channels, then per channel." });
export type PreferenceBlock = z.infer<typeof PreferenceBlock>;
/** Preferences as sent on create and update. */
export const PreferencesInput = z.strictObject({
  user: PreferenceBlock.nullable().optional().describe("The preferences subscribers start with (null clears them)."),
  workflow: PreferenceBlock.nullable().optional().describe("The workflow's own preferences (null clears them)."),
}).meta({ id: "WorkflowPreferences", description: "Default and per-channel preferences of a workflow." });
export type PreferencesInput = z.infer<typeof PreferencesInput>;

/** A step as sent on create or update: matched to an existing step only by `_id`. */
export const StepInput = z.object({
  _id: z.string().optional(),
  stepId: z.string().optional(),
  name: z.string(),
  // A step of a kind this release does not know is sent back as read (with its _id).
  type: z.string(),
  controlValues: JsonObject.optional(),
});
export type StepInput = z.infer<typeof StepInput>;

/** Body of `POST /v2/workflows`, as the document has it. */
export type CreateWorkflowBody = RequestBody<"WorkflowController_create">;

/**
 * Body of `PUT /v2/workflows/{workflowId}`: the document's, except that a step may be one of a
 * kind newer than the document (a {@link StepInput}): an update sends such a step back as read,
 * with its `_id`, so that the service keeps it; and `origin` (never a constant: production spells
 * it with its own name) and an undeclared `severity` are echoed from what was read, so they are as
 * open as the read's.
 */
export type UpdateWorkflowBody = Omit<RequestBody<"WorkflowController_update">, "steps" | "origin" | "severity"> & {
  steps: StepInput[];
  origin: z.infer<typeof Origin>;
  severity?: z.infer<typeof SeverityRead>;
};

/** Issues found on a step. */
export const StepIssues = z.looseObject({
  controls: z.record(z.string(), z.array(z.looseObject({
    issueType: openEnum(["ILLEGAL_VARIABLE_IN_CONTROL_VALUE", "INVALID_FILTER_ARG_IN_VARIABLE", "MISSING_VALUE", "TIER_LIMIT_EXCEEDED"]),
    variableName: z.string().optional(),
    message: z.string(),
  }))).optional(),
  integration: z.record(z.string(), z.array(z.looseObject({
    issueType: openEnum(["MISSING_INTEGRATION", "INBOX_NOT_CONNECTED"]),
    variableName: z.string().optional(),
    message: z.string(),
  }))).optional(),
});

/** A step of a full workflow response. */
export const StepResponse = z.looseObject({
  controls: z.looseObject({
    dataSchema: JsonObject.optional(),
    uiSchema: JsonObject.optional(),
    values: JsonObject.optional(),
  }).optional(),
  controlValues: JsonObject.optional(),
  variables: JsonObject.optional(),
  stepId: z.string(),
  _id: z.string(),
  name: z.string(),
  slug: z.string().optional(),
  type: StepType,
  origin: Origin.optional(),
  workflowId: z.string().optional(),
  workflowDatabaseId: z.string().optional(),
  issues: StepIssues.optional(),
});
export type StepResponse = z.infer<typeof StepResponse>;

/** A workflow as returned by create, get and update. */
export const Workflow = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  active: z.boolean().optional(),
  validatePayload: z.boolean().optional(),
  payloadSchema: JsonObject.nullable().optional(),
  isTranslationEnabled: z.boolean().optional(),
  _id: z.string(),
  workflowId: z.string(),
  slug: z.string(),
  updatedAt: z.string(),
  createdAt: z.string(),
  updatedBy: User.nullable().optional(),
  lastPublishedAt: z.string().nullable().optional(),
  lastPublishedBy: User.nullable().optional(),
  steps: z.array(StepResponse),
  origin: Origin,
  preferences: JsonObject,
  status: WorkflowStatus,
  issues: JsonObject.optional(),
  lastTriggeredAt: z.string().nullable().optional(),
  payloadExample: JsonObject.nullable().optional(),
  severity: SeverityRead,
});
export type Workflow = z.infer<typeof Workflow>;

/** A workflow as listed by `GET /v2/workflows`. */
export const WorkflowListItem = z.looseObject({
  name: z.string(),
  tags: z.array(z.string()).optional(),
  updatedAt: z.string(),
  createdAt: z.string(),
  updatedBy: User.nullable().optional(),
  lastPublishedAt: z.string().nullable().optional(),
  lastPublishedBy: User.nullable().optional(),
  _id: z.string(),
  workflowId: z.string(),
  slug: z.string(),
  status: WorkflowStatus,
  origin: Origin,
  lastTriggeredAt: z.string().nullable().optional(),
  stepTypeOverviews: z.array(StepType).optional(),
  isTranslationEnabled: z.boolean().optional(),
  steps: z.array(z.looseObject({ slug: z.string().optional(), type: StepType, issues: StepIssues.optional() })).optional(),
});
export type WorkflowListItem = z.infer<typeof WorkflowListItem>;
/** A workflow as getWorkflows lists it. */
export const WorkflowSummary = WorkflowListItem.meta({ id: "WorkflowSummary", description: "A workflow as listed: its ids, status and step overview." });

/** One page of `GET /v2/workflows`. */
export const WorkflowListPage = z.looseObject({
  workflows: z.array(WorkflowListItem),
  totalCount: z.number(),
});
export type WorkflowListPage = z.infer<typeof WorkflowListPage>;

/** Body of `POST /v2/workflows/{workflowId}/step/{stepId}/preview`. */
export type StepPreviewBody = RequestBody<"WorkflowController_generatePreview">;

/**
 * The answer of a step preview: the step's kind and its rendered content (`preview`: email
 * `{subject, body}`, the other channels their fields; empty when the workflow or step is unknown
 * or did not render), the payload the service rendered with, and the step's variables schema.
 */
export const StepPreview = z.looseObject({
  result: z.looseObject({ type: z.string().optional(), preview: JsonObject.optional() }),
  previewPayloadExample: JsonObject.optional(),
  schema: JsonObject.nullable().optional(),
});
export type StepPreview = z.infer<typeof StepPreview>;
