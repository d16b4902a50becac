/**
 * The Pulumi YAML renderer: each resource an entry of `resources` with its type token
 * (`notify:index:Workflow`), its name, its properties as the schema names them and the `import`
 * resource option (YAML programs use the native plugin); each secret an entry of `config` that the
 * properties read as `${key}`, a reference to another resource `${variable.output}`.
 *
 * Pulumi YAML (pulumi/pulumi-yaml v1.25 to v1.38.1, pkg/pulumiyaml/run.go `LoadDir`) reads one program file:
 * Main.json, else Main.yaml, else Pulumi.yaml; loading every `*.yaml` of a directory is for plugin
 * templates only (`LoadPluginTemplate`). So the declarations are Main.yaml, which notify-export
 * owns whole, and Pulumi.yaml holds only the project's settings. The package's version is a
 * package declaration file (`packageDeclarationVersion: 1`, what `pulumi package add` writes for
 * YAML; pkg/pulumiyaml/packages/file.go, found by `SearchPackageDecls` under the project).
 *
 * Every string is written as a double-quoted scalar: JSON's escapes, plus the characters YAML
 * parsers refuse or break lines at, escaped; and every `$` doubled, since Pulumi YAML reads
 * `${...}` in any string, keys included, as a reference and `$$` as `$`
 * (pkg/pulumiyaml/ast/interpolation.go `parseInterpolate`).
 */
import { Ref, SecretRef, type ExportModel, type ExportedResource, type Value } from "../model";
import { ADOPT_KEY, ConfigFlag } from "../value";
import { variableNames } from "../naming";
import { dependsOnVariables, describe, fromCheckout, programPurpose, type ProgramOptions, type RenderOptions, type Renderer } from "./common";
import { packageSchema, resolve, resourceInputs, typeToken, type PackageSchema, type PropSchema } from "./schema";

/**
 * Characters YAML parsers refuse in a document (libyaml's printable set, which Go's yaml.v3 and so
 * Pulumi YAML use) or read as line breaks inside a quoted scalar (NEL, LS, PS): written as escapes.
 */
const UNPRINTABLE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;

/** A YAML double-quoted scalar of a literal string, as Pulumi YAML reads it back (`$` doubled). */
export function yamlString(s: string): string {
  return JSON.stringify(s.replace(/\$/g, () => "$$"))
    .replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Plain scalars YAML reads as something else than a string (YAML 1.1's booleans among them). */
const SPECIAL = new Set(["null", "true", "false", "yes", "no", "on", "off", "y", "n"]);

/** A mapping key: plain when it is a name YAML reads as that string, else quoted. */
export function yamlKey(k: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(k) && !SPECIAL.has(k.toLowerCase()) ? k : yamlString(k);
}

/** A value: one scalar for the line it ends, or the lines of a block indented by `indent`. */
type Rendered = { inline: string } | { block: string[] };

/** The YAML of `v` of schema type `p`; `names` maps model keys to resource entries. */
export function yamlValue(v: Value, p: PropSchema | undefined, names: ReadonlyMap<string, string>, schema: PackageSchema, indent = ""): Rendered {
  if (v instanceof Ref) return { inline: JSON.stringify(`\${${names.get(v.target)}.${v.output}}`) };
  if (v instanceof SecretRef || v instanceof ConfigFlag) return { inline: JSON.stringify(`\${${v.key}}`) };
  if (v === null || typeof v === "boolean" || typeof v === "number") return { inline: JSON.stringify(v) };
  if (typeof v === "string") return { inline: yamlString(v) };
  const t = resolve(schema, p);
  const inner = indent + "  ";
  if (Array.isArray(v)) {
    if (v.length === 0) return { inline: "[]" };
    const items = t.kind === "array" ? t.items : undefined;
    return {
      block: v.flatMap((x) => {
        const r = yamlValue(x, items, names, schema, inner);
        // A collection in a sequence starts on the dash's line (`- key: value`, `- - item`).
        return "inline" in r ? [`${indent}- ${r.inline}`] : [`${indent}- ${r.block[0]!.slice(inner.length)}`, ...r.block.slice(1)];
      }),
    };
  }
  // A typed object leaves out the properties it does not set (as the SDKs do); a map or an untyped value keeps its nulls.
  const entries = t.kind === "object" ? Object.entries(v).filter(([, x]) => x !== null) : Object.entries(v);
  if (entries.length === 0) return { inline: "{}" };
  return { block: mapping(entries, (k) => (t.kind === "object" ? t.properties[k] : t.kind === "map" ? t.values : undefined), names, schema, indent) };
}

/** The lines of a mapping of `entries` at `indent`, each value of the schema type `typeOf` gives its key. */
function mapping(entries: [string, Value][], typeOf: (k: string) => PropSchema | undefined, names: ReadonlyMap<string, string>, schema: PackageSchema, indent: string): string[] {
  return entries.flatMap(([k, x]) => {
    const r = yamlValue(x, typeOf(k), names, schema, indent + "  ");
    return "inline" in r ? [`${indent}${yamlKey(k)}: ${r.inline}`] : [`${indent}${yamlKey(k)}:`, ...r.block];
  });
}

/** The path of the first mapping key of `v` that Pulumi YAML reads as a function (`fn::...`), if any. */
function functionKey(v: Value, path: string[]): string[] | undefined {
  if (v === null || typeof v !== "object" || v instanceof Ref || v instanceof SecretRef || v instanceof ConfigFlag) return undefined;
  for (const [k, x] of Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v)) {
    if (!Array.isArray(v) && /^fn::/i.test(k)) return [...path, k];
    const found = functionKey(x, [...path, k]);
    if (found) return found;
  }
  return undefined;
}

/** The program file: Pulumi YAML's Main.yaml, read before Pulumi.yaml. */
const OWNED = "Main.yaml";

export const yaml: Renderer = {
  language: "yaml",
  runtime: "yaml",
  comment: "#",
  ownedFile: OWNED,
  ownedNote: "Pulumi YAML reads one program file (Main.yaml, else Pulumi.yaml), so this is the whole program: keep resources of your own in another project",
  program(model: ExportModel, opts: ProgramOptions): string {
    const schema = packageSchema();
    const vars = variableNames("yaml", model.resources, opts.previousVariables);
    const names = new Map(model.resources.map((r, i) => [r.key, vars[i]!]));
    // Pulumi YAML refuses to run while a config key declared without a default is unset, naming each.
    const lines = [`# ${programPurpose(model, "imports each object (the import resource option)")}`];
    if (model.secrets.length || model.portable) {
      lines.push("config:");
      if (model.portable) lines.push(`  ${ADOPT_KEY}:`, "    type: boolean", "    default: false");
      for (const s of model.secrets) lines.push(`  ${yamlKey(s.key)}:`, "    type: string", ...(s.plain ? [] : ["    secret: true"]));
    }
    lines.push(model.resources.length ? "resources:" : "resources: {}");
    model.resources.forEach((r, i) => {
      const props = resourceInputs(schema, r.kind);
      const entries = Object.entries(r.inputs).filter(([, v]) => v !== null);
      lines.push("", `  # ${describe(r)}`, `  ${vars[i]}:`, `    type: ${typeToken(r.kind)}`, `    name: ${yamlString(r.name)}`);
      if (entries.length) lines.push("    properties:", ...mapping(entries, (k) => props[k], names, schema, "      "));
      // dependsOn as a flow sequence on one line: a line ending in `"${name}"` is a secret's (secretKeys).
      const options = [
        ...(model.portable ? [] : [`      import: ${yamlString(r.id)}`]),
        ...(r.dependsOn?.length ? [`      dependsOn: [${dependsOnVariables(r, names).map((v) => JSON.stringify(`\${${v}}`)).join(", ")}]`] : []),
      ];
      if (options.length) lines.push("    options:", ...options);
    });
    return lines.join("\n") + "\n";
  },
  declaredVariable: (line) => /^ {2}([A-Za-z_][A-Za-z0-9_]*):$/.exec(line)?.[1],
  secretKeys: (line) => [...line.matchAll(/(?:: |- )"\$\{([A-Za-z0-9-]+)\}"$/g)].map((m) => m[1]!),
  cannotExpress(r: ExportedResource): string | undefined {
    const path = functionKey(r.inputs, []);
    // pulumi-yaml reads a mapping whose key starts with `fn::` as a built-in function call or an
    // asset (pkg/pulumiyaml/ast/expr.go: tryParseFunction, getAssetOrArchive), whatever the quoting.
    return path && `Pulumi YAML reads the key ${JSON.stringify(path.at(-1))} (at ${path.join(".")}) as a built-in function, so it cannot declare the value`;
  },
  userFiles(opts: RenderOptions): Record<string, string> {
    const schema = packageSchema();
    // The package declaration `pulumi package add` writes for YAML: the plugin's version and where the engine downloads it.
    const decl = [
      "packageDeclarationVersion: 1",
      `name: ${schema.name}`,
      // Plain YAML (read with yaml.Unmarshal, no references): JSON strings as they are.
      `version: ${JSON.stringify(opts.packageVersion)}`,
      ...(schema.pluginDownloadURL ? [`downloadUrl: ${JSON.stringify(schema.pluginDownloadURL)}`] : []),
      "",
    ].join("\n");
    return { [`sdks/${schema.name}.yaml`]: decl };
  },
  install(opts: RenderOptions) {
    return { command: "pulumi install", beforeRelease: [fromCheckout.build, fromCheckout.plugin(opts.packageVersion)] };
  },
};
