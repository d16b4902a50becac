/**
 * The exported project's files: Pulumi.yaml, the program and its manifest (from the language's
 * renderer), import.json in the format of `pulumi import --file`, and a README listing what was
 * exported, what was skipped and which config keys to set. Pure: the same model gives the same bytes.
 */
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
    "No secret value is written in this project: each is a stack config key the program reads with `requireSecret`. Set them before the first `pulumi up`:",
    "",
    "```sh",
    ...configSetLines(model, false),
    "```",
    "",
    masked.length
      ? `The service shows ${masked.length} of them masked; their values must come from you: ${masked.map((s) => `\`${s.key}\` (${s.what})`).join(", ")}.`
      : "The service returned each of them; `notify-export` printed the lines with their values.",
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
