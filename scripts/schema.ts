/**
 * `npm run schema`: writes schema.json, the Pulumi package schema of pulumi-notify, from the zod
 * schemas the provider checks inputs with (properties, types, required, enumerations), the
 * secret keys the resources declare, and the TSDoc of the resource and function declarations
 * (descriptions). test/unit/schema.test.ts compares the committed file with the zod schemas.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { z } from "zod";
import { FUNCTION_ARGS } from "../provider/functions";
import { INTEGRATION_SECRET_KEYS, IntegrationInputs } from "../provider/resources/integration";
import { SUBSCRIBER_CREDENTIALS_SECRET_KEYS, SubscriberCredentialsInputs } from "../provider/resources/subscriberCredentials";
import { WORKFLOW_SECRET_KEYS, WorkflowInputs } from "../provider/resources/workflow";
import { Event, Integration, Message, Subscriber, WorkflowListItem } from "../provider/schemas";
import { REPO_ROOT } from "./workspace";

type Json = Record<string, any>;
/** A Pulumi schema property or type reference. */
type Spec = Json;

const PKG = "notify";
const tok = (name: string) => `${PKG}:index:${name}`;
const ANY: Spec = { $ref: "pulumi.json#/Any" };

/** The input schema of each resource (zod), with its secret keys and the TS names its docs live under. */
const RESOURCES = [
  { name: "Integration", inputs: IntegrationInputs, secret: INTEGRATION_SECRET_KEYS as readonly string[], args: "IntegrationArgs" },
  { name: "Workflow", inputs: WorkflowInputs, secret: WORKFLOW_SECRET_KEYS as readonly string[], args: "WorkflowArgs" },
  { name: "SubscriberCredentials", inputs: SubscriberCredentialsInputs, secret: SUBSCRIBER_CREDENTIALS_SECRET_KEYS as readonly string[], args: "SubscriberCredentialsArgs" },
];

/** Each function's result, as zod shapes of what the service returns. */
const IntegrationSummary = Integration.omit({ credentials: true });
const FUNCTION_RESULTS: Record<keyof typeof FUNCTION_ARGS, z.ZodType> = {
  getSubscriber: Subscriber,
  getSubscribers: z.object({ subscribers: z.array(Subscriber), totalCount: z.number(), totalCountCapped: z.boolean() }),
  getMessages: z.object({ messages: z.array(Message) }),
  getEvents: z.object({ events: z.array(Event) }),
  getEvent: Event,
  getIntegrations: z.object({ integrations: z.array(IntegrationSummary) }),
  getWorkflows: z.object({ workflows: z.array(WorkflowListItem) }),
};

/** Names of nested types, by `Parent.property` (array items take the property's name too). */
const TYPE_NAMES: Record<string, string> = {
  "Integration.credentials": "IntegrationCredentials",
  "Integration.configurations": "IntegrationConfigurations",
  "Integration.conditions": "StepFilter",
  "StepFilter.children": "FieldFilterPart",
  "Integration.channel": "Channel",
  "StepFilter.type": "StepFilterType",
  "StepFilter.value": "StepFilterJoin",
  "FieldFilterPart.operator": "FieldFilterOperator",
  "FieldFilterPart.on": "FieldFilterSource",
  "Workflow.steps": "WorkflowStep",
  "WorkflowStep.type": "WorkflowStepKind",
  "Workflow.severity": "Severity",
  "Workflow.preferences": "WorkflowPreferences",
  "WorkflowPreferences.user": "PreferenceBlock",
  "WorkflowPreferences.workflow": "PreferenceBlock",
  "PreferenceBlock.all": "PreferenceAll",
  "PreferenceBlock.channels": "ChannelPreferences",
  "ChannelPreferences.email": "ChannelPreference",
  "ChannelPreferences.sms": "ChannelPreference",
  "ChannelPreferences.in_app": "ChannelPreference",
  "ChannelPreferences.chat": "ChannelPreference",
  "ChannelPreferences.push": "ChannelPreference",
  "SubscriberCredentials.credentials": "ChannelCredentials",
  "GetMessages.channel": "Channel",
  "GetIntegrations.channel": "Channel",
  "GetEvents.channels": "ChannelType",
  "GetEvents.severity": "Severity",
  "GetSubscribers.orderDirection": "OrderDirection",
  "GetWorkflows.orderDirection": "OrderDirection",
  "GetWorkflows.status": "WorkflowStatus",
  "GetSubscribersResult.subscribers": "Subscriber",
  "GetMessagesResult.messages": "Message",
  "GetEventsResult.events": "Event",
  "GetIntegrationsResult.integrations": "IntegrationSummary",
  "GetWorkflowsResult.workflows": "WorkflowSummary",
};

/** Descriptions of nested types and of their properties that TSDoc does not give. */
const DOCS: Record<string, string> = {
  IntegrationCredentials: "Credentials of an integration's provider. Which keys a provider uses depends on the provider (for example `apiKey` and `from` for SendGrid, `accountSid`, `token` and `from` for Twilio). Unknown keys are refused.",
  "IntegrationCredentials.tlsOptions": "TLS options of SMTP-style providers, passed through to the service.",
  IntegrationConfigurations: "Inbound webhook settings of an integration.",
  "IntegrationConfigurations.inboundWebhookEnabled": "Whether the provider's delivery events are received by the service.",
  "IntegrationConfigurations.inboundWebhookSigningKey": "The key the provider signs its webhooks with.",
  StepFilter: "A group of conditions joined by AND or OR.",
  "StepFilter.isNegated": "Negates the whole group.",
  "StepFilter.type": "The kind of value compared.",
  "StepFilter.value": "How the conditions are joined: `AND` or `OR`.",
  "StepFilter.children": "The conditions.",
  FieldFilterPart: "One condition on a field of the subscriber or of the trigger payload.",
  "FieldFilterPart.field": "The field's name.",
  "FieldFilterPart.value": "The value compared with.",
  "FieldFilterPart.operator": "The comparison.",
  "FieldFilterPart.on": "Where the field is read: `subscriber` or `payload`.",
  Channel: "A delivery channel.",
  ChannelType: "A channel type: the five delivery channels and `tool` (not step types such as `digest`).",
  StepFilterType: "The kind of value a condition group compares.",
  StepFilterJoin: "How the conditions of a group are joined.",
  FieldFilterOperator: "A comparison operator of a condition.",
  FieldFilterSource: "Where a condition reads its field.",
  WorkflowStep: "One step of a workflow, in order.",
  WorkflowStepKind: "The kind of a workflow step.",
  Severity: "A severity level.",
  WorkflowPreferences: "Default and per-channel preferences of a workflow.",
  "WorkflowPreferences.user": "The preferences subscribers start with (null clears them).",
  "WorkflowPreferences.workflow": "The workflow's own preferences (null clears them).",
  PreferenceBlock: "One preferences block: all channels, then per channel.",
  "PreferenceBlock.all": "The setting of every channel.",
  "PreferenceBlock.channels": "Per-channel settings.",
  PreferenceAll: "The setting of every channel.",
  "PreferenceAll.enabled": "Whether the workflow delivers at all.",
  "PreferenceAll.readOnly": "Whether subscribers may change their preferences.",
  ChannelPreferences: "Per-channel settings.",
  "ChannelPreferences.email": "The email channel.",
  "ChannelPreferences.sms": "The SMS channel.",
  "ChannelPreferences.in_app": "The in-app channel.",
  "ChannelPreferences.chat": "The chat channel.",
  "ChannelPreferences.push": "The push channel.",
  ChannelPreference: "The setting of one channel.",
  "ChannelPreference.enabled": "Whether the channel delivers.",
  ChannelCredentials: "A subscriber's credentials for one chat or push provider. Unknown keys are refused.",
  "ChannelCredentials.webhookUrl": "Webhook URL (Slack, Discord, Teams, ...), an http(s) URL.",
  "ChannelCredentials.channel": "Channel name or id.",
  "ChannelCredentials.deviceTokens": "Push device tokens (at most 1,000).",
  "ChannelCredentials.alertUid": "Grafana OnCall alert id (production does not store it; see SubscriberCredentials).",
  "ChannelCredentials.title": "Grafana OnCall title.",
  "ChannelCredentials.imageUrl": "Grafana OnCall image, an http(s) URL.",
  "ChannelCredentials.state": "Grafana OnCall state.",
  "ChannelCredentials.externalUrl": "Grafana OnCall link, an http(s) URL.",
  OrderDirection: "Sort order.",
  WorkflowStatus: "A workflow's status.",
  Subscriber: "A subscriber of the environment, as the service returns it.",
  Message: "A message sent (or being sent) to a subscriber on one channel.",
  Event: "A triggered event (a notification) with its jobs and their execution details.",
  IntegrationSummary: "An integration as listed, without its credentials.",
  WorkflowSummary: "A workflow as listed: its ids, status and step overview.",
  WorkflowStepOutput: "A step of a workflow as the service holds it: the declared step plus its ids.",
  "WorkflowStepOutput.databaseId": "The step's database id (`_id`).",
  "WorkflowStepOutput.stepId": "The step's id (a slug), given or generated from the name.",
};

/** Input types whose property docs are the TSDoc of an interface of another name. */
const TS_DOC_SOURCES: Record<string, string> = { WorkflowStep: "WorkflowStepArgs" };

/** Title-cases `in_app` → `InApp`, `platform-cloud` → `PlatformCloud`. */
const pascal = (s: string) => s.replace(/(^|[^a-zA-Z0-9]+)([a-zA-Z0-9])/g, (_m, _p, c: string) => c.toUpperCase());

/** The provider's source files that hold the resource and function declarations, parsed once each. */
const sources = new Map<string, ts.SourceFile>();
function source(rel: string): ts.SourceFile {
  let src = sources.get(rel);
  if (!src) {
    const file = path.join(REPO_ROOT, "provider", rel);
    src = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
    sources.set(rel, src);
  }
  return src;
}
const resourceFile = (cls: string) => `resources/${cls[0]!.toLowerCase()}${cls.slice(1)}.ts`;

/** TSDoc of the declarations in the provider's source: `Name` and `Name.member`. */
function collectDocs(): Map<string, string> {
  const docs = new Map<string, string>();
  const docOf = (n: ts.Node): string | undefined => {
    const j = (n as { jsDoc?: ts.JSDoc[] }).jsDoc?.at(-1);
    const text = j ? ts.getTextOfJSDocComment(j.comment) : undefined;
    return text?.replace(/\{@link ([^}]+)\}/g, "`$1`").replace(/\s*\n\s*/g, " ").trim() || undefined;
  };
  for (const rel of [...RESOURCES.map((r) => resourceFile(r.name)), "functions/index.ts"]) {
    source(rel).forEachChild((n) => {
      if ((ts.isInterfaceDeclaration(n) || ts.isClassDeclaration(n) || ts.isFunctionDeclaration(n)) && n.name) {
        const name = n.name.text;
        const d = docOf(n);
        if (d) docs.set(name, d);
        if (ts.isInterfaceDeclaration(n) || ts.isClassDeclaration(n)) {
          for (const m of n.members) {
            if (!m.name || !ts.isIdentifier(m.name)) continue;
            const md = docOf(m);
            if (md) docs.set(`${name}.${m.name.text}`, md);
          }
        }
      }
    });
  }
  return docs;
}

/** The output properties of a resource class: name, TS type text, whether it may be undefined. */
function classOutputs(cls: string): { name: string; type: string; optional: boolean }[] {
  const src = source(resourceFile(cls));
  const out: { name: string; type: string; optional: boolean }[] = [];
  src.forEachChild((n) => {
    if (!ts.isClassDeclaration(n) || n.name?.text !== cls) return;
    for (const m of n.members) {
      if (!ts.isPropertyDeclaration(m) || !m.type || !ts.isIdentifier(m.name)) continue;
      const text = m.type.getText(src).replace(/^pulumi\.Output<(.*)>$/s, "$1");
      out.push({ name: m.name.text, type: text.replace(/\s*\|\s*undefined/, ""), optional: /\|\s*undefined/.test(text) });
    }
  });
  return out;
}

/** Builds the schema. Throws listing every property left without a description. */
export function buildSchema(): Json {
  const docs = collectDocs();
  const types: Record<string, Json> = {};
  const missing: string[] = [];
  const describe = (key: string, ...fallbacks: (string | undefined)[]) => {
    const d = DOCS[key] ?? docs.get(key) ?? fallbacks.find((f) => f);
    if (!d) missing.push(key);
    return d ?? "";
  };

  /** Converts one JSON Schema node (from zod) at `owner.prop` to a Pulumi type spec. */
  const convert = (node: Json, owner: string, prop: string, root: Json, seen: string[], input: boolean): Spec => {
    if (node.$ref) {
      const ref = String(node.$ref);
      if (seen.includes(ref)) return ANY;
      const target = ref === "#" ? root : root.$defs?.[ref.replace("#/$defs/", "")];
      return target ? convert(target, owner, prop, root, [...seen, ref], input) : ANY;
    }
    if (node.anyOf || node.oneOf) {
      const alts = ((node.anyOf ?? node.oneOf) as Json[]).filter((a) => a.type !== "null");
      return alts.length === 1 ? convert(alts[0]!, owner, prop, root, seen, input) : ANY;
    }
    const named = TYPE_NAMES[`${owner}.${prop}`];
    if (node.enum) {
      if (!input && !named) return { type: "string" };
      const name = named ?? `${owner}${pascal(prop)}`;
      define(name, { type: "string", enum: (node.enum as string[]).map((v) => ({ value: v, name: pascal(String(v)) })) });
      return { $ref: `#/types/${tok(name)}` };
    }
    switch (node.type) {
      case "string": return { type: "string" };
      case "boolean": return { type: "boolean" };
      case "integer": return { type: "integer" };
      case "number": return { type: "number" };
      case "array": return { type: "array", items: node.items ? convert(node.items, owner, prop, root, seen, input) : ANY };
      case "object": {
        if (!node.properties || Object.keys(node.properties).length === 0) {
          const ap = node.additionalProperties;
          return { type: "object", additionalProperties: ap && typeof ap === "object" && ap.type ? convert(ap, owner, prop, root, seen, input) : ANY };
        }
        const name = named ?? `${owner}${pascal(prop)}`;
        const props: Record<string, Spec> = {};
        for (const [k, v] of Object.entries(node.properties as Record<string, Json>)) {
          const fallback = name === "IntegrationCredentials" ? `The provider's \`${k}\` setting (see the provider's own setup for which it needs).`
            : input ? docs.get(`${TS_DOC_SOURCES[name] ?? name}.${k}`) : `\`${k}\`, as the service returns it.`;
          props[k] = { ...convert(v, name, k, root, seen, input), description: describe(`${name}.${k}`, fallback) };
        }
        const required = ((node.required ?? []) as string[]).filter((k) => k in props);
        define(name, { type: "object", properties: props, ...(required.length ? { required } : {}) });
        return { $ref: `#/types/${tok(name)}` };
      }
      default: return ANY;
    }
  };
  const define = (name: string, spec: Json) => {
    const full = { description: describe(name, `${name}, as the service returns it.`), ...spec };
    const prev = types[tok(name)];
    if (prev && JSON.stringify(prev) !== JSON.stringify(full)) throw new Error(`type ${name} is defined twice with different shapes`);
    types[tok(name)] = full;
  };
  const jsonSchema = (s: z.ZodType, io: "input" | "output") => z.toJSONSchema(s, { io, unrepresentable: "any", cycles: "ref", reused: "inline" }) as Json;

  const resources: Record<string, Json> = {};
  for (const r of RESOURCES) {
    const root = jsonSchema(r.inputs, "input");
    const inputProperties: Record<string, Spec> = {};
    for (const [k, v] of Object.entries(root.properties as Record<string, Json>)) {
      if (k === "__provider") continue;
      inputProperties[k] = {
        ...convert(v, r.name, k, root, [], true),
        description: describe(`${r.args}.${k}`),
        ...(r.secret.includes(k) ? { secret: true } : {}),
      };
    }
    const requiredInputs = (root.required as string[]).filter((k) => k in inputProperties);
    const properties: Record<string, Spec> = {};
    const required: string[] = [];
    for (const o of classOutputs(r.name)) {
      let spec: Spec;
      if (o.name === "steps") {
        const step = types[tok("WorkflowStep")]!;
        define("WorkflowStepOutput", {
          type: "object",
          properties: {
            ...step.properties,
            stepId: { type: "string", description: describe("WorkflowStepOutput.stepId") },
            databaseId: { type: "string", description: describe("WorkflowStepOutput.databaseId") },
          },
          required: [...new Set([...(step.required ?? []), "stepId", "databaseId"])],
        });
        spec = { type: "array", items: { $ref: `#/types/${tok("WorkflowStepOutput")}` } };
      } else if (inputProperties[o.name]) {
        const { description: _d, secret: _s, ...t } = inputProperties[o.name]!;
        spec = t;
      } else {
        spec = o.type === "string[]" ? { type: "array", items: { type: "string" } }
          : o.type === "boolean" || o.type === "number" || o.type === "string" ? { type: o.type }
          : ANY;
      }
      properties[o.name] = { ...spec, description: describe(`${r.name}.${o.name}`, docs.get(`${r.args}.${o.name}`)), ...(r.secret.includes(o.name) ? { secret: true } : {}) };
      if (!o.optional) required.push(o.name);
    }
    resources[tok(r.name)] = { description: describe(r.name), inputProperties, requiredInputs, properties, required };
  }

  const functions: Record<string, Json> = {};
  for (const [fn, args] of Object.entries(FUNCTION_ARGS) as [keyof typeof FUNCTION_ARGS, z.ZodType][]) {
    const argsName = `${fn[0]!.toUpperCase()}${fn.slice(1)}Args`;
    const root = jsonSchema(args, "input");
    const inputs: Record<string, Spec> = {};
    for (const [k, v] of Object.entries(root.properties as Record<string, Json>)) {
      inputs[k] = { ...convert(v, pascal(fn), k, root, [], true), description: describe(`${argsName}.${k}`) };
    }
    // A function returning one entity shares that entity's type; the others' result objects are not types.
    const res = jsonSchema(FUNCTION_RESULTS[fn], "output");
    const entity = ({ getSubscriber: "Subscriber", getEvent: "Event" } as Record<string, string>)[fn];
    const outRef = convert(res, "", entity ?? `${pascal(fn)}Result`, res, [], false);
    const outToken = String(outRef.$ref).replace("#/types/", "");
    const outType = types[outToken]!;
    if (!entity) delete types[outToken];
    functions[tok(fn)] = {
      description: describe(fn),
      inputs: { properties: inputs, ...(root.required?.length ? { required: root.required } : {}) },
      outputs: { properties: outType.properties, ...(outType.required?.length ? { required: outType.required } : {}) },
    };
  }

  if (missing.length) throw new Error(`schema.json: add a description (TSDoc or DOCS in scripts/schema.ts) for: ${[...new Set(missing)].join(", ")}`);
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string; description: string; license: string };
  return {
    name: PKG,
    displayName: "Notify",
    version: pkg.version,
    description: pkg.description,
    keywords: ["pulumi", "notify", "notifications", "category/utility"],
    license: pkg.license,
    meta: { moduleFormat: "(.*)" },
    config: {
      variables: {
        apiUrl: { type: "string", description: "Address of the notification service (https://...). Also read from NOTIFY_API_URL." },
        apiKey: { type: "string", secret: true, description: "API key of the environment to manage. Also read from NOTIFY_API_KEY." },
        allowInsecureHttp: { type: "boolean", description: "Allow http:// to a host other than loopback (default false). Also read from NOTIFY_ALLOW_INSECURE_HTTP." },
        requestTimeoutMs: { type: "integer", description: "Per-attempt request timeout in milliseconds, 100 to 600000 (default 30000). Also read from NOTIFY_REQUEST_TIMEOUT_MS." },
      },
    },
    types: Object.fromEntries(Object.entries(types).sort(([a], [b]) => a.localeCompare(b))),
    resources,
    functions,
  };
}

if (require.main === module) {
  const out = path.join(REPO_ROOT, "schema.json");
  writeFileSync(out, `${JSON.stringify(buildSchema(), null, 2)}\n`);
  process.stdout.write(`wrote ${path.relative(process.cwd(), out) || "schema.json"}\n`);
}
