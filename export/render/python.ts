/**
 * The Python renderer: the generated SDK's classes (`notify.Workflow(...)`), nested objects as the
 * SDK's `...Args` classes, keyword names as its code generator spells them; each resource with the
 * `import_` resource option (Python programs use the native plugin). The declarations are a
 * module, notify_generated.py, that the user's __main__.py imports.
 */
import { Ref, SecretRef, type ExportModel, type Value } from "../model";
import { ConfigFlag } from "../value";
import { pythonName, variableNames } from "../naming";
import { configKeys, dependsOnVariables, describe, fromCheckout, MISSING_CONFIG, programPurpose, type ProgramOptions, type RenderOptions, type Renderer } from "./common";
import { packageSchema, resolve, resourceInputs, type PackageSchema, type PropSchema } from "./schema";

/** A Python string literal (JSON's escapes are Python's too). */
export const pyString = (s: string) => JSON.stringify(s);

/**
 * The `pulumi` requirement of an exported project: the generated Python SDK's own (schema.json's
 * `language.python.requires`, from scripts/schema.ts PYTHON_PULUMI_FLOOR), which PyPI serves; the
 * pinned Node.js SDK's version may not be on PyPI yet.
 */
export function pythonPulumiRequirement(opts: Pick<RenderOptions, "pulumiVersion">, schema: PackageSchema = packageSchema()): string {
  return schema.language?.python?.requires?.pulumi ?? `>=${opts.pulumiVersion},<4.0.0`;
}

/** A Python literal of `v` of schema type `p`. */
export function pyValue(v: Value, p: PropSchema | undefined, names: ReadonlyMap<string, string>, schema: PackageSchema, indent = ""): string {
  if (v instanceof Ref) return `${names.get(v.target)}.${pythonName(v.output)}`;
  if (v instanceof SecretRef) return `config.${v.secret ? "require_secret" : "require"}(${pyString(v.key)})`;
  if (v instanceof ConfigFlag) return `config.get_bool(${pyString(v.key)}) is True`;
  if (v === null) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : JSON.stringify(v);
  if (typeof v === "string") return pyString(v);
  const t = resolve(schema, p);
  const inner = indent + "    ";
  if (Array.isArray(v)) {
    const items = t.kind === "array" ? t.items : undefined;
    if (v.length === 0) return "[]";
    return `[\n${v.map((x) => inner + pyValue(x, items, names, schema, inner)).join(",\n")},\n${indent}]`;
  }
  if (t.kind === "object") {
    const entries = Object.entries(v).filter(([, x]) => x !== null);
    if (entries.length === 0) return `notify.${t.name}Args()`;
    return `notify.${t.name}Args(\n${entries.map(([k, x]) => `${inner}${pythonName(k)}=${pyValue(x, t.properties[k], names, schema, inner)}`).join(",\n")},\n${indent})`;
  }
  const values = t.kind === "map" ? t.values : undefined;
  const entries = Object.entries(v);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, x]) => `${inner}${pyString(k)}: ${pyValue(x, values, names, schema, inner)}`).join(",\n")},\n${indent}}`;
}

/** The declarations file: a module the user's __main__.py imports. */
const OWNED = "notify_generated.py";
const MODULE = OWNED.replace(/\.py$/, "");

export const python: Renderer = {
  language: "python",
  runtime: "python",
  comment: "#",
  ownedFile: OWNED,
  ownedNote: "declare your own resources in __main__.py",
  program(model: ExportModel, opts: ProgramOptions): string {
    const schema = packageSchema();
    const vars = variableNames("python", model.resources, opts.previousVariables);
    const names = new Map(model.resources.map((r, i) => [r.key, vars[i]!]));
    const keys = configKeys(model);
    const lines = [
      `"""The environment's objects. ${programPurpose(model, "imports each (the import_ resource option)")}"""`,
      "",
      "import pulumi",
      "import pulumi_notify as notify",
      "",
      // Always declared, used or not, so that the first secret an update brings adds no line but its own.
      "config = pulumi.Config()",
      ...(keys.length ? [
        "_missing_config = [k for k in [",
        ...keys.map((k) => `    ${pyString(k)},`),
        "] if config.get(k) is None]",
        "if _missing_config:",
        `    raise pulumi.RunError(${pyString(MISSING_CONFIG)} + ", ".join(_missing_config))`,
      ] : []),
    ];
    model.resources.forEach((r, i) => {
      const props = resourceInputs(schema, r.kind);
      const args = Object.entries(r.inputs).filter(([, v]) => v !== null)
        .map(([k, v]) => `    ${pythonName(k)}=${pyValue(v, props[k], names, schema, "    ")},`);
      lines.push("", `# ${describe(r)}`);
      const options = [
        ...(model.portable ? [] : [`import_=${pyString(r.id)}`]),
        ...(r.dependsOn?.length ? [`depends_on=[${dependsOnVariables(r, names).join(", ")}]`] : []),
      ];
      lines.push(`${vars[i]} = notify.${r.kind}(`, `    ${pyString(r.name)},`, ...args, ...(options.length ? [`    opts=pulumi.ResourceOptions(${options.join(", ")}),`] : []), ")");
    });
    return lines.join("\n") + "\n";
  },
  declaredVariable: (line) => /^([A-Za-z_][A-Za-z0-9_]*) = notify\./.exec(line)?.[1],
  secretKeys: (line) => [...line.matchAll(/config\.require(?:_secret)?\(("(?:[^"\\]|\\.)*")\)/g)].map((m) => JSON.parse(m[1]!) as string),
  userFiles(opts: RenderOptions): Record<string, string> {
    const entry = [
      '"""The stack\'s program. notify-export wrote it once, and `notify-export --update` never rewrites it.',
      "",
      `${OWNED} declares the environment's objects and is rewritten from the service by --update:`,
      `reference them as ${MODULE}.<name>, and declare your own resources below.`,
      '"""',
      "",
      `import ${MODULE}  # noqa: F401  (declares the environment's objects)`,
      "",
    ].join("\n");
    return { "__main__.py": entry, "requirements.txt": `pulumi${pythonPulumiRequirement(opts)}\npulumi-notify==${opts.packageVersion}\n` };
  },
  install(opts: RenderOptions) {
    return {
      command: "pip install -r requirements.txt",
      beforeRelease: [fromCheckout.build, fromCheckout.pip(opts.packageVersion), fromCheckout.plugin(opts.packageVersion)],
    };
  },
};
