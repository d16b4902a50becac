/**
 * The exported project's files: Pulumi.yaml, the program and its manifest (from the language's
 * renderer), import.json in the format of `pulumi import --file`, and a README listing what was
 * exported, what was skipped and the steps to take it over ({@link nextSteps}, which the CLI also
 * prints). Pure: the same model gives the same bytes.
 */
import { CONNECTION_SETTINGS, type ConnectionKey } from "../provider/client/settings";
import type { ExportModel } from "./model";
import type { Language, RenderOptions, Renderer } from "./render/common";
import { go } from "./render/go";
import { python } from "./render/python";
import { typescript } from "./render/typescript";


/** The renderer of each language. */
export const RENDERERS: Record<Language, Renderer> = { typescript, python, go };

/** A YAML scalar, quoted (JSON strings are valid YAML). */
const yamlString = (s: string) => JSON.stringify(s);

/** The `pulumi config set --secret` lines of the model's secrets: known values filled in, masked ones as `<value>`. */
export function configSetLines(model: ExportModel, withValues: boolean): string[] {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return model.secrets.map((s) => `pulumi config set --secret ${s.key} ${s.value !== undefined && withValues ? quote(s.value) : "<value>"}`);
}

/** A name made of lowercase letters, digits and `-` (a project's or a stack's, from an environment's name). */
export function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}

/** The connection settings an export used, as its next steps repeat them; never the API key. */
export type ExportConnection = { apiUrl?: string; allowInsecureHttp?: boolean; timeoutMs?: number };

/**
 * What to run in the exported project, as shell lines with `#` notes: install the dependencies
 * (and how before the packages are published), create a stack, give it the connection and the
 * secrets, preview, take everything over. `withValues` fills in the secret values the service
 * returned: for the CLI's output only, never for a file. The first preview of the dynamic front
 * end shows every resource, and the stack, as a create: they are new to the stack, while the up
 * adopts the service's objects (test/e2e/export.test.ts counts both).
 */
export function nextSteps(model: ExportModel, language: Language, opts: RenderOptions, connection: ExportConnection = {}, withValues = false): string[] {
  const install = RENDERERS[language].install(opts);
  const masked = model.secrets.filter((s) => s.value === undefined);
  // The settings the export needed, each as the stack's config; the key's value only as a placeholder.
  const values: Partial<Record<ConnectionKey, string>> = {
    apiUrl: connection.apiUrl ?? "<service address>",
    apiKey: "<API key>   # the key of this environment",
    allowInsecureHttp: connection.allowInsecureHttp ? "true" : undefined,
    requestTimeoutMs: connection.timeoutMs?.toString(),
  };
  const config = CONNECTION_SETTINGS.filter((s) => values[s.key] !== undefined)
    .map((s) => `pulumi config set ${"secret" in s && s.secret ? "--secret " : ""}notify:${s.key} ${values[s.key]}`);
  const adopts = opts.frontEnd === "dynamic";
  return [
    "# 1. Install the dependencies:",
    install.command,
    "#    Until the packages it names are published, from a checkout of pulumi-notify instead:",
    ...install.beforeRelease.map((l) => `#    ${l}`),
    `# 2. A stack and its connection (or leave the connection to ${CONNECTION_SETTINGS.filter((s) => "required" in s && s.required).map((s) => s.env).join(" and ")}):`,
    `pulumi stack init ${slug(model.environment.name ?? model.environment.id) || "dev"}`,
    ...config,
    ...(model.secrets.length
      ? [
        `# 3. The secrets (${model.secrets.length})${masked.length ? `; the service shows ${masked.length} of them masked: replace <value> with yours` : ""}:`,
        ...configSetLines(model, withValues),
      ]
      : ["# 3. No secrets to set."]),
    "# 4. Preview, then take everything over:",
    adopts
      ? `pulumi preview   # shows "+ ${model.resources.length + 1} to create" (each resource and the stack): new to this stack, not to the service`
      : "pulumi preview   # shows each resource as an import: the stack takes the service's object over by its id",
    `pulumi up        # ${adopts ? "adopts each object (adopt: true)" : "imports each object"}; writes ${masked.length ? `only the ${masked.length} masked secret value${masked.length === 1 ? "" : "s"}` : "nothing on the service"}`,
  ];
}

/** `import.json`: each resource's type token, name and id, as `pulumi import --file` reads it. */
export function importFile(model: ExportModel): string {
  return JSON.stringify({ resources: model.resources.map((r) => ({ type: `notify:index:${r.kind}`, name: r.name, id: r.id })) }, null, 2) + "\n";
}

function readme(model: ExportModel, renderer: Renderer, opts: RenderOptions): string {
  const counts = new Map<string, number>();
  for (const r of model.resources) counts.set(r.kind, (counts.get(r.kind) ?? 0) + 1);
  const masked = model.secrets.filter((s) => s.value === undefined);
  const lines = [
    `# ${opts.project}`,
    "",
    `Written by \`notify-export\` from environment ${model.environment.name ?? model.environment.id} (\`${model.environment.id}\`), ` +
      `in ${renderer.language} on the ${opts.frontEnd} front end. The program declares every object below with the values the service holds; ` +
      `the first \`pulumi up\` takes each over (${opts.frontEnd === "dynamic" ? "`adopt: true`" : "the `import` resource option"}) and changes nothing on the service.`,
    "",
    `## Exported (${model.resources.length})`,
    "",
    ...[...counts].map(([k, n]) => `- ${k}: ${n}`),
    "",
    ...model.resources.map((r) => `- \`${r.kind}\` ${r.name} (id \`${r.id}\`)`),
    "",
    `## Skipped (${model.skipped.length})`,
    "",
    ...(model.skipped.length ? model.skipped.map((s) => `- \`${s.kind}\` ${s.name}: ${s.reason}`) : ["Nothing."]),
    "",
    `## Secrets (${model.secrets.length})`,
    "",
    "No secret value is written in this project: each is a stack config key the program reads with `requireSecret`; step 3 below sets them.",
    "",
    masked.length
      ? `The service shows ${masked.length} of them masked; their values must come from you: ${masked.map((s) => `\`${s.key}\` (${s.what})`).join(", ")}.`
      : "The service returned each of them; `notify-export` printed the lines with their values.",
    "",
    "## Next steps",
    "",
    "```sh",
    ...nextSteps(model, renderer.language, opts),
    "```",
    "",
  ];
  return lines.join("\n");
}

/** Every file of the exported project, by name. */
export function projectFiles(model: ExportModel, language: Language, opts: RenderOptions): Record<string, string> {
  const renderer = RENDERERS[language];
  const pulumiYaml = [
    `name: ${yamlString(opts.project)}`,
    `description: ${yamlString(`Environment ${model.environment.name ?? model.environment.id} of the notification service, exported by notify-export`)}`,
    `runtime: ${renderer.runtime}`,
    "",
  ].join("\n");
  return {
    "Pulumi.yaml": pulumiYaml,
    [renderer.programFile]: renderer.program(model, opts),
    ...renderer.manifest(opts),
    "import.json": importFile(model),
    "README.md": readme(model, renderer, opts),
  };
}
