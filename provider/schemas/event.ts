/** Event (notification record) shapes of spec/api.md, and the trigger request of production. */
import { z } from "zod";
import type { RequestBody } from "../../spec/operations";
import { ChannelRead, JsonObject, Origin, SeverityRead, StepFilterRead, StepType, TIME_UNITS, openEnum } from "./common";

/** A trigger of a workflow. */
export const Trigger = z.looseObject({
  type: openEnum(["event"]),
  identifier: z.string(),
  variables: z.array(z.looseObject({ name: z.string() })).optional(),
  subscriberVariables: z.array(z.looseObject({ name: z.string() })).optional(),
});

/** Digest settings of a job. */
export const DigestMetadata = z.looseObject({
  digestKey: z.string().optional(),
  amount: z.number().optional(),
  unit: openEnum(TIME_UNITS).optional(),
  type: openEnum(["regular", "backoff", "timed"]).optional(),
  events: z.array(JsonObject).optional(),
  backoff: z.boolean().optional(),
  backoffAmount: z.number().optional(),
  backoffUnit: openEnum(TIME_UNITS).optional(),
  updateMode: z.boolean().optional(),
  timed: z.looseObject({
    atTime: z.string().optional(),
    weekDays: z.array(z.string()).optional(),
    monthDays: z.array(z.number()).optional(),
    ordinal: z.string().optional(),
    ordinalValue: z.string().optional(),
    monthlyType: z.string().optional(),
    cronExpression: z.string().optional(),
    untilDate: z.string().optional(),
  }).optional(),
});

/** One log line of a job. */
export const ExecutionDetail = z.looseObject({
  _id: z.string(),
  createdAt: z.string().optional(),
  status: openEnum(["Success", "Warning", "Failed", "Pending", "Queued", "ReadConfirmation"]),
  detail: z.string(),
  isRetry: z.boolean(),
  isTest: z.boolean(),
  providerId: z.string().optional(),
  raw: z.string().nullable().optional(),
  source: openEnum(["Credentials", "Internal", "Payload", "Webhook"]),
});
export type ExecutionDetail = z.infer<typeof ExecutionDetail>;

/** The step a job ran. */
export const EventStep: z.ZodType<Record<string, unknown>> = z.lazy(() => z.looseObject({
  _id: z.string(),
  active: z.boolean().optional(),
  replyCallback: JsonObject.optional(),
  controlVariables: JsonObject.optional(),
  metadata: JsonObject.optional(),
  issues: JsonObject.optional(),
  filters: z.array(StepFilterRead).optional(),
  template: JsonObject.optional(),
  variants: z.array(EventStep).optional(),
  _templateId: z.string().optional(),
  name: z.string().optional(),
  _parentId: z.string().nullable().optional(),
}));

/** One job of an event: one per workflow step. */
export const Job = z.looseObject({
  _id: z.string(),
  type: StepType,
  digest: DigestMetadata.optional(),
  executionDetails: z.array(ExecutionDetail).optional(),
  step: EventStep.optional(),
  overrides: JsonObject.optional(),
  payload: JsonObject.optional(),
  providerId: z.string().optional(),
  status: z.string(),
  updatedAt: z.string().optional(),
  scheduleExtensionsCount: z.number().optional(),
});
export type Job = z.infer<typeof Job>;

/** A triggered run of a workflow. */
export const Event = z.looseObject({
  _id: z.string().optional(),
  _environmentId: z.string(),
  _organizationId: z.string(),
  _subscriberId: z.string(),
  transactionId: z.string(),
  _templateId: z.string().optional(),
  _digestedNotificationId: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  channels: z.array(ChannelRead).optional(),
  subscriber: z.looseObject({
    firstName: z.string().optional(),
    subscriberId: z.string(),
    _id: z.string(),
    lastName: z.string().optional(),
    email: z.string().optional(),
    phone: z.string().optional(),
  }).optional(),
  template: z.looseObject({
    _id: z.string().optional(),
    name: z.string(),
    origin: Origin.optional(),
    triggers: z.array(Trigger).optional(),
  }).optional(),
  jobs: z.array(Job).optional(),
  payload: JsonObject.optional(),
  tags: z.array(z.string()).optional(),
  controls: JsonObject.optional(),
  to: JsonObject.optional(),
  topics: z.array(z.looseObject({ _topicId: z.string(), topicKey: z.string() })).optional(),
  severity: SeverityRead.optional(),
  critical: z.boolean().optional(),
  contextKeys: z.array(z.string()).optional(),
});
export type Event = z.infer<typeof Event>;
/** An event as getEvent and getEvents return it. */
export const EventResult = Event.meta({ id: "Event", description: "A triggered event (a notification) with its jobs and their execution details." });

/** One page of `GET /v1/notifications`. */
export const EventPage = z.looseObject({
  hasMore: z.boolean(),
  data: z.array(Event),
  pageSize: z.number(),
  page: z.number(),
});
export type EventPage = z.infer<typeof EventPage>;

/**
 * Body of `POST /v1/events/trigger` (production; `TriggerEventRequestDto`). Each `context` entry,
 * a context type mapped to an id or `{ id, data }`, becomes a context key `type:id` on the event
 * and its messages (what the `contextKeys` filters of the lists match); there is no `contextKeys`
 * field in the body.
 */
export type TriggerBody = RequestBody<"EventsController_trigger">;

/** Response of a trigger. */
export const TriggerResult = z.looseObject({
  acknowledged: z.boolean(),
  status: z.string(),
  transactionId: z.string().optional(),
});
export type TriggerResult = z.infer<typeof TriggerResult>;
