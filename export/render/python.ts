/**
 * The Python renderer: the generated SDK's classes (`notify.Workflow(...)`), nested objects as the
 * SDK's `...Args` classes, keyword names as its code generator spells them; each resource with the
 * `import_` resource option (Python programs use the native plugin).
 */
import { Ref, SecretRef, type ExportModel, type Value } from "../model";
import { pythonName, variableNames } from "../naming";
import { describe, pluginBeforeRelease, type RenderOptions, type Renderer } from "./common";
import { packageSchema, resolve, resourceInputs, type PackageSchema, type PropSchema } from "./schema";

/** A Python string literal (JSON's escapes are Python's too). */
export const pyString = (s: string) => JSON.stringify(s);

/** A Python literal of `v` of schema type `p`. */
export function pyValue(v: Value, p: PropSchema | undefined, names: ReadonlyMap<string, string>, schema: PackageSchema, indent = ""): string {
  if (v instanceof Ref) return `${names.get(v.target)}.${pythonName(v.output)}`;
  if (v instanceof SecretRef) return `config.require_secret(${pyString(v.key)})`;
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

export const python: Renderer = {
  language: "python",
  programFile: "__main__.py",
  runtime: "python",
  program(model: ExportModel, _opts: RenderOptions): string {
    const schema = packageSchema();
    const vars = variableNames("python", model.resources);
    const names = new Map(model.resources.map((r, i) => [r.key, vars[i]!]));
    const lines = [
      `"""Written by notify-export from environment ${JSON.stringify(model.environment.name ?? model.environment.id).replace(/"""/g, "")}: every object as the service holds it.`,
      "",
      "The first `pulumi up` imports each object (the import_ resource option) and changes nothing on the service.",
      '"""',
      "",
      "import pulumi",
      "import pulumi_notify as notify",
      "",
    ];
    if (model.secrets.length) lines.push("config = pulumi.Config()", "");
    model.resources.forEach((r, i) => {
      const props = resourceInputs(schema, r.kind);
      const args = Object.entries(r.inputs).filter(([, v]) => v !== null)
        .map(([k, v]) => `    ${pythonName(k)}=${pyValue(v, props[k], names, schema, "    ")},`);
      lines.push(`# ${describe(r)}`);
      lines.push(`${vars[i]} = notify.${r.kind}(`, `    ${pyString(r.name)},`, ...args, `    opts=pulumi.ResourceOptions(import_=${pyString(r.id)}),`, ")", "");
    });
    lines.push(`pulumi.export("resources", ${model.resources.length})`);
    return lines.join("\n") + "\n";
  },
  manifest(opts: RenderOptions): Record<string, string> {
    return { "requirements.txt": `pulumi>=${opts.pulumiVersion},<4.0.0\npulumi-notify==${opts.packageVersion}\n` };
  },
  install(opts: RenderOptions) {
    return {
      command: "pip install -r requirements.txt",
      beforeRelease: ["pip install <checkout>/sdk/python", ...pluginBeforeRelease(opts.packageVersion)],
    };
  },
};
