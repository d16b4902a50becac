/**
 * The Go renderer: the generated SDK's constructors (`notify.NewWorkflow(ctx, ...)`), nested
 * objects as its `...Args` structs, arrays and maps as its typed collections, enums as its enum
 * types; each resource with the `pulumi.Import` option (Go programs use the native plugin). The
 * declarations are a file of the program's package, notify_generated.go (`DeclareNotify`), which
 * the user's main.go calls.
 */
import { Ref, SecretRef, type ExportModel, type Value } from "../model";
import { ConfigFlag } from "../value";
import { goName, variableNames } from "../naming";
import { configKeys, dependsOnVariables, describe, fromCheckout, MISSING_CONFIG, programPurpose, referenced, type ProgramOptions, type RenderOptions, type Renderer } from "./common";

/** A config value: a secret's `pulumi.StringOutput`, or a plain value as a `pulumi.String`. */
const goConfig = (v: SecretRef) => (v.secret ? `cfg.RequireSecret(${goString(v.key)})` : `pulumi.String(cfg.Require(${goString(v.key)}))`);
import { packageSchema, resolve, resourceInputs, type PackageSchema, type PropSchema } from "./schema";

/** A Go interpreted string literal (JSON's escapes are Go's too). */
export const goString = (s: string) => JSON.stringify(s);

const PRIMITIVE: Record<string, [single: string, array: string, map: string]> = {
  string: ["pulumi.String", "pulumi.StringArray", "pulumi.StringMap"],
  boolean: ["pulumi.Bool", "pulumi.BoolArray", "pulumi.BoolMap"],
  number: ["pulumi.Float64", "pulumi.Float64Array", "pulumi.Float64Map"],
  integer: ["pulumi.Int", "pulumi.IntArray", "pulumi.IntMap"],
};

/** A Go value of untyped JSON (a `pulumi.Map` of control values, say). */
function goAny(v: Value, names: ReadonlyMap<string, string>, indent: string): string {
  if (v instanceof Ref) return `${names.get(v.target)}.${goName(v.output)}`;
  if (v instanceof SecretRef) return goConfig(v);
  if (v instanceof ConfigFlag) return `pulumi.Bool(cfg.GetBool(${goString(v.key)}))`;
  if (v === null) return "nil";
  if (typeof v === "boolean") return `pulumi.Bool(${v})`;
  if (typeof v === "number") return `pulumi.Float64(${JSON.stringify(v)})`;
  if (typeof v === "string") return `pulumi.String(${goString(v)})`;
  const inner = indent + "\t";
  if (Array.isArray(v)) return v.length ? `pulumi.Array{\n${v.map((x) => `${inner}${goAny(x, names, inner)},`).join("\n")}\n${indent}}` : "pulumi.Array{}";
  const e = Object.entries(v);
  return e.length ? `pulumi.Map{\n${e.map(([k, x]) => `${inner}${goString(k)}: ${goAny(x, names, inner)},`).join("\n")}\n${indent}}` : "pulumi.Map{}";
}

/** A Go value of `v` of schema type `p`. */
export function goValue(v: Value, p: PropSchema | undefined, names: ReadonlyMap<string, string>, schema: PackageSchema, indent = ""): string {
  if (v instanceof Ref) return `${names.get(v.target)}.${goName(v.output)}`;
  if (v instanceof SecretRef) return goConfig(v);
  if (v instanceof ConfigFlag) return `pulumi.Bool(cfg.GetBool(${goString(v.key)}))`;
  const t = resolve(schema, p);
  const inner = indent + "\t";
  switch (t.kind) {
    case "primitive":
      if (v === null) return "nil";
      return `${PRIMITIVE[t.type]?.[0] ?? "pulumi.Any"}(${typeof v === "string" ? goString(v) : JSON.stringify(v)})`;
    case "enum":
      return `notify.${t.name}(${goString(String(v))})`;
    case "object": {
      if (v === null || typeof v !== "object" || Array.isArray(v)) return "nil";
      const e = Object.entries(v).filter(([, x]) => x !== null);
      return `&notify.${t.name}Args{${e.length ? "\n" : ""}${e.map(([k, x]) => `${inner}${goName(k)}: ${goValue(x, t.properties[k], names, schema, inner)},`).join("\n")}${e.length ? `\n${indent}` : ""}}`;
    }
    case "array": {
      if (!Array.isArray(v)) return "nil";
      const it = resolve(schema, t.items);
      const type = it.kind === "primitive" ? PRIMITIVE[it.type]?.[1] ?? "pulumi.Array" : it.kind === "object" || it.kind === "enum" ? `notify.${it.name}Array` : "pulumi.Array";
      return `${type}{${v.length ? "\n" : ""}${v.map((x) => `${inner}${goValue(x, t.items, names, schema, inner)},`).join("\n")}${v.length ? `\n${indent}` : ""}}`;
    }
    case "map": {
      if (v === null || typeof v !== "object" || Array.isArray(v)) return "nil";
      const vt = resolve(schema, t.values);
      if (vt.kind === "any") return goAny(v, names, indent);
      const type = vt.kind === "primitive" ? PRIMITIVE[vt.type]?.[2] ?? "pulumi.Map" : `notify.${"name" in vt ? vt.name : ""}Map`;
      const e = Object.entries(v);
      return `${type}{${e.length ? "\n" : ""}${e.map(([k, x]) => `${inner}${goString(k)}: ${goValue(x, t.values, names, schema, inner)},`).join("\n")}${e.length ? `\n${indent}` : ""}}`;
    }
    default:
      return goAny(v, names, indent);
  }
}

/** The declarations file: a file of the user's package main, beside main.go. */
const OWNED = "notify_generated.go";

export const go: Renderer = {
  language: "go",
  runtime: "go",
  comment: "//",
  ownedFile: OWNED,
  ownedNote: "declare your own resources in main.go",
  program(model: ExportModel, opts: ProgramOptions): string {
    const schema = packageSchema();
    const vars = variableNames("go", model.resources, opts.previousVariables);
    const names = new Map(model.resources.map((r, i) => [r.key, vars[i]!]));
    const used = referenced(model);
    const importPath = schema.language?.go?.importBasePath ?? "notify";
    const lines = [
      "",
      "package main",
      "",
      "import (",
      // The check of the config the program reads (below) needs the standard library's errors and strings.
      ...(model.secrets.length ? ['\t"errors"', '\t"strings"', ""] : []),
      // An environment of no objects imports no SDK (Go refuses an unused import).
      ...(model.resources.length ? [`\t${goString(importPath)}`] : []),
      '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
      ...(model.secrets.length || model.portable ? ['\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"'] : []),
      ")",
      "",
      `// DeclareNotify declares the environment's objects. ${programPurpose(model, "imports each (the pulumi.Import resource option)")}`,
      "func DeclareNotify(ctx *pulumi.Context) error {",
    ];
    if (model.portable && !model.secrets.length) lines.push('\tcfg := config.New(ctx, "")');
    if (model.secrets.length) {
      const keys = configKeys(model);
      lines.push(
        '\tcfg := config.New(ctx, "")',
        "\tvar missing []string",
        "\tfor _, k := range []string{",
        ...keys.map((k) => `\t\t${goString(k)},`),
        "\t} {",
        "\t\tif _, err := cfg.Try(k); err != nil {",
        "\t\t\tmissing = append(missing, k)",
        "\t\t}",
        "\t}",
        "\tif len(missing) > 0 {",
        `\t\treturn errors.New(${goString(MISSING_CONFIG)} + strings.Join(missing, ", "))`,
        "\t}",
      );
    }
    model.resources.forEach((r, i) => {
      const props = resourceInputs(schema, r.kind);
      const fields = Object.entries(r.inputs).filter(([, v]) => v !== null)
        .map(([k, v]) => `\t\t${goName(k)}: ${goValue(v, props[k], names, schema, "\t\t")},`);
      const options = [
        ...(model.portable ? [] : [`pulumi.Import(pulumi.ID(${goString(r.id)}))`]),
        ...(r.dependsOn?.length ? [`pulumi.DependsOn([]pulumi.Resource{${dependsOnVariables(r, names).join(", ")}})`] : []),
      ];
      const call = `notify.New${r.kind}(ctx, ${goString(r.name)}, &notify.${r.kind}Args{\n${fields.join("\n")}\n\t}${options.map((o) => `, ${o}`).join("")})`;
      lines.push(`\t// ${describe(r)}`);
      if (used.has(r.key)) lines.push(`\t${vars[i]}, err := ${call}`, "\tif err != nil {", "\t\treturn err", "\t}");
      else lines.push(`\tif _, err := ${call}; err != nil {`, "\t\treturn err", "\t}");
    });
    lines.push("\treturn nil", "}");
    return lines.join("\n") + "\n";
  },
  declaredVariable: (line) => /^\t([A-Za-z_][A-Za-z0-9_]*), err := notify\./.exec(line)?.[1],
  secretKeys: (line) => [...line.matchAll(/cfg\.Require(?:Secret)?\(("(?:[^"\\]|\\.)*")\)/g)].map((m) => JSON.parse(m[1]!) as string),
  userFiles(opts: RenderOptions): Record<string, string> {
    const entry = [
      "// The stack's program. notify-export wrote it once, and `notify-export --update` never rewrites it.",
      `// ${OWNED} declares the environment's objects (DeclareNotify) and is rewritten from the service by`,
      "// --update: declare your own resources in Program, after it.",
      "package main",
      "",
      'import "github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
      "",
      "// Program declares the stack: the environment's objects, then your own resources.",
      "func Program(ctx *pulumi.Context) error {",
      "\tif err := DeclareNotify(ctx); err != nil {",
      "\t\treturn err",
      "\t}",
      "\treturn nil",
      "}",
      "",
      "func main() {",
      "\tpulumi.Run(Program)",
      "}",
      "",
    ].join("\n");
    return {
      "main.go": entry,
      "go.mod": `module ${opts.project}\n\ngo 1.22\n\nrequire (\n\t${sdkModule()} v${opts.packageVersion}\n\tgithub.com/pulumi/pulumi/sdk/v3 v${opts.pulumiVersion}\n)\n`,
    };
  },
  install(opts: RenderOptions) {
    return {
      command: "go mod tidy",
      // The module from the checkout's sources; the plugin from its artifacts.
      beforeRelease: [fromCheckout.build, ...fromCheckout.go(sdkModule()), fromCheckout.plugin(opts.packageVersion)],
    };
  },
};

/** The Go SDK's module: the schema's import path without its package (`.../sdk/go`, as sdk/go/go.mod names it). */
function sdkModule(): string {
  return (packageSchema().language?.go?.importBasePath ?? "").replace(/\/notify$/, "");
}
