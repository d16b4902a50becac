/** provider/resources/check.ts: zod issues as failures that name the field and what is allowed. */
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { checkWith, propertyPath, suggest, topLevel, unknownKeyHint } from "../../../../provider/resources/check";
import { UNKNOWN } from "../../../../provider/resources/diff";

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

  it("names the field and what is allowed, for each kind of issue", () => {
    const reasons = (inputs: Record<string, unknown>) => checkWith(schema, inputs).map((f) => f.reason);
    expect(reasons({})).toEqual(["name: is required (string)"]);
    expect(reasons({ name: "n", channel: "fax" })).toEqual(['channel: must be one of "email", "sms"']);
    expect(reasons({ name: "n", active: "yes" })).toEqual(["active: must be a boolean"]);
    expect(reasons({ name: "n", tags: "a" })).toEqual(["tags: must be an array"]);
    expect(reasons({ name: "n", tags: ["a", 5] })).toEqual(["tags[1]: must be a string"]);
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
    expect(checkWith(schema, { name: 1, active: "x" }, hint).map((f) => f.reason)).toEqual(["name: must be a string", "active: set true or false"]);
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
    expect(checkWith(z.strictObject({ name: z.string() }), { name: 1 }, hint).map((f) => f.reason)).toEqual(["name: must be a string"]);
  });
});
