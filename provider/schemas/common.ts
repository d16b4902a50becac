/**
 * Enumerations and small shapes shared by several resources of the notification service API
 * (spec/api.md). Response schemas are open: unknown fields are kept and an enumeration reads any
 * string ({@link openEnum}), because the service adds values over time (production-notes.md,
 * "Reads must stay open"). Request schemas and the inputs a program declares are strict.
 */
import { z } from "zod";

/**
 * A response field whose known values are `known`, read as any string: a value the service added
 * after this release passes through to outputs and function results instead of failing the read.
 * Its type still names the known values for editors.
 */
export function openEnum<const T extends readonly string[]>(_known: T): z.ZodType<T[number] | (string & {})> {
  return z.string() as z.ZodType<T[number] | (string & {})>;
}

/** The five delivery channels. */
export const CHANNELS = ["in_app", "email", "sms", "chat", "push"] as const;
/** A delivery channel. */
export const Channel = z.enum(CHANNELS).meta({ id: "Channel", description: "A delivery channel." });
export type Channel = z.infer<typeof Channel>;

/**
 * The channel types of messages and of the events list's `channels` filter: the five delivery
 * channels and `tool` (agent tool calls; production-notes.md, Second pass).
 */
export const CHANNEL_TYPES = [...CHANNELS, "tool"] as const;
/** A channel as the service returns it (open). */
export const ChannelRead = openEnum(CHANNEL_TYPES);
/** A channel type as a filter names it. */
export const ChannelType = z.enum(CHANNEL_TYPES).meta({ id: "ChannelType", description: "A channel type: the five delivery channels and `tool` (not step types such as `digest`)." });

/** Every step type a workflow may hold, plus `trigger` as listed in step type overviews. */
export const STEP_TYPES = ["in_app", "email", "sms", "chat", "push", "digest", "trigger", "delay", "throttle", "custom", "http_request"] as const;
/** A step type as the service returns it (open: e.g. agent steps the service added later). */
export const StepType = openEnum(STEP_TYPES);
export type StepType = z.infer<typeof StepType>;

/** The step kinds a workflow can be created or updated with (no `trigger`). */
export const WORKFLOW_STEP_KINDS = ["in_app", "email", "sms", "chat", "push", "digest", "delay", "throttle", "custom", "http_request"] as const;
export const WorkflowStepKind = z.enum(WORKFLOW_STEP_KINDS).meta({ id: "WorkflowStepKind", description: "The kind of a workflow step." });
export type WorkflowStepKind = z.infer<typeof WorkflowStepKind>;

/**
 * Workflow origins as api.md spells them. Production spells them with the service's own name
 * (`novu-cloud`, `novu-cloud-v1`: the service's packages/shared/src/types/general.ts,
 * `ResourceOriginEnum`), so an origin is read as any string and echoed back on update.
 */
export const ORIGINS = ["platform-cloud", "platform-cloud-v1", "external"] as const;
export const Origin = openEnum(ORIGINS);

/** Workflow statuses. */
export const WORKFLOW_STATUSES = ["ACTIVE", "INACTIVE", "ERROR"] as const;
/** A workflow status as the service returns it (open). */
export const WorkflowStatus = openEnum(WORKFLOW_STATUSES);
/** A workflow status as a filter names it (strict). */
export const WorkflowStatusInput = z.enum(WORKFLOW_STATUSES).meta({ id: "WorkflowStatus", description: "A workflow's status." });

/** Severity levels. */
export const SEVERITIES = ["high", "medium", "low", "none"] as const;
/** A severity as a program declares it (strict). */
export const Severity = z.enum(SEVERITIES).meta({ id: "Severity", description: "A severity level." });
/** A severity as the service returns it (open). */
export const SeverityRead = openEnum(SEVERITIES);

/** Time units of digests and delays. */
export const TIME_UNITS = ["seconds", "minutes", "hours", "days", "weeks", "months"] as const;
export const TimeUnit = z.enum(TIME_UNITS);

/** Order directions of list operations. */
export const OrderDirection = z.enum(["ASC", "DESC"]).meta({ id: "OrderDirection", description: "Sort order." });

/**
 * The chat providers: the chat part of the contract's `ChatOrPushProviderEnum` (spec/openapi.json:
 * with the newer `webex-messaging`, `line`, `telegram` and `sendblue`), and the service's own web
 * chat, which its provider list also holds (packages/shared/src/consts/providers/... of the service,
 * `novu-web-chat`; spelt `platform-web-chat` here, as `platform-slack` is, see the README's note on
 * the service's name). The one list every other list of chat ids derives from.
 */
export const CHAT_PROVIDERS = [
  "slack", "discord", "msteams", "webex-messaging", "mattermost", "ryver", "zulip", "grafana-on-call", "getstream",
  "rocket-chat", "whatsapp-business", "line", "chat-webhook", "platform-slack", "telegram", "sendblue", "platform-web-chat",
] as const;

/** The push providers: the push part of the contract's `ChatOrPushProviderEnum`. */
export const PUSH_PROVIDERS = ["fcm", "apns", "expo", "one-signal", "pushpad", "push-webhook", "pusher-beams", "appio"] as const;

/**
 * The chat and push providers a subscriber can hold credentials for. Production adds providers,
 * so the inputs also accept an unknown id of the same shape (see SubscriberCredentials).
 */
export const SUBSCRIBER_PROVIDERS = [...CHAT_PROVIDERS, ...PUSH_PROVIDERS] as const;
export type SubscriberProviderId = (typeof SUBSCRIBER_PROVIDERS)[number] | (string & {});

/** Job provider enumeration: the email and SMS providers, then the push, in-app and chat ones. */
export const JOB_PROVIDERS = [
  "emailjs", "mailgun", "mailjet", "mandrill", "nodemailer", "postmark", "sendgrid", "sendinblue", "ses", "netcore",
  "infobip-email", "resend", "plunk", "mailersend", "mailtrap", "clickatell", "outlook365", "platform-email",
  "sparkpost", "email-webhook", "braze", "nexmo", "plivo", "sms77", "sms-central", "sns", "telnyx", "twilio",
  "gupshup", "firetext", "infobip-sms", "burst-sms", "bulk-sms", "isend-sms", "forty-six-elks", "kannel", "maqsam",
  "termii", "africas-talking", "platform-sms", "sendchamp", "generic-sms", "clicksend", "bandwidth", "messagebird",
  "simpletexting", "azure-sms", "ring-central", "brevo-sms", "eazy-sms", "mobishastra", "afro-message", "unifonic",
  "smsmode", "imedia", "sinch", "isendpro-sms", ...PUSH_PROVIDERS, "platform", ...CHAT_PROVIDERS,
] as const;
/** A job's provider as the service returns it (open: production spells its own `<service>-...`). */
export const JobProviderId = openEnum(JOB_PROVIDERS);

/** StepFilter `type` values. */
export const FILTER_TYPES = ["BOOLEAN", "TEXT", "DATE", "NUMBER", "STATEMENT", "LIST", "MULTI_LIST", "GROUP"] as const;
/** FieldFilterPart `operator` values. */
export const FILTER_OPERATORS = [
  "LARGER", "SMALLER", "LARGER_EQUAL", "SMALLER_EQUAL", "EQUAL", "NOT_EQUAL", "ALL_IN", "ANY_IN", "NOT_IN",
  "BETWEEN", "NOT_BETWEEN", "LIKE", "NOT_LIKE", "IN",
] as const;

/** One condition on a field of the subscriber or the payload. */
export const FieldFilterPart = z.object({
  field: z.string().describe("The field's name."),
  value: z.string().describe("The value compared with."),
  operator: z.enum(FILTER_OPERATORS).meta({ id: "FieldFilterOperator", description: "A comparison operator of a condition." }).describe("The comparison."),
  on: z.enum(["subscriber", "payload"]).meta({ id: "FieldFilterSource", description: "Where a condition reads its field." }).describe("Where the field is read: `subscriber` or `payload`."),
}).meta({ id: "FieldFilterPart", description: "One condition on a field of the subscriber or of the trigger payload." });
export type FieldFilterPart = z.infer<typeof FieldFilterPart>;

/** A group of conditions joined by AND or OR. */
export const StepFilter = z.object({
  isNegated: z.boolean().describe("Negates the whole group."),
  type: z.enum(FILTER_TYPES).meta({ id: "StepFilterType", description: "The kind of value a condition group compares." }).describe("The kind of value compared."),
  value: z.enum(["AND", "OR"]).meta({ id: "StepFilterJoin", description: "How the conditions of a group are joined." }).describe("How the conditions are joined: `AND` or `OR`."),
  children: z.array(FieldFilterPart).describe("The conditions."),
}).meta({ id: "StepFilter", description: "A group of conditions joined by AND or OR." });
export type StepFilter = z.infer<typeof StepFilter>;

/** Filters of integration conditions and steps as the service returns them (open). */
export const StepFilterRead = z.looseObject({
  isNegated: z.boolean().optional(),
  type: openEnum(FILTER_TYPES).optional(),
  value: openEnum(["AND", "OR"]).optional(),
  children: z.array(z.looseObject({ field: z.string().optional(), value: z.unknown().optional(), operator: openEnum(FILTER_OPERATORS).optional(), on: openEnum(["subscriber", "payload"]).optional() })).optional(),
});

/** A user reference on workflows. */
export const User = z.looseObject({
  _id: z.string(),
  firstName: z.string().nullable().optional(),
  lastName: z.string().nullable().optional(),
  externalId: z.string().nullable().optional(),
});

/** A `type:id` context key. */
export const ContextKey = z.string().regex(/^[^:\s]+:[^:\s]+$/, { error: "must have the form type:id" });

/** An ISO 8601 timestamp string. */
export const Timestamp = z.string();

/**
 * The service's slug rule for workflow and step ids: letters and digits, with `-`, `_` or `.` only
 * between them (`SLUG_IDENTIFIER_REGEX` of the service's shared package; the contract prints its
 * name as the pattern).
 */
export const SLUG_IDENTIFIER = /^[a-zA-Z0-9]+(?:[-_.][a-zA-Z0-9]+)*$/;
/** The check message for a value that is not a slug. */
export const SLUG_MESSAGE = "must be a slug: letters and digits, with -, _ or . only between them";

/** Strings we send must not carry control characters and must stay a sane size. */
export const SafeString = (max = 1024) =>
  z.string().max(max, { error: `must be at most ${max} characters` })
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, { error: "must not contain control characters" });

/** A URL (http or https), a path starting with `/`, or a `{{variable}}` reference. */
export const UrlLike = z.string().refine(
  (v) => v.startsWith("/") || /^\{\{.+\}\}$/.test(v.trim()) || isHttpUrl(v),
  { error: "must be a valid http(s) URL, a path starting with /, or a {{variable}} reference" },
);

/** True for an absolute http or https URL. */
export function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** An absolute http(s) URL. */
export const HttpUrl = z.string().refine(isHttpUrl, { error: "must be a valid http(s) URL" });

/** Free-form JSON object. */
export const JsonObject = z.record(z.string(), z.unknown());
