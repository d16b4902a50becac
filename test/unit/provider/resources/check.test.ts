/** provider/resources/check.ts: zod issues as failures that name the field, the value given and what is allowed; failures as the engine prints them. */
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { checkWith, engineFailures, propertyPath, registerSecretInputs, suggest, topLevel, unknownKeyHint } from "../../../../provider/resources/check";
import { UNKNOWN } from "../../../../provider/resources/diff";
import { INTEGRATION } from "../../../../provider/resources/integration";

const schema = z.strictObject({
  name: z.string(),
  channel: z.enum(["email", "sms"]).optional(),
  active: z.boolean().optional(),
  tags: z.array(z.string()).optional(),
  steps: z.array(z.strictObject({ subject: z.string({ error: "an email step requires a subject" }) })).optional(),
});

describe("propertyPath", () => {
  it("writes keys with dots and indexes in brackets", () => {
    expect(propertyPath(["steps", 0, "controlValues", "unit"])).toBe("steps[0].controlValues.unit");
    expect(propertyPath([2, "a"])).toBe("[2].a");
    expect(propertyPath([])).toBe("");
  });
});

describe("checkWith", () => {
  it("accepts valid inputs", () => {
    expect(checkWith(schema, { name: "n", channel: "sms", tags: [] })).toEqual([]);
  });

  it("names the field, the value given and what is allowed, for each kind of issue", () => {
    const reasons = (inputs: Record<string, unknown>) => checkWith(schema, inputs).map((f) => f.reason);
    expect(reasons({})).toEqual(["name: is required (string)"]);
    expect(reasons({ name: "n", channel: "fax" })).toEqual(['channel: must be one of "email", "sms" (given "fax")']);
    expect(reasons({ name: "n", active: "yes" })).toEqual(['active: must be a boolean (given "yes")']);
    expect(reasons({ name: "n", tags: "a" })).toEqual(['tags: must be an array (given "a")']);
    expect(reasons({ name: "n", tags: ["a", 5] })).toEqual(["tags[1]: must be a string (given 5)"]);
    expect(reasons({ name: "n", steps: [{}] })).toEqual(["steps[0].subject: an email step requires a subject"]);
    expect(checkWith(schema, { name: "n", extra: 1, other: 2 })).toEqual([{ property: "(inputs)", reason: 'unknown properties "extra", "other"' }]);
  });

  it("gives each failure its property path", () => {
    expect(checkWith(schema, { name: 1, steps: [{ subject: 2 }] }).map((f) => f.property)).toEqual(["name", "steps[0].subject"]);
  });

  it("leaves an issue on a value unknown during preview, at any depth, for the apply", () => {
    expect(checkWith(schema, { name: UNKNOWN })).toEqual([]);
    expect(checkWith(schema, { name: "n", steps: UNKNOWN })).toEqual([]);
    expect(checkWith(schema, { name: "n", steps: [UNKNOWN] })).toEqual([]);
    expect(checkWith(schema, { name: UNKNOWN, active: "yes" }).map((f) => f.property)).toEqual(["active"]);
  });

  it("lets a hint say it better, and falls back to the description when the hint has nothing", () => {
    const hint = (issue: z.core.$ZodIssue) => (issue.path[0] === "active" ? "set true or false" : undefined);
    expect(checkWith(schema, { name: 1, active: "x" }, hint).map((f) => f.reason)).toEqual(["name: must be a string (given 1)", "active: set true or false"]);
  });

  it("names the closest allowed value to a misspelt one, at any depth", () => {
    expect(checkWith(schema, { name: "n", channel: "emial" }).map((f) => f.reason)).toEqual(['channel: must be one of "email", "sms" (given "emial": did you mean "email"?)']);
    const kinds = z.strictObject({ steps: z.array(z.strictObject({ type: z.enum(["in_app", "email"]) })) });
    expect(checkWith(kinds, { steps: [{ type: "in_app" }, { type: "Email" }] }).map((f) => f.reason)).toEqual(['steps[1].type: must be one of "in_app", "email" (given "Email": did you mean "email"?)']);
  });

  it("shortens a long value given", () => {
    const [reason] = checkWith(schema, { name: "n", channel: "x".repeat(200) }).map((f) => f.reason);
    expect(reason).toBe(`channel: must be one of "email", "sms" (given "${"x".repeat(56)}...)`);
  });

  it("never shows the value given to a secret input, at any depth", () => {
    const secretive = z.strictObject({ credentials: z.strictObject({ apiKey: z.string(), region: z.enum(["eu", "us"]).optional() }), name: z.string() });
    registerSecretInputs(secretive, ["credentials"]);
    const reasons = checkWith(secretive, { credentials: { apiKey: 12345, region: "EU-secret" }, name: 7 }).map((f) => f.reason);
    expect(reasons).toEqual(["credentials.apiKey: must be a string", 'credentials.region: must be one of "eu", "us"', "name: must be a string (given 7)"]);
  });

  it("knows a resource table's secret inputs from the table", () => {
    const reasons = checkWith(INTEGRATION.schema, { identifier: "i", providerId: "sendgrid", channel: "email", credentials: { apiKey: 424242 } }).map((f) => f.reason);
    expect(reasons).toEqual(["credentials.apiKey: must be a string"]);
  });
});

describe("engineFailures", () => {
  it("keeps the property of a top-level input the inputs hold, which the engine prints with its value", () => {
    expect(engineFailures([{ property: "channel", reason: "channel: r" }], { channel: "fax" })).toEqual([{ property: "channel", reason: "channel: r" }]);
  });

  it("sends a nested path, the whole inputs or an input left out without a property, which the engine would print as {<nil>}", () => {
    const failures = [
      { property: "steps[0].type", reason: "steps[0].type: r" },
      { property: "(inputs)", reason: "r" },
      { property: "name", reason: "name: is required" },
      { property: "tags", reason: "tags: r" },
    ];
    expect(engineFailures(failures, { steps: [{ type: "emial" }], tags: null })).toEqual(failures.map((f) => ({ property: "", reason: f.reason })));
  });

  it("sends an object or a list input without a property, which the engine would print as a Go map or slice", () => {
    const failures = [
      { property: "endpoint", reason: 'endpoint: unknown property "channelID"' },
      { property: "tags", reason: "tags: r" },
    ];
    expect(engineFailures(failures, { endpoint: { channelID: "C1" }, tags: ["a", "b"] })).toEqual(failures.map((f) => ({ property: "", reason: f.reason })));
  });

  it("keeps the property of a number or a boolean input, which the engine prints as given", () => {
    const failures = [{ property: "limit", reason: "limit: r" }, { property: "active", reason: "active: r" }];
    expect(engineFailures(failures, { limit: 0, active: false })).toEqual(failures);
  });
});

describe("suggest", () => {
  const allowed = ["apiKey", "secretKey", "webhookUrl"];
  it("finds a case-insensitive match first, else the closest within the distance", () => {
    expect(suggest("APIKEY", allowed)).toBe("apiKey");
    expect(suggest("apikye", allowed)).toBe("apiKey");
    expect(suggest("webhokUrl", allowed)).toBe("webhookUrl");
  });
  it("gives nothing when every allowed key is further away than the distance", () => {
    expect(suggest("region", allowed)).toBeUndefined();
    expect(suggest("apiK", allowed, 1)).toBeUndefined();
  });
});

describe("unknownKeyHint and topLevel", () => {
  const allowed = ["identifier", "name"];
  const hint = topLevel(unknownKeyHint(allowed));

  it("names each unknown top-level key, the closest allowed one, and the allowed list", () => {
    expect(checkWith(z.strictObject({ identifier: z.string().optional(), name: z.string().optional() }), { identifer: "x" }, hint).map((f) => f.reason))
      .toEqual(['unknown property "identifer": did you mean "identifier"? Allowed: identifier, name']);
    expect(checkWith(z.strictObject({ name: z.string().optional() }), { zzzzzz: 1 }, unknownKeyHint(["name"])).map((f) => f.reason))
      .toEqual(['unknown property "zzzzzz" Allowed: name']);
  });

  it("leaves nested issues and other issue kinds to their own description", () => {
    const nested = z.strictObject({ name: z.strictObject({ first: z.string() }) });
    expect(checkWith(nested, { name: { frist: "a", first: "b" } }, hint).map((f) => f.reason)).toEqual(['name: unknown property "frist"']);
    expect(checkWith(z.strictObject({ name: z.string() }), { name: 1 }, hint).map((f) => f.reason)).toEqual(["name: must be a string (given 1)"]);
  });
});
