/**
 * The package schema (schema.json, shipped with the package), as the Python and Go renderers need
 * it: each resource property's type, so that a value is written as the SDK's class, enum or map.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** A property's type in the schema. */
export interface PropSchema {
  type?: string;
  items?: PropSchema;
  additionalProperties?: PropSchema;
  $ref?: string;
}

/** A named type of the schema: an object (properties) or an enum. */
export interface TypeSchema {
  type: string;
  properties?: Record<string, PropSchema>;
  required?: string[];
  enum?: { value: unknown; name?: string }[];
}

/** The parts of schema.json the renderers read. */
export interface PackageSchema {
  name: string;
  version?: string;
  /** Where the engine downloads the plugin (`${VERSION}` its version). */
  pluginDownloadURL?: string;
  types: Record<string, TypeSchema>;
  resources: Record<string, { inputProperties: Record<string, PropSchema>; requiredInputs?: string[]; properties?: Record<string, PropSchema> }>;
  language?: { go?: { importBasePath?: string }; python?: { packageName?: string; requires?: Record<string, string> } };
}

/** The directory holding the package's package.json (this file runs from export/render or dist/export/render). */
export function packageRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, "package.json")) || !existsSync(path.join(dir, "schema.json"))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error("notify-export: cannot find the package's schema.json");
    dir = up;
  }
  return dir;
}

let cached: PackageSchema | undefined;
/** schema.json of this package. */
export function packageSchema(): PackageSchema {
  cached ??= JSON.parse(readFileSync(path.join(packageRoot(), "schema.json"), "utf8")) as PackageSchema;
  return cached;
}

/** What a property's type is, resolved through `$ref`. */
export type Resolved =
  | { kind: "primitive"; type: string }
  | { kind: "any" }
  | { kind: "array"; items: PropSchema }
  | { kind: "map"; values: PropSchema }
  | { kind: "enum"; name: string }
  | { kind: "object"; name: string; properties: Record<string, PropSchema> };

/** Resolves a property's type. */
export function resolve(schema: PackageSchema, p: PropSchema | undefined): Resolved {
  if (!p) return { kind: "any" };
  if (p.$ref) {
    if (p.$ref.startsWith("pulumi.json#/Any")) return { kind: "any" };
    const token = p.$ref.replace(/^#\/types\//, "");
    const t = schema.types[token];
    const name = token.split(":").pop()!;
    if (!t) return { kind: "any" };
    if (t.enum) return { kind: "enum", name };
    return { kind: "object", name, properties: t.properties ?? {} };
  }
  if (p.type === "array") return { kind: "array", items: p.items ?? {} };
  if (p.type === "object") return p.additionalProperties ? (p.additionalProperties.$ref?.startsWith("pulumi.json#/Any") ? { kind: "map", values: {} } : { kind: "map", values: p.additionalProperties }) : { kind: "any" };
  if (p.type) return { kind: "primitive", type: p.type };
  return { kind: "any" };
}

/** A resource's type token (`notify:index:Integration`) by its type name. */
export function typeToken(kind: string): string {
  return `${packageSchema().name}:index:${kind}`;
}

/** A resource's input properties by its type name (`Integration`). */
export function resourceInputs(schema: PackageSchema, kind: string): Record<string, PropSchema> {
  return schema.resources[`${schema.name}:index:${kind}`]!.inputProperties;
}
