/**
 * fast-check arbitraries of every input of the three resources, valid by construction: each step
 * kind with its control values, conditions, preferences, credentials, payload schemas, unicode and
 * edge lengths. Identifiers carry a per-run suffix so runs never meet each other's objects.
 */
import fc from "fast-check";
import type { TestEmulator } from "../../helpers/emulator";

type Obj = Record<string, unknown>;

/** Text without control characters (the inputs refuse them), unicode included, up to `max`. */
export const text = (min: number, max: number) =>
  fc.string({ unit: "grapheme", minLength: min, maxLength: max }).filter((s) => !/[\u0000-\u001f\u007f]/.test(s) && s.length <= max && s.length >= min);

const slugPart = fc.stringMatching(/^[a-z0-9]{1,8}$/);
/** A slug by the service's rule: segments joined by `-`, `_` or `.`. */
export const slug = fc.array(slugPart, { minLength: 1, maxLength: 3 }).chain((parts) =>
  fc.array(fc.constantFrom("-", "_", "."), { minLength: parts.length - 1, maxLength: parts.length - 1 })
    .map((seps) => parts.map((p, i) => (i ? seps[i - 1]! + p : p)).join("")));

const jsonLeaf = fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean());
const jsonObject: fc.Arbitrary<Obj> = fc.dictionary(fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9]{0,6}$/), fc.oneof(jsonLeaf, fc.dictionary(fc.stringMatching(/^[a-z]{1,5}$/), jsonLeaf, { maxKeys: 3 })), { maxKeys: 4 });

const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

// ---------------------------------------------------------------- Integration

const PROVIDERS: [string, string][] = [["sendgrid", "email"], ["mailgun", "email"], ["twilio", "sms"], ["slack", "chat"], ["discord", "chat"], ["fcm", "push"], ["apns", "push"]];

const fieldFilter = fc.record({
  field: fc.stringMatching(/^[a-z]{1,8}$/), value: fc.string({ maxLength: 12 }),
  operator: fc.constantFrom("LARGER", "SMALLER", "EQUAL", "NOT_EQUAL", "IN", "LIKE", "BETWEEN"), on: fc.constantFrom("subscriber", "payload"),
});
const stepFilter = fc.record({
  isNegated: fc.boolean(), type: fc.constantFrom("BOOLEAN", "TEXT", "DATE", "NUMBER", "STATEMENT", "LIST", "MULTI_LIST", "GROUP"),
  value: fc.constantFrom("AND", "OR"), children: fc.array(fieldFilter, { maxLength: 3 }),
});
const credentials = fc.record({
  apiKey: opt(fc.string({ minLength: 1, maxLength: 40 })), from: opt(fc.emailAddress()), senderName: opt(text(1, 30)),
  region: opt(fc.constantFrom("us-east-1", "eu-west-1")), secure: opt(fc.boolean()), port: opt(fc.integer({ min: 1, max: 65535 }).map(String)),
}, { requiredKeys: [] });

/** Integration inputs; `suffix` makes the identifier unique to the run. */
export const integrationInputs = (suffix: string) => fc.constantFrom(...PROVIDERS).chain(([providerId, channel]) => fc.record({
  identifier: slug.map((s) => `${s}-${suffix}`),
  name: opt(text(1, 200)),
  providerId: fc.constant(providerId),
  channel: fc.constant(channel),
  // Only delivery: an agent integration of a delivery provider is not known to be accepted by production.
  kind: opt(fc.constant("delivery")),
  credentials: opt(credentials),
  active: opt(fc.boolean()),
  primary: opt(fc.constant(true)),
  conditions: opt(fc.array(stepFilter, { maxLength: 2 })),
  configurations: opt(fc.record({ inboundWebhookEnabled: opt(fc.boolean()), inboundWebhookSigningKey: opt(fc.string({ minLength: 1, maxLength: 20 })) }, { requiredKeys: [] })),
  check: opt(fc.boolean()),
  // The API key's own environment, declared (only that one can be changed and deleted with its key).
  environmentId: opt(fc.constant("env_env0")),
}, { requiredKeys: ["identifier", "providerId", "channel"] }))
  // A primary integration is always active (check refuses active: false with primary: true).
  .map((i) => (i.primary && i.active === false ? { ...i, active: true } : i))
  .map(strip);

// ---------------------------------------------------------------- Workflow

const redirect = fc.record({ url: fc.constantFrom("/inbox", "https://example.com/a", "{{payload.url}}"), target: opt(fc.constantFrom("_self", "_blank")) }, { requiredKeys: ["url"] });
const action = fc.record({ label: opt(text(1, 20)), redirect: opt(redirect) }, { requiredKeys: [] });
const timeUnit = fc.constantFrom("seconds", "minutes", "hours", "days", "weeks", "months");

/** Control values of each step kind, as a program may declare them. */
export const CONTROLS: Record<string, fc.Arbitrary<Obj>> = {
  in_app: fc.record({ body: text(1, 60), subject: opt(text(1, 30)), avatar: opt(fc.constant("https://example.com/a.png")), primaryAction: opt(action), redirect: opt(redirect), data: opt(jsonObject) }, { requiredKeys: ["body"] }),
  email: fc.record({
    subject: text(1, 60), body: text(0, 200), editorType: opt(fc.constantFrom("block", "html")), disableOutputSanitization: opt(fc.boolean()),
    from: opt(fc.record({ email: opt(fc.emailAddress()), name: opt(text(1, 20)) }, { requiredKeys: [] })), replyTo: opt(fc.emailAddress()),
    preheader: opt(text(0, 40)), useProviderDefaults: opt(fc.boolean()),
  }, { requiredKeys: ["subject", "body"] }),
  sms: fc.record({ body: opt(text(0, 60)) }, { requiredKeys: [] }),
  push: fc.record({ subject: opt(text(0, 30)), body: opt(text(0, 60)) }, { requiredKeys: [] }),
  chat: fc.record({ body: opt(text(0, 60)), editorType: opt(fc.constantFrom("block", "text")) }, { requiredKeys: [] }),
  delay: fc.record({ type: opt(fc.constantFrom("regular", "timed")), amount: opt(fc.integer({ min: 1, max: 100 })), unit: opt(timeUnit) }, { requiredKeys: [] }),
  digest: fc.record({ type: opt(fc.constantFrom("regular", "timed")), amount: opt(fc.integer({ min: 1, max: 100 })), unit: opt(timeUnit), digestKey: opt(fc.constant("{{payload.k}}")) }, { requiredKeys: [] }),
  throttle: fc.record({ type: fc.constantFrom("fixed", "dynamic"), amount: opt(fc.integer({ min: 1, max: 100 })), unit: opt(fc.constantFrom("minutes", "hours", "days")), threshold: opt(fc.integer({ min: 1, max: 10 })), throttleKey: opt(fc.string({ maxLength: 10 })) }, { requiredKeys: ["type"] }),
  custom: fc.record({ data: opt(jsonObject) }, { requiredKeys: [] }),
  http_request: fc.record({
    method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE"), url: fc.constantFrom("https://hooks.example.com/x", "https://api.example.com/v1/notify"),
    headers: opt(fc.array(fc.record({ key: fc.stringMatching(/^x-[a-z]{1,6}$/), value: fc.string({ maxLength: 10 }) }), { maxLength: 2 })),
    body: opt(fc.oneof(fc.constant("{}"), fc.array(fc.record({ key: fc.stringMatching(/^[a-z]{1,6}$/), value: fc.string({ maxLength: 10 }) }), { maxLength: 2 }))),
    continueOnFailure: opt(fc.boolean()), enforceSchemaValidation: opt(fc.boolean()),
  }, { requiredKeys: ["method", "url"] }),
};

const step = fc.constantFrom(...Object.keys(CONTROLS)).chain((type) => fc.record({
  name: text(1, 40), type: fc.constant(type), stepId: opt(slug), controlValues: CONTROLS[type]!.map(strip),
}, { requiredKeys: ["name", "type", "controlValues"] }));

const preferenceBlock = fc.record({
  all: fc.record({ enabled: fc.boolean(), readOnly: fc.boolean() }),
  channels: fc.record({ email: opt(fc.record({ enabled: fc.boolean() })), sms: opt(fc.record({ enabled: fc.boolean() })), in_app: opt(fc.record({ enabled: fc.boolean() })) }, { requiredKeys: [] }),
});

/** Workflow inputs; step ids unique within the workflow. */
export const workflowInputs = (suffix: string) => fc.record({
  workflowId: slug.map((s) => `${s}-${suffix}`),
  name: text(1, 200),
  description: opt(text(0, 200)),
  tags: opt(fc.uniqueArray(text(1, 20), { maxLength: 4 })),
  active: opt(fc.boolean()),
  validatePayload: opt(fc.boolean()),
  payloadSchema: opt(fc.record({ type: fc.constant("object"), properties: opt(fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.record({ type: fc.constantFrom("string", "number") }), { maxKeys: 3 })) }, { requiredKeys: ["type"] })),
  isTranslationEnabled: opt(fc.boolean()),
  severity: opt(fc.constantFrom("high", "medium", "low", "none")),
  preferences: opt(fc.record({ user: opt(fc.option(preferenceBlock, { nil: null })), workflow: opt(preferenceBlock) }, { requiredKeys: [] })),
  steps: fc.uniqueArray(step, { minLength: 1, maxLength: 4, selector: (s) => s.stepId ?? Symbol() }),
}, { requiredKeys: ["workflowId", "name", "steps"] }).map(strip);

// ---------------------------------------------------------------- SubscriberCredentials

/** The providers credentials are generated for, each with an active integration `int-<provider>`. */
export const CREDENTIAL_PROVIDERS = ["slack", "discord", "msteams", "fcm", "apns", "expo"] as const;
const PUSH_PROVIDERS: readonly string[] = ["fcm", "apns", "expo"];

/** Creates the active integration `int-<provider>` of each of {@link CREDENTIAL_PROVIDERS}, which credentials need. */
export async function createCredentialIntegrations(emu: TestEmulator): Promise<void> {
  for (const providerId of CREDENTIAL_PROVIDERS) {
    const channel = PUSH_PROVIDERS.includes(providerId) ? "push" : "chat";
    const r = await emu.api("POST", "/v1/integrations", { identifier: `int-${providerId}`, providerId, channel, active: true });
    if (r.status !== 201) throw new Error(`creating int-${providerId}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/** SubscriberCredentials inputs of the run's own subscriber `s-<suffix>` (the test creates it). */
export const credentialsInputs = (suffix: string) => fc.constantFrom(...CREDENTIAL_PROVIDERS).chain((providerId) => fc.record({
  subscriberId: fc.constant(`s-${suffix}`),
  providerId: fc.constant(providerId),
  integrationIdentifier: fc.constant(`int-${providerId}`),
  credentials: PUSH_PROVIDERS.includes(providerId)
    ? fc.record({ deviceTokens: fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9:_-]{1,40}$/), { minLength: 1, maxLength: 4 }) })
    : fc.record({
      webhookUrl: fc.constantFrom("https://hooks.example.com/a", "https://hooks.example.com/services/é/ü"), channel: opt(fc.stringMatching(/^[a-z]{1,10}$/)),
      // Production drops these; they must never show as drift.
      title: opt(text(1, 20)), alertUid: opt(fc.string({ minLength: 1, maxLength: 10 })),
    }, { requiredKeys: ["webhookUrl"] }),
})).map(strip);

// ---------------------------------------------------------------- Environment, EnvironmentVariable

const hexColor = fc.tuple(fc.constantFrom(3, 6), fc.boolean()).chain(([n, hash]) =>
  fc.stringMatching(n === 3 ? /^[0-9a-fA-F]{3}$/ : /^[0-9a-fA-F]{6}$/).map((h) => (hash ? `#${h}` : `#${h.toLowerCase()}`)));

/** Environment inputs: a name unique to the run (never Development or Production), a colour, the first key's environment as parent. */
export const environmentInputs = (suffix: string) => fc.record({
  name: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 _-]{0,20}$/).map((n) => `${n}-${suffix}`),
  color: hexColor,
  parentId: opt(fc.constant("env_env0")),
}, { requiredKeys: ["name", "color"] }).map(strip);

/** EnvironmentVariable inputs: values of the API key's own environment only (an API key may write no other). */
export const environmentVariableInputs = (suffix: string) => fc.record({
  key: fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,12}$/).map((k) => `${k}_${suffix}`),
  type: opt(fc.constant("string")),
  isSecret: opt(fc.boolean()),
  values: opt(fc.record({ env_env0: text(1, 60) })),
}, { requiredKeys: ["key"] }).map(strip);

// ---------------------------------------------------------------- Layout

/** A layout body of each editor, valid by the service's checks: a whole HTML document or a block document, each with the content variable. */
const layoutEmail = fc.oneof(
  text(0, 40).map((t) => ({ editorType: "html", body: `<html><head></head><body><p>${t.replace(/[<>{}]/g, "")}</p>{{ content }}</body></html>` })),
  text(0, 40).map((t) => ({
    editorType: "block",
    body: JSON.stringify({ type: "doc", content: [
      { type: "paragraph", content: t ? [{ type: "text", text: t }] : [] },
      { type: "paragraph", content: [{ type: "variable", attrs: { id: "content", label: null, fallback: null, required: false } }] },
    ] }),
  })),
);

/** Layout inputs; `suffix` makes the layoutId unique to the run. */
export const layoutInputs = (suffix: string) => fc.record({
  layoutId: slug.map((s) => `${s}-${suffix}`),
  name: text(1, 128),
  isTranslationEnabled: opt(fc.boolean()),
  controlValues: opt(fc.oneof(fc.record({ email: layoutEmail }), fc.constant({}))),
}, { requiredKeys: ["layoutId", "name"] }).map(strip);

// ---------------------------------------------------------------- Topic

/** The subscribers topics are generated with; {@link createTopicSubscribers} makes them. */
export const TOPIC_SUBSCRIBERS = ["ts-alice", "ts-bob", "ts-carol", "ts-dave", "ts-émile"] as const;

/** Creates the subscribers of {@link TOPIC_SUBSCRIBERS} (an upsert: repeating it is harmless). */
export async function createTopicSubscribers(emu: TestEmulator): Promise<void> {
  for (const subscriberId of TOPIC_SUBSCRIBERS) await emu.api("POST", "/v2/subscribers", { subscriberId });
}

/** Topic inputs; subscribers in any order (a set); `suffix` makes the key unique to the run. */
export const topicInputs = (suffix: string) => fc.record({
  key: fc.tuple(slug, fc.constantFrom(":", "-", "_")).map(([s, sep]) => `${s}${sep}${suffix}`),
  name: opt(text(1, 100)),
  subscribers: opt(fc.shuffledSubarray([...TOPIC_SUBSCRIBERS])),
}, { requiredKeys: ["key"] }).map(strip);

// ---------------------------------------------------------------- Context

const contextPart = fc.stringMatching(/^[a-zA-Z0-9_-]{1,12}$/);

/** A context: type and id by the service's rule (the id carries the run's suffix), data a JSON object or none. */
export const contextInputs = (suffix: string) => fc.record({
  type: contextPart,
  contextId: contextPart.map((s) => `${s}-${suffix}`),
  data: opt(jsonObject),
}, { requiredKeys: ["type", "contextId"] }).map(strip);

// ---------------------------------------------------------------- Translation

/** The workflow a translation of `translationInputs(suffix)` belongs to; {@link createTranslationTarget} makes it. */
export const translationTarget = (suffix: string) => `tr-${suffix}`;

/** Creates the workflow translations are generated for (a 409 for one that exists is ignored). */
export async function createTranslationTarget(emu: TestEmulator, workflowId: string): Promise<void> {
  await emu.api("POST", "/v2/workflows", { workflowId, name: "Translated", isTranslationEnabled: true, steps: [{ name: "Inbox", type: "in_app", controlValues: { body: "{{t.hello}}" } }] });
}

/** A translation of the suffix's workflow: a locale by the service's rule and content a JSON object. */
export const translationInputs = (suffix: string) => fc.record({
  resourceType: fc.constant("workflow" as const),
  resourceId: fc.constant(translationTarget(suffix)),
  locale: fc.constantFrom("en_US", "fr_FR", "de_DE", "pt_BR", "zh_Hans_CN", "es"),
  content: jsonObject,
}).map(strip);

// ---------------------------------------------------------------- Domain

const domainData = fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/), fc.string({ maxLength: 20 }), { maxKeys: 4 });
const routeAddress = fc.oneof(fc.constant("*"), fc.stringMatching(/^[a-z0-9][a-z0-9+_-]{0,10}$/));
/**
 * An address as a program may write it: as the service stores it, or padded and in mixed case
 * (the service trims and lower-cases it, so these must read back as no change).
 */
const spelling = (address: string) => fc.oneof(fc.constant(address), fc.record({
  upper: fc.array(fc.boolean(), { minLength: address.length, maxLength: address.length }),
  left: fc.constantFrom("", " ", "  "),
  right: fc.constantFrom("", " "),
}).map(({ upper, left, right }) => `${left}${[...address].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch)).join("")}${right}`));
const route = fc.record({ type: fc.constant("webhook" as const), data: opt(domainData) }).map(strip);
/** Up to three routes, each address once as the service sees it (distinct before it is spelt). */
const routes = fc.uniqueArray(routeAddress, { maxLength: 3 })
  .chain((addresses) => fc.tuple(...addresses.map((a) => fc.tuple(spelling(a), route))))
  .map((entries) => Object.fromEntries(entries));

/** A domain under the suffix (names are claimed once on the service), with data and webhook routes or none. */
export const domainInputs = (suffix: string) => fc.record({
  name: fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/).map((s) => `${s}.${suffix.toLowerCase()}.example.com`),
  data: opt(domainData),
  routes: opt(routes),
}, { requiredKeys: ["name"] }).map(strip);

/** Removes keys whose value is `undefined`, recursively. */
export function strip<T>(v: T): T {
  if (Array.isArray(v)) return v.map(strip) as T;
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, strip(x)])) as T;
  return v;
}
