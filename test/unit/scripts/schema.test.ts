/**
 * schema.json against the zod schemas the provider checks inputs with: each input property, its
 * type (nested types and enumerations included), whether it is required and whether it is secret.
 * Any property on one side only is a difference. `npm run schema` rewrites the file.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CONNECTION_KEYS } from "../../../provider/config";
import { FUNCTIONS } from "../../../provider/functions";
import { RESOURCE_TABLES } from "../../../provider/resources";
import { INTEGRATION } from "../../../provider/resources/integration";
import { FRONT_END_KEYS } from "../../../provider/resources/fields";

type Json = Record<string, any>;
const ROOT = path.resolve(__dirname, "../../..");
const load = (): Json => JSON.parse(readFileSync(path.join(ROOT, "schema.json"), "utf8"));

const RESOURCES: [string, z.ZodType, readonly string[]][] = RESOURCE_TABLES.map((t) => [`notify:index:${t.name}`, t.schema, t.secretKeys]);
const FUNCTION_ARGS: Record<string, z.ZodType> = Object.fromEntries(FUNCTIONS.map((f) => [f.name, f.args]));

/** Differences between a zod object's properties and a schema.json property map, recursively. */
function compareObject(where: string, zodNode: Json, props: Record<string, Json>, required: string[], secret: readonly string[] | undefined, schema: Json): string[] {
  const diffs: string[] = [];
  const zprops = Object.fromEntries(Object.entries((zodNode.properties ?? {}) as Record<string, Json>).filter(([k]) => !(FRONT_END_KEYS as readonly string[]).includes(k)));
  const zreq = ((zodNode.required ?? []) as string[]).filter((k) => k in zprops).sort();
  for (const k of Object.keys(zprops)) if (!(k in props)) diffs.push(`${where}.${k}: in zod, missing from schema.json`);
  for (const k of Object.keys(props)) if (!(k in zprops)) diffs.push(`${where}.${k}: in schema.json, missing from zod`);
  const sreq = [...required].sort();
  if (JSON.stringify(zreq) !== JSON.stringify(sreq)) diffs.push(`${where}: required is ${JSON.stringify(sreq)} in schema.json, ${JSON.stringify(zreq)} in zod`);
  for (const k of Object.keys(zprops)) {
    if (!(k in props)) continue;
    if (secret && !!props[k]!.secret !== secret.includes(k)) diffs.push(`${where}.${k}: secret is ${!!props[k]!.secret} in schema.json, ${secret.includes(k)} in the provider`);
    diffs.push(...compareType(`${where}.${k}`, zprops[k]!, props[k]!, schema));
  }
  return diffs;
}

/** Differences between one zod JSON Schema node and one schema.json type spec. */
function compareType(where: string, zn: Json, spec: Json, schema: Json): string[] {
  if (zn.anyOf) {
    const alts = (zn.anyOf as Json[]).filter((a) => a.type !== "null");
    if (alts.length === 1) return compareType(where, alts[0]!, spec, schema);
  }
  if (spec.$ref === "pulumi.json#/Any") return zn.type === undefined || Object.keys(zn).length === 0 ? [] : [`${where}: Any in schema.json, ${zn.type} in zod`];
  if (spec.$ref) {
    const t = schema.types?.[String(spec.$ref).replace("#/types/", "")] as Json | undefined;
    if (!t) return [`${where}: ${spec.$ref} is not defined in schema.json`];
    if (t.enum) {
      const vals = (t.enum as Json[]).map((e) => e.value);
      return JSON.stringify(vals) === JSON.stringify(zn.enum) ? [] : [`${where}: enum ${JSON.stringify(vals)} in schema.json, ${JSON.stringify(zn.enum ?? zn.type)} in zod`];
    }
    if (zn.type !== "object" || !zn.properties) return [`${where}: object type in schema.json, ${zn.type} in zod`];
    return compareObject(where, zn, t.properties ?? {}, t.required ?? [], undefined, schema);
  }
  if (zn.enum) return [`${where}: ${spec.type} in schema.json, an enumeration in zod`];
  if (spec.type === "array") return zn.type === "array" ? compareType(`${where}[]`, zn.items ?? {}, spec.items, schema) : [`${where}: array in schema.json, ${zn.type} in zod`];
  if (spec.type === "object") {
    if (zn.type !== "object" || (zn.properties && Object.keys(zn.properties).length)) return [`${where}: map in schema.json, ${zn.type} with properties in zod`];
    const ap = typeof zn.additionalProperties === "object" ? zn.additionalProperties : {};
    return compareType(`${where}{}`, ap, spec.additionalProperties, schema);
  }
  return spec.type === zn.type ? [] : [`${where}: ${spec.type} in schema.json, ${zn.type} in zod`];
}

/** The JSON Schema of a zod type with every reference to a named type (a meta `id`) replaced by that type. */
function inputSchema(s: z.ZodType): Json {
  const root = z.toJSONSchema(s, { io: "input", unrepresentable: "any" }) as Json;
  const inline = (n: unknown, seen: string[]): unknown => {
    if (Array.isArray(n)) return n.map((x) => inline(x, seen));
    if (!n || typeof n !== "object") return n;
    const { $ref, $defs: _d, ...rest } = n as Json;
    const id = typeof $ref === "string" ? $ref.replace("#/$defs/", "") : undefined;
    if (id !== undefined && !seen.includes(id) && root.$defs?.[id]) return inline({ ...root.$defs[id], ...rest }, [...seen, id]);
    return Object.fromEntries(Object.entries(id !== undefined ? n as Json : rest).map(([k, v]) => [k, inline(v, seen)]));
  };
  return inline(root, []) as Json;
}

/** Every difference between schema.json and the zod schemas. */
function differences(schema: Json, resources = RESOURCES, functions: Record<string, z.ZodType> = FUNCTION_ARGS): string[] {
  const diffs: string[] = [];
  for (const [token, inputs, secret] of resources) {
    const r = schema.resources?.[token] as Json | undefined;
    if (!r) { diffs.push(`${token}: missing from schema.json`); continue; }
    diffs.push(...compareObject(token, inputSchema(inputs), r.inputProperties ?? {}, r.requiredInputs ?? [], secret, schema));
  }
  for (const [fn, args] of Object.entries(functions)) {
    const f = schema.functions?.[`notify:index:${fn}`] as Json | undefined;
    if (!f) { diffs.push(`notify:index:${fn}: missing from schema.json`); continue; }
    diffs.push(...compareObject(`notify:index:${fn}`, inputSchema(args), f.inputs?.properties ?? {}, f.inputs?.required ?? [], [], schema));
  }
  const extra = [...Object.keys(schema.resources ?? {}).filter((t) => !resources.some(([r]) => r === t)),
    ...Object.keys(schema.functions ?? {}).filter((t) => !(t.replace("notify:index:", "") in functions))];
  for (const t of extra) diffs.push(`${t}: in schema.json, not in the provider`);
  return diffs;
}

describe("schema.json", () => {
  it("matches the zod schemas: every input property, its type, required and secret", () => {
    expect(differences(load())).toEqual([]);
  });

  it("is a Pulumi package schema for `notify` with the connection config and a description on everything", () => {
    const s = load();
    expect(s.name).toBe("notify");
    expect(s.config.variables.apiUrl).toMatchObject({ type: "string" });
    expect(s.config.variables.apiKey).toMatchObject({ type: "string", secret: true });
    // The provider resource takes the same settings, so an SDK's explicit Provider instance can be
    // pointed at an environment (the generated Go and Python Provider had no arguments without it).
    expect(Object.keys(s.config.variables).sort()).toEqual([...CONNECTION_KEYS].sort());
    expect(s.provider.inputProperties).toEqual(s.config.variables);
    expect(s.provider.description).toEqual(expect.any(String));
    expect(Object.keys(s.resources).sort()).toEqual(RESOURCE_TABLES.map((t) => `notify:index:${t.name}`).sort());
    expect(Object.keys(s.resources)).toEqual(expect.arrayContaining(["notify:index:Integration", "notify:index:SubscriberCredentials", "notify:index:Workflow", "notify:index:Environment", "notify:index:EnvironmentVariable", "notify:index:Layout", "notify:index:Topic"]));
    expect(Object.keys(s.functions).sort()).toEqual(Object.keys(FUNCTION_ARGS).map((f) => `notify:index:${f}`).sort());

    const problems: string[] = [];
    const token = /^notify:index:[A-Za-z][A-Za-z0-9]*$/;
    const checkSpec = (where: string, spec: Json, needsDescription: boolean) => {
      if (needsDescription && !(typeof spec.description === "string" && spec.description.trim())) problems.push(`${where}: no description`);
      if (spec.$ref && spec.$ref !== "pulumi.json#/Any" && !s.types[String(spec.$ref).replace("#/types/", "")]) problems.push(`${where}: ${spec.$ref} is not defined`);
      if (!spec.$ref && !["string", "boolean", "integer", "number", "array", "object"].includes(spec.type)) problems.push(`${where}: type ${spec.type}`);
      if (spec.items) checkSpec(`${where}[]`, spec.items, false);
      if (spec.additionalProperties) checkSpec(`${where}{}`, spec.additionalProperties, false);
    };
    const checkProps = (where: string, props: Record<string, Json>, required: string[] = []) => {
      for (const [k, v] of Object.entries(props)) checkSpec(`${where}.${k}`, v, true);
      for (const k of required) if (!(k in props)) problems.push(`${where}: required ${k} is not a property`);
    };
    for (const [t, def] of Object.entries(s.types as Record<string, Json>)) {
      if (!token.test(t)) problems.push(`${t}: not a type token`);
      if (!def.description) problems.push(`${t}: no description`);
      if (def.enum) {
        if (def.type !== "string" || !def.enum.every((e: Json) => typeof e.value === "string")) problems.push(`${t}: bad enum`);
      } else checkProps(t, def.properties ?? {}, def.required);
    }
    for (const [t, r] of Object.entries(s.resources as Record<string, Json>)) {
      if (!r.description) problems.push(`${t}: no description`);
      checkProps(`${t} input`, r.inputProperties, r.requiredInputs);
      checkProps(`${t} output`, r.properties, r.required);
    }
    for (const [t, f] of Object.entries(s.functions as Record<string, Json>)) {
      if (!f.description) problems.push(`${t}: no description`);
      checkProps(`${t} input`, f.inputs.properties, f.inputs.required);
      checkProps(`${t} output`, f.outputs.properties, f.outputs.required);
    }
    expect(problems).toEqual([]);
    // What state keeps secret is secret in the schema's outputs too.
    expect(s.resources["notify:index:Integration"].properties.credentials.secret).toBe(true);
    expect(s.resources["notify:index:SubscriberCredentials"].properties.credentials.secret).toBe(true);
  });

  describe("the comparison fails when one side gains or changes a property", () => {
    it("schema.json gains an input property", () => {
      const s = load();
      s.resources["notify:index:Workflow"].inputProperties.priority = { type: "integer", description: "x" };
      expect(differences(s)).toEqual(["notify:index:Workflow.priority: in schema.json, missing from zod"]);
    });
    it("zod gains an input property", () => {
      const res = RESOURCES.map(([t, s, sec]) => [t, t.endsWith("Integration") ? (INTEGRATION.schema.extend({ region: z.string() }) as z.ZodType) : s, sec] as [string, z.ZodType, readonly string[]]);
      expect(differences(load(), res)).toEqual([
        "notify:index:Integration.region: in zod, missing from schema.json",
        expect.stringMatching(/^notify:index:Integration: required is .* in schema\.json, .*"region".* in zod$/),
      ]);
    });
    it("a nested type gains a property on either side", () => {
      const s = load();
      s.types["notify:index:IntegrationCredentials"].properties.bearer = { type: "string", description: "x" };
      expect(differences(s)).toEqual(["notify:index:Integration.credentials.bearer: in schema.json, missing from zod"]);
      const fns = { ...FUNCTION_ARGS, getEvent: z.strictObject({ notificationId: z.string(), expand: z.boolean().optional() }) };
      expect(differences(load(), RESOURCES, fns)).toEqual(["notify:index:getEvent.expand: in zod, missing from schema.json"]);
    });
    it("required, secret, type or an enumeration value changes", () => {
      const s = load();
      const integ = s.resources["notify:index:Integration"];
      integ.requiredInputs = integ.requiredInputs.filter((k: string) => k !== "channel");
      delete integ.inputProperties.credentials.secret;
      integ.inputProperties.active = { type: "string", description: "x" };
      s.types["notify:index:Severity"].enum.push({ value: "critical" });
      const d = differences(s);
      expect(d).toContain("notify:index:Integration.credentials: secret is false in schema.json, true in the provider");
      expect(d).toContain("notify:index:Integration.active: string in schema.json, boolean in zod");
      expect(d.some((x) => x.startsWith("notify:index:Integration: required is"))).toBe(true);
      expect(d.some((x) => x.startsWith("notify:index:Workflow.severity: enum"))).toBe(true);
    });
  });
});
