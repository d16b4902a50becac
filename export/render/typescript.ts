/**
 * The TypeScript renderer. The dynamic front end declares the package's classes
 * (`new notify.Workflow(...)`) with `adopt: true`; the native front end declares the typed SDK's
 * classes of the plugin (the package schema.json names, `language.nodejs.packageName`) with the
 * `import` resource option. Both take the same object literals. The declarations are a module,
 * notify.generated.ts, that exports each resource; the user's index.ts imports it.
 */
import { packageSchema } from "./schema";
import { Ref, SecretRef, type ExportModel, type Value } from "../model";
import { ConfigFlag } from "../value";
import { variableNames } from "../naming";
import { configKeys, dependsOnVariables, describe, fromCheckout, MISSING_CONFIG, programPurpose, type ProgramOptions, type RenderOptions, type Renderer } from "./common";

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A TypeScript literal of `v`; `names` maps model keys to variable names. */
export function tsValue(v: Value, names: ReadonlyMap<string, string>, indent = ""): string {
  if (v instanceof Ref) return `${names.get(v.target)}.${v.output}`;
  if (v instanceof SecretRef) return `config.${v.secret ? "requireSecret" : "require"}(${JSON.stringify(v.key)})`;
  if (v instanceof ConfigFlag) return `config.getBoolean(${JSON.stringify(v.key)}) === true`;
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  const inner = indent + "  ";
  if (Array.isArray(v)) {
    if (v.length === 0) return "[]";
    return `[\n${v.map((x) => inner + tsValue(x, names, inner)).join(",\n")},\n${indent}]`;
  }
  const entries = Object.entries(v);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([k, x]) => `${inner}${IDENT.test(k) ? k : JSON.stringify(k)}: ${tsValue(x, names, inner)}`).join(",\n")},\n${indent}}`;
}

/** The package a program of the front end imports: this one (dynamic), or the plugin's typed SDK (native). */
export function sdkPackage(frontEnd: RenderOptions["frontEnd"]): string {
  return frontEnd === "dynamic" ? "pulumi-notify" : ((packageSchema().language as { nodejs?: { packageName?: string } } | undefined)?.nodejs?.packageName ?? "pulumi-notify");
}

/**
 * The TypeScript an exported project asks for. Pulumi's Node.js runtime compiles the program with
 * the project's `typescript` through ts-node, which needs the compiler's JavaScript API:
 * `@pulumi/pulumi` accepts `>=3.8.3 <7` (TypeScript 7 ships no such API; docs/troubleshooting.md),
 * and the tsconfig below compiles without an error or a deprecation from 5.0 on.
 */
export const TYPESCRIPT_RANGE = ">=5.0.0 <7";

/**
 * The exported tsconfig's compiler options. `node16` module resolution, because TypeScript 6
 * refuses `moduleResolution: "node"` (node10) with error TS5107 and 7 removes it; `node16` reads
 * the packages' `exports` and, in a package without `"type": "module"`, still emits CommonJS,
 * which Pulumi's runtime loads. Every TypeScript from 4.7 knows it.
 */
export const TSCONFIG_OPTIONS = {
  strict: true, target: "ES2022", module: "node16", moduleResolution: "node16", esModuleInterop: true, skipLibCheck: true, outDir: "bin",
} as const;

/** The package manifest and the compiler's settings. */
function manifest(opts: RenderOptions): Record<string, string> {
  const pkg = {
    name: opts.project,
    private: true,
    main: "index.ts",
    dependencies: { "@pulumi/pulumi": `^${opts.pulumiVersion}`, [sdkPackage(opts.frontEnd)]: `^${opts.packageVersion}` },
    devDependencies: { typescript: TYPESCRIPT_RANGE },
  };
  const tsconfig = { compilerOptions: TSCONFIG_OPTIONS, files: ["index.ts"] };
  return { "package.json": JSON.stringify(pkg, null, 2) + "\n", "tsconfig.json": JSON.stringify(tsconfig, null, 2) + "\n" };
}

/** The declarations file: a module of the entry point's, which exports every resource. */
const OWNED = "notify.generated.ts";

export const typescript: Renderer = {
  language: "typescript",
  runtime: "nodejs",
  comment: "//",
  ownedFile: OWNED,
  ownedNote: "declare your own resources in index.ts",
  program(model: ExportModel, opts: ProgramOptions): string {
    const vars = variableNames("typescript", model.resources, opts.previousVariables);
    const names = new Map(model.resources.map((r, i) => [r.key, vars[i]!]));
    const native = opts.frontEnd === "native";
    const takeOver = !model.portable;
    const keys = configKeys(model);
    const lines: string[] = [
      `// ${programPurpose(model, `takes each object over (${native ? "the import resource option" : "adopt: true"})`)}`,
      `import * as pulumi from "@pulumi/pulumi";`,
      `import * as notify from ${JSON.stringify(sdkPackage(opts.frontEnd))};`,
      "",
      // Always declared, used or not, so that the first secret an update brings adds no line but its own.
      "const config = new pulumi.Config();",
      // In a block of its own, so that its name is never a resource's; a key a line, so that an
      // update adding one adds a line and rewrites none.
      ...(keys.length ? [
        "{",
        "  const missing = [",
        ...keys.map((k) => `    ${JSON.stringify(k)},`),
        "  ].filter((k) => config.get(k) === undefined);",
        `  if (missing.length) throw new pulumi.RunError(${JSON.stringify(MISSING_CONFIG)} + missing.join(", "));`,
        "}",
      ] : []),
    ];
    model.resources.forEach((r, i) => {
      const args = tsValue(native || !takeOver ? r.inputs : { ...r.inputs, adopt: true }, names);
      const options = [
        ...(native && takeOver ? [`import: ${JSON.stringify(r.id)}`] : []),
        ...(r.dependsOn?.length ? [`dependsOn: [${dependsOnVariables(r, names).join(", ")}]`] : []),
      ];
      lines.push("", `// ${describe(r)}`);
      lines.push(`export const ${vars[i]} = new notify.${r.kind}(${JSON.stringify(r.name)}, ${args}${options.length ? `, { ${options.join(", ")} }` : ""});`);
    });
    return lines.join("\n") + "\n";
  },
  declaredVariable: (line) => /^export const ([A-Za-z_$][A-Za-z0-9_$]*) = /.exec(line)?.[1],
  secretKeys: (line) => [...line.matchAll(/config\.require(?:Secret)?\(("(?:[^"\\]|\\.)*")\)/g)].map((m) => JSON.parse(m[1]!) as string),
  userFiles(opts: RenderOptions): Record<string, string> {
    const entry = [
      "// The stack's program. notify-export wrote it once, and `notify-export --update` never rewrites it.",
      `// ${OWNED} declares the environment's objects and is rewritten from the service by --update:`,
      `// import what you reference from it (\`import { <name> } from "./${OWNED.replace(/\.ts$/, "")}";\`) and declare`,
      "// your own resources below.",
      `import "./${OWNED.replace(/\.ts$/, "")}";`,
      "",
    ].join("\n");
    return { "index.ts": entry, ...manifest(opts) };
  },
  install(opts: RenderOptions) {
    return {
      command: "npm install",
      beforeRelease: [
        fromCheckout.build,
        fromCheckout.npm(sdkPackage(opts.frontEnd), opts.packageVersion),
        // The typed SDK runs the plugin.
        ...(opts.frontEnd === "native" ? [fromCheckout.plugin(opts.packageVersion)] : []),
      ],
    };
  },
};
