/**
 * emulator/contract.ts: the published OpenAPI document read as the service's validation pipe reads
 * it. Each rewrite of fromOpenApi is a fact about the document (its comment says which); here each
 * is checked on a small schema, then on the document itself.
 */
import { describe, expect, it } from "vitest";
import Ajv from "ajv";
import {
  enumValues, errorMessages, fromOpenApi, openApiDocument, schemaOfOperation, SLUG_IDENTIFIER_PATTERN, validateRequest,
} from "../../../emulator/contract";

describe("fromOpenApi", () => {
  it("reads OpenAPI 3.0's nullable as JSON Schema's null, in the type and the enumeration, or as anyOf on a $ref", () => {
    expect(fromOpenApi({ type: "string", nullable: true, enum: ["a"] })).toEqual({ type: ["string", "null"], enum: ["a", null] });
    expect(fromOpenApi({ $ref: "#/components/schemas/X", nullable: true })).toEqual({ anyOf: [{ $ref: "#/components/schemas/X" }, { type: "null" }] });
    expect(fromOpenApi({ type: "string", nullable: false })).toEqual({ type: "string" });
  });

  it("selects a discriminated branch by the property's value, and leaves other values to the handler", () => {
    const out = fromOpenApi({ oneOf: [{ $ref: "#/A" }, { $ref: "#/B" }], discriminator: { propertyName: "type", mapping: { a: "#/A", b: "#/B" } } }) as Record<string, unknown>;
    expect(out).toEqual({
      type: "object", required: ["type"], properties: { type: { type: "string" } },
      allOf: [
        { if: { properties: { type: { const: "a" } }, required: ["type"] }, then: { $ref: "#/A" } },
        { if: { properties: { type: { const: "b" } }, required: ["type"] }, then: { $ref: "#/B" } },
      ],
    });
  });

  it("reads oneOf as anyOf, and a typed DTO beside the free object as the DTO alone", () => {
    const free = { type: "object", additionalProperties: true, description: "anything" };
    expect(fromOpenApi({ oneOf: [free, { $ref: "#/Dto" }] })).toEqual({ allOf: [{ $ref: "#/Dto" }] });
    expect(fromOpenApi({ oneOf: [{ type: "string" }, { type: "number" }] })).toEqual({ anyOf: [{ type: "string" }, { type: "number" }] });
  });

  it("replaces the slug placeholder by the service's rule, strips a regex literal's slashes, drops format uuid", () => {
    expect(fromOpenApi({ type: "string", pattern: "SLUG_IDENTIFIER_REGEX" })).toEqual({ type: "string", pattern: SLUG_IDENTIFIER_PATTERN });
    expect(fromOpenApi({ type: "string", pattern: "/^[a-z]+$/" })).toEqual({ type: "string", pattern: "^[a-z]+$" });
    expect(fromOpenApi({ type: "string", format: "uuid" })).toEqual({ type: "string" });
  });

  // AgentBehaviorDto.reactionOnResolved: "Cross-platform emoji name ... Default: \"check\"", printed
  // `{type: object, nullable: true, default: "check"}`; the service takes the name, a string.
  it("reads an `object` without properties whose default is a string as a string (a `string | null` union as printed)", () => {
    expect(fromOpenApi({ type: "object", nullable: true, default: "check" })).toEqual({ type: ["string", "null"], default: "check" });
    expect(fromOpenApi({ type: "object", default: {} })).toEqual({ type: "object", default: {} });
    expect(validateRequest("PATCH", "/v1/agents/{identifier}", { body: { behavior: { reactionOnResolved: "star" } } })).toEqual([]);
  });

  it("the slug rule: letters and digits, with -, _ or . only between them", () => {
    const slug = new RegExp(SLUG_IDENTIFIER_PATTERN);
    for (const ok of ["welcome", "a-b_c.d", "A1"]) expect(slug.test(ok), ok).toBe(true);
    for (const bad of ["", "-a", "a-", "a--b", "a b", "a!"]) expect(slug.test(bad), bad).toBe(false);
  });

  it("accepts the service's real name beside the document's stand-in in enumerations", () => {
    expect(fromOpenApi({ enum: ["platform-cloud", "external", "platformx"] })).toEqual({ enum: ["platform-cloud", "external", "platformx", "novu-cloud"] });
  });

  it("in requests only, a required property with a default is not required; the closed reading forbids unlisted properties", () => {
    const dto = { type: "object", required: ["type", "amount"], properties: { type: { type: "string", default: "regular" }, amount: { type: "number" } } };
    expect((fromOpenApi(dto, "response") as { required: string[] }).required).toEqual(["type", "amount"]);
    expect((fromOpenApi(dto, "request") as { required: string[] }).required).toEqual(["amount"]);
    expect((fromOpenApi(dto, "request") as Record<string, unknown>).additionalProperties).toBeUndefined();
    expect((fromOpenApi(dto, "request-closed") as Record<string, unknown>).additionalProperties).toBe(false);
  });
});

describe("schemaOfOperation", () => {
  it("points the operation's $refs at the components registered as `openapi`", () => {
    expect(schemaOfOperation({ $ref: "#/components/schemas/X" }, "request")).toEqual({ $ref: "openapi#/components/schemas/X" });
  });
});

describe("errorMessages", () => {
  it("writes `field: message`, naming a missing or unlisted property and the allowed values", () => {
    const ajv = new Ajv({ allErrors: true });
    const v = ajv.compile({
      type: "object", required: ["name"], additionalProperties: false,
      properties: { name: { type: "string" }, steps: { type: "array", items: { type: "object", properties: { unit: { enum: ["days", "hours", null] } } } } },
    });
    v({ extra: 1, steps: [{ unit: "weeks" }] });
    expect(errorMessages(v.errors)).toEqual([
      "name: must have required property 'name'",
      "extra: must NOT have additional properties",
      "steps.0.unit: must be equal to one of the allowed values: days, hours",
    ]);
    v([]);
    expect(errorMessages(v.errors, "query")).toEqual(["query: must be object"]);
    expect(errorMessages(null)).toEqual([]);
  });
});

describe("the document", () => {
  it("is the published one: its paths and components are read", () => {
    const doc = openApiDocument();
    expect(Object.keys(doc.paths)).toContain("/v2/workflows/{workflowId}");
    expect(doc.components.schemas.CreateIntegrationRequestDto).toBeDefined();
  });

  it("enumValues gives a named enumeration's values, and nothing for an unknown name", () => {
    expect(enumValues("StepTypeEnum")).toEqual(expect.arrayContaining(["in_app", "email", "delay", "http_request"]));
    expect(enumValues("NoSuchEnum")).toEqual([]);
  });

  it("validateRequest checks a body and a query against the operation, and passes an operation it does not describe", () => {
    expect(validateRequest("POST", "/v1/integrations", { body: { providerId: "sendgrid", channel: "email" } })).toEqual([]);
    expect(validateRequest("POST", "/v1/integrations", { body: { providerId: "sendgrid", channel: "fax" } }))
      .toEqual([expect.stringMatching(/^channel: must be equal to one of the allowed values: in_app, email, sms, chat, push/)]);
    expect(validateRequest("get", "/v2/layouts", { query: { limit: "10" } })).toEqual([]);
    expect(validateRequest("GET", "/v2/layouts", { query: new URLSearchParams("limit=ten") })).toEqual([expect.stringMatching(/^query: |^limit: /)]);
    expect(validateRequest("GET", "/v9/nothing", { body: { anything: true } })).toEqual([]);
  });

  it("the closed reading refuses a body field the document does not list; the service's reading ignores it", () => {
    const body = { providerId: "sendgrid", channel: "email", notInTheDocument: 1 };
    expect(validateRequest("POST", "/v1/integrations", { body })).toEqual([]);
    expect(validateRequest("POST", "/v1/integrations", { body }, "request-closed")).toEqual(["notInTheDocument: must NOT have additional properties"]);
  });
});
