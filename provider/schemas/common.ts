/**
 * Enumerations and small shapes shared by several resources of the notification service API
 * (spec/api.md). Response schemas are loose (unknown fields are kept); request schemas are strict.
 */
import { z } from "zod";

/** The five delivery channels. */
export const CHANNELS = ["in_app", "email", "sms", "chat", "push"] as const;
/** A delivery channel. */
export const Channel = z.enum(CHANNELS);
export type Channel = z.infer<typeof Channel>;

/** Every step type a workflow may hold, plus `trigger` as listed in step type overviews. */
export const STEP_TYPES = ["in_app", "email", "sms", "chat", "push", "digest", "trigger", "delay", "throttle", "custom"] as const;
/** A step type. */
export const StepType = z.enum(STEP_TYPES);
export type StepType = z.infer<typeof StepType>;

/** The step kinds a workflow can be created or updated with (no `trigger`). */
export const WORKFLOW_STEP_KINDS = ["in_app", "email", "sms", "chat", "push", "digest", "delay", "throttle", "custom"] as const;
export const WorkflowStepKind = z.enum(WORKFLOW_STEP_KINDS);
export type WorkflowStepKind = z.infer<typeof WorkflowStepKind>;

/** Workflow origins. */
export const ORIGINS = ["platform-cloud", "platform-cloud-v1", "external"] as const;
export const Origin = z.enum(ORIGINS);

/** Workflow statuses. */
export const WORKFLOW_STATUSES = ["ACTIVE", "INACTIVE", "ERROR"] as const;
export const WorkflowStatus = z.enum(WORKFLOW_STATUSES);

/** Severity levels. */
export const SEVERITIES = ["high", "medium", "low", "none"] as const;
export const Severity = z.enum(SEVERITIES);

/** Time units of digests and delays. */
export const TIME_UNITS = ["seconds", "minutes", "hours", "days", "weeks", "months"] as const;
export const TimeUnit = z.enum(TIME_UNITS);

/** Order directions of list operations. */
export const OrderDirection = z.enum(["ASC", "DESC"]);

/** Subscriber provider enumeration (20 values). */
export const SUBSCRIBER_PROVIDERS = [
  "slack", "discord", "msteams", "mattermost", "ryver", "zulip", "grafana-on-call", "getstream", "rocket-chat",
  "whatsapp-business", "chat-webhook", "platform-slack", "fcm", "apns", "expo", "one-signal", "pushpad",
  "push-webhook", "pusher-beams", "appio",
] as const;
export const SubscriberProviderId = z.enum(SUBSCRIBER_PROVIDERS);
export type SubscriberProviderId = z.infer<typeof SubscriberProviderId>;

/** Job provider enumeration. */
export const JOB_PROVIDERS = [
  "emailjs", "mailgun", "mailjet", "mandrill", "nodemailer", "postmark", "sendgrid", "sendinblue", "ses", "netcore",
  "infobip-email", "resend", "plunk", "mailersend", "mailtrap", "clickatell", "outlook365", "platform-email",
  "sparkpost", "email-webhook", "braze", "nexmo", "plivo", "sms77", "sms-central", "sns", "telnyx", "twilio",
  "gupshup", "firetext", "infobip-sms", "burst-sms", "bulk-sms", "isend-sms", "forty-six-elks", "kannel", "maqsam",
  "termii", "africas-talking", "platform-sms", "sendchamp", "generic-sms", "clicksend", "bandwidth", "messagebird",
  "simpletexting", "azure-sms", "ring-central", "brevo-sms", "eazy-sms", "mobishastra", "afro-message", "unifonic",
  "smsmode", "imedia", "sinch", "isendpro-sms", "fcm", "apns", "expo", "one-signal", "pushpad", "push-webhook",
  "pusher-beams", "appio", "platform", "slack", "discord", "msteams", "mattermost", "ryver", "zulip",
  "grafana-on-call", "getstream", "rocket-chat", "whatsapp-business", "chat-webhook", "platform-slack",
] as const;
export const JobProviderId = z.enum(JOB_PROVIDERS);

/** StepFilter `type` values. */
export const FILTER_TYPES = ["BOOLEAN", "TEXT", "DATE", "NUMBER", "STATEMENT", "LIST", "MULTI_LIST", "GROUP"] as const;
/** FieldFilterPart `operator` values. */
export const FILTER_OPERATORS = [
  "LARGER", "SMALLER", "LARGER_EQUAL", "SMALLER_EQUAL", "EQUAL", "NOT_EQUAL", "ALL_IN", "ANY_IN", "NOT_IN",
  "BETWEEN", "NOT_BETWEEN", "LIKE", "NOT_LIKE", "IN",
] as const;

/** One condition on a field of the subscriber or the payload. */
export const FieldFilterPart = z.object({
  field: z.string(),
  value: z.string(),
  operator: z.enum(FILTER_OPERATORS),
  on: z.enum(["subscriber", "payload"]),
});
export type FieldFilterPart = z.infer<typeof FieldFilterPart>;

/** A group of conditions joined by AND or OR. */
export const StepFilter = z.object({
  isNegated: z.boolean(),
  type: z.enum(FILTER_TYPES),
  value: z.enum(["AND", "OR"]),
  children: z.array(FieldFilterPart),
});
export type StepFilter = z.infer<typeof StepFilter>;

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
