/**
 * The contract: request bodies and query strings checked against `spec/openapi.json`, the
 * service's published OpenAPI document (nobody here wrote it). The document is OpenAPI 3.0 as
 * NestJS's swagger module emits it; {@link fromOpenApi} turns it into JSON Schema that Ajv reads
 * the way the service's validation pipe behaves. Validators are compiled once per process.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

type Node = Record<string, unknown>;

interface Parameter { name: string; in: string; required?: boolean; schema?: Node }
interface Operation { parameters?: Parameter[]; requestBody?: { required?: boolean; content?: Record<string, { schema?: Node }> } }

/** The parts of the OpenAPI document this module reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation & Record<string, unknown>>>;
  components: { schemas: Record<string, Node> };
}

/**
 * The document's stand-in for the service's name, and the real name production spells
 * (packages/shared/src/types/general.ts of the service: `ResourceOriginEnum { NOVU_CLOUD =
 * 'novu-cloud', NOVU_CLOUD_V1 = 'novu-cloud-v1', EXTERNAL = 'external' }`).
 */
const NAME_IN_DOCUMENT = "platform";
const SERVICE_NAME = "novu";

/**
 * The service's slug rule, which the document prints as the literal placeholder
 * `"pattern": "SLUG_IDENTIFIER_REGEX"` (the constant's name, not a regex): letters and digits,
 * with `-`, `_` or `.` only between segments (the service's shared `SLUG_IDENTIFIER_REGEX`).
 */
export const SLUG_IDENTIFIER_PATTERN = "^[a-zA-Z0-9]+(?:[-_.][a-zA-Z0-9]+)*$";

/** Where the document is: `spec/` at the package root, from `emulator/` or `dist/emulator/`. */
function documentPath(): string {
  const candidates = [path.resolve(__dirname, "../../spec/openapi.json"), path.resolve(__dirname, "../spec/openapi.json")];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error(`spec/openapi.json not found (looked in ${candidates.join(", ")})`);
  return found;
}

let loaded: OpenApiDocument | undefined;
/** The OpenAPI document as published (read once). */
export function openApiDocument(): OpenApiDocument {
  loaded ??= JSON.parse(readFileSync(documentPath(), "utf8")) as OpenApiDocument;
  return loaded;
}

const isFreeObject = (n: unknown): boolean => {
  if (!n || typeof n !== "object") return false;
  const { description: _d, ...rest } = n as Node;
  return rest.type === "object" && rest.additionalProperties === true && Object.keys(rest).length === 2;
};

/** How a schema is read: requests as the validation pipe reads them, responses as they are. */
export type SchemaDirection = "request" | "response" | "request-closed";

/**
 * OpenAPI 3.0 (as NestJS emits it) to JSON Schema for Ajv. Each rewrite is a fact about the
 * document, not a loosening for convenience:
 * - `nullable: true` is OpenAPI 3.0's null; JSON Schema writes `type: [t, "null"]`.
 * - A `discriminator.mapping` selects the branch by the property's value (Ajv does not read
 *   `mapping`); a value outside the mapping is left to the handler, so a step kind newer than
 *   the document (seeded, then sent back with its `_id`) is not refused here.
 * - `oneOf` is read as `anyOf`: NestJS's swagger emits `oneOf` for "any of these" and its
 *   branches overlap (a string or an object literal matching two branches would fail a strict
 *   `oneOf`). Where one branch is the free object `{type: object, additionalProperties: true}`
 *   beside a typed DTO (step `controlValues`), the DTO is what is checked: none of the DTOs
 *   forbids extra keys, so the free branch only restates that, and keeping it would accept
 *   every control value (production refuses e.g. a throttle `unit` of `weeks`).
 * - `"pattern": "SLUG_IDENTIFIER_REGEX"` is a placeholder; replaced by the service's slug rule.
 *   Patterns printed as regex literals (`"/^...$/"`) lose their slashes.
 * - `format: uuid` (on `_environmentId`) does not hold in production, whose ids are 24-hex
 *   ObjectIds; it is dropped.
 * - Enumeration values spelt with the document's stand-in name also accept the service's real
 *   spelling (`platform-cloud` and `novu-cloud`): production sends and accepts the latter.
 * - `ChannelTypeEnum` gains `tool`, which the newer live document has (production-notes.md,
 *   Second pass: message channels `tool`).
 * - A property typed `object` with no properties whose `default` is a string is a string: the
 *   generator prints a `string | null` union as `object` (`AgentBehaviorDto.reactionOnResolved`,
 *   "Cross-platform emoji name ... Default: \"check\"", `default: "check"`).
 * - Requests only: a required property with a `default` is not required, since the pipe builds
 *   the DTO with its initialisers before validating (`DelayControlDto.type`,
 *   `ThrottleControlDto.type`, `EmailControlDto.body`).
 * Unknown properties stay allowed: the pipe transforms but does not whitelist.
 */
export function fromOpenApi(node: unknown, direction: SchemaDirection = "response"): unknown {
  if (Array.isArray(node)) return node.map((n) => fromOpenApi(n, direction));
  if (!node || typeof node !== "object") return node;
  const out: Node = {};
  for (const [k, v] of Object.entries(node as Node)) {
    out[k] = k === "properties" || k === "patternProperties"
      ? Object.fromEntries(Object.entries(v as Node).map(([pk, pv]) => [pk, fromOpenApi(pv, direction)]))
      : fromOpenApi(v, direction);
  }
  const disc = out.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
  if (disc?.mapping && Array.isArray(out.oneOf)) {
    out.allOf = Object.entries(disc.mapping).map(([value, ref]) => ({
      if: { properties: { [disc.propertyName]: { const: value } }, required: [disc.propertyName] },
      then: { $ref: ref },
    }));
    out.type = "object";
    out.required = [disc.propertyName];
    out.properties = { [disc.propertyName]: { type: "string" } };
    delete out.oneOf;
    delete out.discriminator;
  }
  if (Array.isArray(out.oneOf)) {
    const branches = out.oneOf as unknown[];
    const typed = branches.filter((b) => !isFreeObject(b));
    delete out.oneOf;
    if (typed.length === 1 && branches.length === 2) Object.assign(out, { allOf: [...((out.allOf as unknown[]) ?? []), typed[0]] });
    else out.anyOf = branches;
  }
  if (out.pattern === "SLUG_IDENTIFIER_REGEX") out.pattern = SLUG_IDENTIFIER_PATTERN;
  else if (typeof out.pattern === "string" && /^\/.*\/$/.test(out.pattern)) out.pattern = out.pattern.slice(1, -1);
  if (out.format === "uuid") delete out.format;
  if (out.type === "object" && typeof out.default === "string" && !out.properties && out.additionalProperties === undefined) out.type = "string";
  if (Array.isArray(out.enum)) {
    const values = out.enum as unknown[];
    const twins = values.filter((v): v is string => typeof v === "string" && new RegExp(`(^|-)${NAME_IN_DOCUMENT}(-|$)`).test(v))
      .map((v) => v.replace(NAME_IN_DOCUMENT, SERVICE_NAME));
    out.enum = [...values, ...twins.filter((t) => !values.includes(t))];
  }
  // A closed reading, for tests of what a client sends (never for the emulator, which ignores
  // unknown fields as the service does): an object that lists its properties, and is not composed
  // of other schemas, has no others.
  if (direction === "request-closed" && out.properties && out.additionalProperties === undefined && !out.allOf && !out.anyOf && !out.if) {
    out.additionalProperties = false;
  }
  if (direction !== "response" && Array.isArray(out.required) && out.properties) {
    const props = out.properties as Record<string, Node>;
    out.required = (out.required as string[]).filter((r) => !(props[r] && "default" in props[r]));
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === "string") {
      out.type = [out.type, "null"];
      if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
      return out;
    }
    return { anyOf: [out, { type: "null" }] };
  }
  delete out.nullable;
  return out;
}

/** The document's components as JSON Schema, ready for `$ref`s of the form `openapi#/components/...`. */
export function componentsAsJsonSchema(direction: SchemaDirection): Node {
  const components = fromOpenApi(structuredClone(openApiDocument().components), direction) as { schemas: Record<string, Node> };
  const channelTypes = components.schemas.ChannelTypeEnum;
  if (channelTypes && Array.isArray(channelTypes.enum) && !channelTypes.enum.includes("tool")) channelTypes.enum = [...channelTypes.enum, "tool"];
  return { $id: "openapi", components };
}

/** A schema of one operation, its `$ref`s pointed at the components registered as `openapi`. */
export function schemaOfOperation(schema: unknown, direction: SchemaDirection): Node {
  return JSON.parse(JSON.stringify(fromOpenApi(schema, direction)).replace(/"#\/components/g, '"openapi#/components')) as Node;
}

/** Ajv messages as `field: message` lines, the field a dotted path (`steps.0.controlValues.unit`). */
export function errorMessages(errors: ErrorObject[] | null | undefined, root = "body"): string[] {
  const lines = new Set<string>();
  for (const e of errors ?? []) {
    // `if` and `anyOf` only say that a branch failed; the branch's own errors say how.
    if (e.keyword === "if" || (e.keyword === "anyOf" && (errors ?? []).length > 1)) continue;
    const at = e.instancePath.slice(1).replace(/\//g, ".");
    const named = e.keyword === "required" ? (e.params as { missingProperty: string }).missingProperty
      : e.keyword === "additionalProperties" ? (e.params as { additionalProperty: string }).additionalProperty : undefined;
    const field = [at, named].filter(Boolean).join(".");
    const allowed = e.keyword === "enum" ? `: ${(e.params as { allowedValues: unknown[] }).allowedValues.filter((v) => v !== null).join(", ")}` : "";
    lines.add(`${field || root}: ${e.message ?? "is invalid"}${allowed}`);
  }
  return [...lines];
}

interface CompiledOperation {
  body?: ValidateFunction;
  query?: ValidateFunction;
  /** Query parameters declared as arrays: read with every repetition. */
  arrays: Set<string>;
}

const compiled = new Map<"request" | "request-closed", Map<string, CompiledOperation>>();

/**
 * Compiles a validator for every operation of the document (once per process and reading):
 * `request` as the service reads requests (unknown fields ignored), `request-closed` also
 * refusing fields the document does not list.
 */
export function loadContract(reading: "request" | "request-closed" = "request"): Map<string, CompiledOperation> {
  const hit = compiled.get(reading);
  if (hit) return hit;
  const doc = openApiDocument();
  const components = componentsAsJsonSchema(reading);
  const bodies = new Ajv({ strict: false, allErrors: true });
  // Query values arrive as strings, once or repeated; the pipe transforms them to the DTO's types.
  const queries = new Ajv({ strict: false, allErrors: true, coerceTypes: "array" });
  for (const ajv of [bodies, queries]) {
    addFormats(ajv);
    ajv.addSchema(components, "openapi");
  }
  const operations = new Map<string, CompiledOperation>();
  compiled.set(reading, operations);
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const entry: CompiledOperation = { arrays: new Set() };
      const bodySchema = op.requestBody?.content?.["application/json"]?.schema;
      if (bodySchema) entry.body = bodies.compile(schemaOfOperation(bodySchema, reading));
      const params = (op.parameters ?? []).filter((p) => p.in === "query");
      if (params.length) {
        for (const p of params) if (p.schema?.type === "array") entry.arrays.add(p.name);
        entry.query = queries.compile({
          type: "object",
          properties: Object.fromEntries(params.map((p) => [p.name, schemaOfOperation(p.schema ?? {}, reading)])),
          required: params.filter((p) => p.required).map((p) => p.name),
        });
      }
      operations.set(`${method.toUpperCase()} ${template}`, entry);
    }
  }
  return operations;
}

/**
 * Checks a request against the contract of `(method, pathTemplate)` (the template as the
 * document writes it, e.g. `/v2/workflows/{workflowId}`). Returns the validator's messages,
 * `field: message` each; an empty list when the request conforms or the document does not
 * describe the operation. A missing body is read as `{}`, as the framework does. `reading`
 * `request-closed` also refuses fields the document does not list (for tests of a client).
 */
export function validateRequest(
  method: string, pathTemplate: string,
  request: { body?: unknown; query?: URLSearchParams | Record<string, string | string[]> },
  reading: "request" | "request-closed" = "request",
): string[] {
  const op = loadContract(reading).get(`${method.toUpperCase()} ${pathTemplate}`);
  if (!op) return [];
  const messages: string[] = [];
  if (op.body && !op.body(structuredClone(request.body ?? {}))) messages.push(...errorMessages(op.body.errors));
  if (op.query) {
    const q = request.query instanceof URLSearchParams ? request.query : toSearchParams(request.query ?? {});
    const values: Record<string, string | string[]> = {};
    for (const name of new Set(q.keys())) values[name] = op.arrays.has(name) ? q.getAll(name) : q.get(name)!;
    if (!op.query(values)) messages.push(...errorMessages(op.query.errors, "query"));
  }
  return messages;
}

function toSearchParams(query: Record<string, string | string[]>): URLSearchParams {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const one of Array.isArray(v) ? v : [v]) q.append(k, one);
  return q;
}

/** The values of a named enumeration schema of the document (`StepTypeEnum`, `SeverityLevelEnum`). */
export function enumValues(schemaName: string): string[] {
  const s = openApiDocument().components.schemas[schemaName];
  return Array.isArray(s?.enum) ? (s.enum as unknown[]).filter((v): v is string => typeof v === "string") : [];
}
