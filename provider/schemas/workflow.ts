/** Workflow shapes of spec/api.md and production-notes.md: list items, the full workflow, steps. */
import { z } from "zod";
import { JsonObject, Origin, Severity, StepType, TIME_UNITS, UrlLike, User, WorkflowStatus, WorkflowStepKind } from "./common";

const skip = JsonObject.optional();
const Redirect = z.strictObject({
  url: UrlLike,
  target: z.enum(["_self", "_blank", "_parent", "_top", "_unfencedTop"]).optional(),
});
const Action = z.strictObject({ label: z.string().optional(), redirect: Redirect.optional() });

/** Control values of each step kind. Unknown keys are refused for the kinds api.md shows. */
export const StepControlValues = {
  in_app: z.strictObject({
    skip,
    body: z.string().optional(),
    subject: z.string().optional(),
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
    subject: z.string({ error: "an email step requires a subject (string)" }),
    body: z.string({ error: "an email step requires a body (string)" }),
    editorType: z.enum(["block", "html"]).optional(),
    disableOutputSanitization: z.boolean().optional(),
    layoutId: z.string().nullable().optional(),
  }),
  sms: z.strictObject({ skip, body: z.string().optional() }),
  push: z.strictObject({ skip, subject: z.string().optional(), body: z.string().optional() }),
  chat: z.strictObject({ skip, body: z.string().optional() }),
  delay: z.strictObject({
    skip,
    type: z.enum(["regular", "timed"]).optional(),
    amount: z.number().nonnegative().optional(),
    unit: z.enum(TIME_UNITS).optional(),
    cron: z.string().min(1).optional(),
  }),
  // The digest, throttle and custom step shapes are not shown in api.md: known fields are typed,
  // anything else passes through to the service.
  digest: z.looseObject({
    skip,
    type: z.enum(["regular", "timed"]).optional(),
    amount: z.number().nonnegative().optional(),
    unit: z.enum(TIME_UNITS).optional(),
    digestKey: z.string().optional(),
    cron: z.string().min(1).optional(),
    lookBackWindow: z.looseObject({ amount: z.number().nonnegative(), unit: z.enum(TIME_UNITS) }).optional(),
  }),
  throttle: z.looseObject({
    skip,
    type: z.enum(["fixed", "dynamic"]).optional(),
    amount: z.number().nonnegative().optional(),
    unit: z.enum(TIME_UNITS).optional(),
    threshold: z.number().int().positive().optional(),
    throttleKey: z.string().optional(),
  }),
  custom: z.looseObject({ skip }),
} as const satisfies Record<z.infer<typeof WorkflowStepKind>, z.ZodType>;

/** Per-channel preference: `{ enabled }`. */
const ChannelPreference = z.strictObject({ enabled: z.boolean() });
/** One preferences block: `{ all: { enabled, readOnly }, channels }`. */
export const PreferenceBlock = z.strictObject({
  all: z.strictObject({ enabled: z.boolean(), readOnly: z.boolean() }),
  channels: z.strictObject({
    email: ChannelPreference.optional(),
    sms: ChannelPreference.optional(),
    in_app: ChannelPreference.optional(),
    chat: ChannelPreference.optional(),
    push: ChannelPreference.optional(),
  }),
});
export type PreferenceBlock = z.infer<typeof PreferenceBlock>;
/** Preferences as sent on create and update. */
export const PreferencesInput = z.strictObject({
  user: PreferenceBlock.nullable().optional(),
  workflow: PreferenceBlock.nullable().optional(),
});
export type PreferencesInput = z.infer<typeof PreferencesInput>;

/** A step as sent on create or update: matched to an existing step only by `_id`. */
export const StepInput = z.object({
  _id: z.string().optional(),
  stepId: z.string().optional(),
  name: z.string(),
  type: WorkflowStepKind,
  controlValues: JsonObject.optional(),
});
export type StepInput = z.infer<typeof StepInput>;

/** Body of `POST /v2/workflows`. */
export const CreateWorkflowBody = z.object({
  name: z.string(),
  workflowId: z.string(),
  steps: z.array(StepInput),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  active: z.boolean().optional(),
  validatePayload: z.boolean().optional(),
  payloadSchema: JsonObject.nullable().optional(),
  isTranslationEnabled: z.boolean().optional(),
  preferences: PreferencesInput.optional(),
  severity: Severity.optional(),
  __source: z.string().optional(),
});
export type CreateWorkflowBody = z.infer<typeof CreateWorkflowBody>;

/** Body of `PUT /v2/workflows/{workflowId}`. */
export const UpdateWorkflowBody = z.object({
  name: z.string(),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  active: z.boolean().optional(),
  validatePayload: z.boolean().optional(),
  payloadSchema: JsonObject.nullable().optional(),
  isTranslationEnabled: z.boolean().optional(),
  workflowId: z.string().optional(),
  steps: z.array(StepInput),
  preferences: PreferencesInput,
  origin: Origin,
  severity: Severity.optional(),
});
export type UpdateWorkflowBody = z.infer<typeof UpdateWorkflowBody>;

/** Issues found on a step. */
export const StepIssues = z.looseObject({
  controls: z.record(z.string(), z.array(z.looseObject({
    issueType: z.enum(["ILLEGAL_VARIABLE_IN_CONTROL_VALUE", "INVALID_FILTER_ARG_IN_VARIABLE", "MISSING_VALUE", "TIER_LIMIT_EXCEEDED"]),
    variableName: z.string().optional(),
    message: z.string(),
  }))).optional(),
  integration: z.record(z.string(), z.array(z.looseObject({
    issueType: z.enum(["MISSING_INTEGRATION", "INBOX_NOT_CONNECTED"]),
    variableName: z.string().optional(),
    message: z.string(),
  }))).optional(),
});

/** A step of a full workflow response. */
export const StepResponse = z.looseObject({
  controls: z.looseObject({
    dataSchema: JsonObject.optional(),
    uiSchema: JsonObject.optional(),
    values: JsonObject,
  }),
  controlValues: JsonObject.optional(),
  variables: JsonObject,
  stepId: z.string(),
  _id: z.string(),
  name: z.string(),
  slug: z.string(),
  type: StepType,
  origin: Origin,
  workflowId: z.string(),
  workflowDatabaseId: z.string(),
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
  severity: Severity,
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
  stepTypeOverviews: z.array(StepType),
  isTranslationEnabled: z.boolean().optional(),
  steps: z.array(z.looseObject({ slug: z.string(), type: StepType, issues: StepIssues.optional() })),
});
export type WorkflowListItem = z.infer<typeof WorkflowListItem>;

/** One page of `GET /v2/workflows`. */
export const WorkflowListPage = z.looseObject({
  workflows: z.array(WorkflowListItem),
  totalCount: z.number(),
});
export type WorkflowListPage = z.infer<typeof WorkflowListPage>;
