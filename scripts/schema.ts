/**
 * `npm run schema`: writes schema.json, the Pulumi package schema of pulumi-notify, from the
 * resources' field tables (provider/resources/index.ts) and the function definitions
 * (provider/functions). A generic converter from the JSON Schema of each zod type to Pulumi
 * types: a zod type with a meta `id` becomes the type of that name, any other nested object or
 * enumeration the type `<Owner><Property>`; descriptions are the ones the zod types carry.
 * test/unit/scripts/schema.test.ts compares the committed file with the zod schemas.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { FUNCTIONS } from "../provider/functions";
import { RESOURCE_TABLES } from "../provider/resources";
import { REPO_ROOT } from "./workspace";
import { CONNECTION_SETTINGS, describeSetting } from "../provider/client/settings";

type Json = Record<string, any>;
/** A Pulumi schema property or type reference. */
type Spec = Json;

const PKG = "notify";
const tok = (name: string) => `${PKG}:index:${name}`;
const ANY: Spec = { $ref: "pulumi.json#/Any" };
/** The project's repository (its Go module path, and where its releases are published). */
export const REPOSITORY = "github.com/pulumi-notify/pulumi-notify";
/** Module path of the generated Go SDK (sdk/go of this repository). */
export const GO_MODULE = `${REPOSITORY}/sdk/go`;
/**
 * Where the engine downloads the plugin from: the base URL of the archives that
 * `npm run plugin-binary` builds (pulumi-resource-notify-v<version>-<os>-<arch>.tar.gz), the
 * project's GitHub release of each version. The engine replaces `${VERSION}` with the version
 * without its `v` (and `${NAME}`, `${OS}`, `${ARCH}`) and appends the archive's name
 * (pulumi/pulumi sdk/go/common/workspace/plugins.go, interpolateURL, httpSource.Download). A private
 * mirror overrides it with PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES (docs/python-go.md).
 */
export const PLUGIN_DOWNLOAD_URL = `https://${REPOSITORY}/releases/download/v\${VERSION}`;

/**
 * The oldest Pulumi Python SDK the generated Python SDK (sdk/python) accepts: its pyproject.toml's
 * `pulumi>=` and the `requirements.txt` notify-export writes. Not older than what Pulumi's Python
 * generator of the pinned version writes by default (3.269.0 for v3.276.0: the generated modules
 * call `pulumi.runtime.exists_resource`, new in 3.269.0); test/e2e/oldestPulumi.test.ts runs the
 * suite's Python program on it.
 */
export const PYTHON_PULUMI_FLOOR = "3.269.0";

/**
 * npm name of the generated TypeScript SDK of the native plugin (sdk/nodejs). Not `pulumi-notify`,
 * the package of the dynamic resources (the package's main interface), which a program may use
 * beside it; not `@pulumi/notify`, the generator's default, a scope only Pulumi publishes to. The
 * scope is the project's own (as in GO_MODULE), and `native` names the front end a user picks.
 */
export const NODEJS_PACKAGE = "@pulumi-notify/native";

/** Title-cases `in_app` → `InApp`, `platform-cloud` → `PlatformCloud`. */
const pascal = (s: string) => s.replace(/(^|[^a-zA-Z0-9]+)([a-zA-Z0-9])/g, (_m, _p, c: string) => c.toUpperCase());

/** The JSON Schema of a zod type: types with a meta `id` in `$defs`, everything else inline. */
const jsonSchema = (s: z.ZodType, io: "input" | "output") => z.toJSONSchema(s, { io, unrepresentable: "any", cycles: "ref", reused: "inline" }) as Json;

/**
 * The connection settings: the stack config `notify:*` of the default provider, and the inputs of
 * an explicit provider instance (the schema's `provider`), from CONNECTION_SETTINGS.
 */
const CONFIG_VARIABLES: Record<string, Spec> = Object.fromEntries(CONNECTION_SETTINGS.map((s) => [
  s.key, { type: s.type, ...("secret" in s && s.secret ? { secret: true } : {}), description: describeSetting(s) },
]));

/** Builds the schema. Throws listing every input property left without a description. */
export function buildSchema(): Json {
  const types: Record<string, Json> = {};
  const missing: string[] = [];
  const inlining = new Set<string>();

  /**
   * Converts one JSON Schema node at `owner.prop` to a Pulumi type spec. `input`: a type a program
   * writes (every property needs a description; an enumeration becomes a type) rather than one
   * the service returns (an unnamed enumeration reads as a string; descriptions may be missing).
   */
  const convert = (node: Json, owner: string, prop: string, root: Json, input: boolean, name?: string): Spec => {
    if (node.$ref) {
      const ref = String(node.$ref);
      const id = ref.replace("#/$defs/", "");
      const target = ref === "#" ? undefined : root.$defs?.[id];
      if (!target) return ANY;
      if (id.startsWith("__")) {
        // A recursive type zod had to name: inline, with the recursion itself as Any.
        if (inlining.has(id)) return ANY;
        inlining.add(id);
        try {
          return convert(target, owner, prop, root, input);
        } finally {
          inlining.delete(id);
        }
      }
      if (!types[tok(id)]) {
        types[tok(id)] = { description: "" }; // in progress: a recursive reference ends here
        convert(target, owner, prop, root, input, id);
      }
      return { $ref: `#/types/${tok(id)}` };
    }
    if (node.anyOf || node.oneOf) {
      const alts = ((node.anyOf ?? node.oneOf) as Json[]).filter((a) => a.type !== "null");
      return alts.length === 1 ? convert({ description: node.description, ...alts[0]! }, owner, prop, root, input, name) : ANY;
    }
    if (Array.isArray(node.type)) {
      // A nullable primitive (zod writes `type: ["string", "null"]`): the type, optional already.
      // As Any it would not only lose its type: Python SDKs check an Any result value is a dict.
      const types = (node.type as string[]).filter((t) => t !== "null");
      return types.length === 1 ? convert({ ...node, type: types[0] }, owner, prop, root, input, name) : ANY;
    }
    const typeName = name ?? `${owner}${pascal(prop)}`;
    const typeDoc = node.description ?? `${typeName}, as the service returns it.`;
    if (node.enum) {
      if (!input && !name) return { type: "string" };
      define(typeName, typeDoc, { type: "string", enum: (node.enum as string[]).map((v) => ({ value: v, name: pascal(String(v)) })) });
      return { $ref: `#/types/${tok(typeName)}` };
    }
    switch (node.type) {
      case "string": return { type: "string" };
      case "boolean": return { type: "boolean" };
      case "integer": return { type: "integer" };
      case "number": return { type: "number" };
      case "array": return { type: "array", items: node.items ? convert(node.items, owner, prop, root, input) : ANY };
      case "object": {
        if (!node.properties || Object.keys(node.properties).length === 0) {
          const ap = node.additionalProperties;
          return { type: "object", additionalProperties: ap && typeof ap === "object" && ap.type ? convert(ap, owner, prop, root, input) : ANY };
        }
        const { properties, required } = convertProperties(node, typeName, root, input);
        define(typeName, typeDoc, { type: "object", properties, ...(required.length ? { required } : {}) });
        return { $ref: `#/types/${tok(typeName)}` };
      }
      default: return ANY;
    }
  };
  /** The properties of an object node as Pulumi properties, each with its description. */
  const convertProperties = (node: Json, owner: string, root: Json, input: boolean, docs: Record<string, string> = {}) => {
    const properties: Record<string, Spec> = {};
    for (const [k, v] of Object.entries(node.properties as Record<string, Json>)) {
      // Left out: `__provider` (the dynamic provider's), and any other name starting with `__`
      // (the service's `__v`, a document revision): in a Python SDK such a name is mangled as
      // class-private, and the generated result classes fail on it.
      if (k.startsWith("__")) continue;
      // A property that is a named type and says nothing more has that type's description.
      const named = typeof v.$ref === "string" ? root.$defs?.[v.$ref.replace("#/$defs/", "")]?.description : undefined;
      const description = v.description ?? docs[k] ?? named ?? (input ? undefined : `\`${k}\`, as the service returns it.`);
      if (description === undefined) missing.push(`${owner}.${k}`);
      properties[k] = { ...convert(v, owner, k, root, input), description: description ?? "" };
    }
    const required = ((node.required ?? []) as string[]).filter((k) => k in properties);
    return { properties, required };
  };
  const define = (name: string, description: string, spec: Json) => {
    const full = { description, ...spec };
    const prev = types[tok(name)];
    if (prev && prev.description !== "" && JSON.stringify(prev) !== JSON.stringify(full)) throw new Error(`type ${name} is defined twice with different shapes`);
    types[tok(name)] = full;
  };

  const resources: Record<string, Json> = {};
  for (const t of RESOURCE_TABLES) {
    const secret = (k: string) => ((t.secretKeys as readonly string[]).includes(k) ? { secret: true } : {});
    const root = jsonSchema(t.schema, "input");
    const inputs = convertProperties(root, t.name, root, true);
    const fields = Object.entries(t.inputs);
    const outputSchema = z.object(Object.fromEntries([
      ...fields.filter(([k]) => (t.inputKeys as readonly string[]).includes(k)).map(([k, f]) => [k, f.output ?? f.type]),
      ...Object.entries(t.outputs),
    ]));
    const outRoot = jsonSchema(outputSchema, "input");
    const outputs = convertProperties(outRoot, t.name, outRoot, true, Object.fromEntries(fields.map(([k, f]) => [k, f.doc])));
    resources[tok(t.name)] = {
      description: t.doc,
      inputProperties: Object.fromEntries(Object.entries(inputs.properties).map(([k, v]) => [k, { ...v, ...secret(k) }])),
      requiredInputs: inputs.required,
      properties: Object.fromEntries(Object.entries(outputs.properties).map(([k, v]) => [k, { ...v, ...secret(k) }])),
      required: [...t.requiredOutputs],
    };
  }

  const functions: Record<string, Json> = {};
  for (const f of FUNCTIONS) {
    const root = jsonSchema(f.args, "input");
    const inputs = convertProperties(root, pascal(f.name), root, true);
    // A function returning one named type shares it; another function's result object is not a type.
    const res = jsonSchema(f.result, "output");
    let outputs: { properties: Record<string, Spec>; required: string[] };
    if (res.$ref) {
      const t = types[String(convert(res, "", "", res, false).$ref).replace("#/types/", "")]!;
      outputs = { properties: t.properties, required: t.required ?? [] };
    } else outputs = convertProperties(res, `${pascal(f.name)}Result`, res, false);
    functions[tok(f.name)] = {
      description: f.doc,
      inputs: { properties: inputs.properties, ...(inputs.required.length ? { required: inputs.required } : {}) },
      outputs: {
        properties: Object.fromEntries(Object.entries(outputs.properties).map(([k, v]) => [k, f.secretResults?.includes(k) ? { ...v, secret: true } : v])),
        ...(outputs.required.length ? { required: outputs.required } : {}),
      },
    };
  }

  if (missing.length) throw new Error(`schema.json: add a description (the field table's doc or the zod type's .describe()) for: ${[...new Set(missing)].join(", ")}`);
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string; description: string; license: string };
  return {
    name: PKG,
    displayName: "Notify",
    version: pkg.version,
    description: pkg.description,
    keywords: ["pulumi", "notify", "notifications", "category/utility"],
    license: pkg.license,
    repository: `https://${REPOSITORY}`,
    // Written into each SDK (Python's pulumi-plugin.json, Go's pulumi-plugin.json and its
    // resource registrations), so the engine installs the plugin on first use.
    pluginDownloadURL: PLUGIN_DOWNLOAD_URL,
    // supportPack: SDKs carry the schema's version (pulumi-plugin.json, pyproject.toml, the Go
    // package's version) and the Go SDK is a module of its own, sdk/go/go.mod.
    meta: { moduleFormat: "(.*)", supportPack: true },
    // For `npm run gen-sdk` (scripts/gen-sdk): the Python distribution and import name
    // pulumi_notify, with a pyproject.toml requiring pulumi from PYTHON_PULUMI_FLOOR; the Go
    // module GO_MODULE (this repo's sdk/go), package `notify` in sdk/go/notify; the npm package
    // NODEJS_PACKAGE (sdk/nodejs), of the schema's version (its resources then ask the engine for
    // this version of the plugin).
    language: {
      python: { packageName: "pulumi_notify", respectSchemaVersion: true, pyproject: { enabled: true }, requires: { pulumi: `>=${PYTHON_PULUMI_FLOOR},<4.0.0` } },
      go: { importBasePath: `${GO_MODULE}/notify`, respectSchemaVersion: true },
      nodejs: {
        packageName: NODEJS_PACKAGE,
        packageDescription: "Typed TypeScript SDK of the pulumi-notify native provider plugin (pulumi-resource-notify).",
        respectSchemaVersion: true,
      },
    },
    config: { variables: CONFIG_VARIABLES },
    // The provider resource's inputs are the same settings, so an explicit provider instance
    // (`new notify.Provider(name, { apiUrl, apiKey })` in an SDK) connects on its own; the
    // native plugin's Configure reads them from its `args`.
    provider: {
      description: "The provider type for the notify package: the connection to one environment of the notification service. By default the stack config `notify:*` (or the environment variables) configures it; an explicit instance takes the same settings as its arguments.",
      inputProperties: CONFIG_VARIABLES,
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
