/**
 * The exported project's files: the declarations file notify-export owns (its header, then the
 * language's declarations), the files the user owns (Pulumi.yaml, the entry point and the
 * manifest), import.json in the format of `pulumi import --file`, and a README listing what was
 * exported, what was skipped and the steps to take it over ({@link nextSteps}, which the CLI also
 * prints). Pure: the same model gives the same bytes. And the way back: what a declarations file
 * says ({@link parseOwned}), which an update keeps.
 */
import { CONNECTION_SETTINGS, type ConnectionKey } from "../provider/client/settings";
import { Ref, type ExportModel, type ExportedResource, type Value } from "./model";
import { ownedHeader, SETTINGS_MARK, type ExportSettings, type FrontEnd, type Language, type RenderOptions, type Renderer } from "./render/common";
import { go } from "./render/go";
import { python } from "./render/python";
import { typeToken } from "./render/schema";
import { typescript } from "./render/typescript";
import { yaml } from "./render/yaml";

/** The renderer of each language. */
export const RENDERERS: Record<Language, Renderer> = { typescript, python, go, yaml };

/** A YAML scalar, quoted (JSON strings are valid YAML). */
const yamlString = (s: string) => JSON.stringify(s);

/** The `pulumi config set --secret` lines of the model's secrets: known values filled in, masked ones as `<value>`. */
export function configSetLines(model: ExportModel, withValues: boolean): string[] {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return model.secrets.map((s) => `pulumi config set ${s.plain ? "" : "--secret "}${s.key} ${s.value !== undefined && withValues ? quote(s.value) : "<value>"}`);
}

/** A name made of lowercase letters, digits and `-` (a project's or a stack's, from an environment's name). */
export function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}

/** The connection settings an export used, as its next steps repeat them; never the API key. */
export type ExportConnection = { apiUrl?: string; allowInsecureHttp?: boolean; timeoutMs?: number };

/**
 * Step 1 of {@link nextSteps}: the command that installs the project's dependencies, and, until the
 * packages it names are published, the README's commands that install them from a checkout
 * instead. The one text of these steps: notify-export prints it, writes it in the project's
 * README, and docs/export.md holds it for each language, written by scripts/gen-docs.ts (with
 * `<version>` for the version) from {@link INSTALL_VARIANTS}.
 */
export function installLines(language: Language, opts: Pick<RenderOptions, "frontEnd" | "packageVersion">): string[] {
  const install = RENDERERS[language].install({ ...opts, project: "", pulumiVersion: "" });
  return [
    "# 1. Install the dependencies:",
    install.command,
    "#    Until the packages it names are published, from a checkout of pulumi-notify instead (its README's \"Install and configure\"):",
    ...install.beforeRelease.map((l) => `#    ${l}`),
  ];
}

/** Each language and front end an export is written for, as docs/export.md lists their install steps. */
export const INSTALL_VARIANTS: { language: Language; frontEnd: FrontEnd }[] = [
  { language: "typescript", frontEnd: "dynamic" }, { language: "typescript", frontEnd: "native" },
  { language: "python", frontEnd: "native" }, { language: "go", frontEnd: "native" }, { language: "yaml", frontEnd: "native" },
];

/**
 * What to run in the exported project, as shell lines with `#` notes: install the dependencies
 * (and how before the packages are published), create a stack, give it the connection and the
 * secrets, preview, take everything over. `withValues` fills in the secret values the service
 * returned: for the CLI's output only, never for a file. The first preview of the dynamic front
 * end shows every resource, and the stack, as a create: they are new to the stack, while the up
 * adopts the service's objects (test/e2e/export.test.ts counts both).
 */
export function nextSteps(model: ExportModel, language: Language, opts: RenderOptions, connection: ExportConnection = {}, withValues = false): string[] {
  const install = installLines(language, opts);
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
  const stack = slug(model.environment.name ?? model.environment.id) || "dev";
  if (model.portable) {
    return [
      ...install,
      `# 2. A stack of the environment it was read from, and its connection (or leave the connection to ${CONNECTION_SETTINGS.filter((s) => "required" in s && s.required).map((s) => s.env).join(" and ")}):`,
      `pulumi stack init ${stack}`,
      ...config,
      "pulumi config set adopt true   # this environment holds the objects already: the stack takes them over, writing nothing",
      ...(model.secrets.length
        ? [
          `# 3. That environment's own values (${model.secrets.length}: secrets, and values such as domain names and bridge URLs)${masked.length ? `; the service shows ${masked.length} of them masked: replace <value> with yours` : ""}:`,
          ...configSetLines(model, withValues),
        ]
        : ["# 3. No values of the environment's own to set."]),
      "# 4. Make the setup in another environment (of this installation or another): a stack of its own, the same config, its own connection",
      "#    and whatever differs there; the program refuses to start while a value is unset, naming each:",
      "pulumi stack init <other> && pulumi config cp --stack " + stack + " --dest <other>",
      "pulumi config set --stack <other> notify:apiUrl <its address> && pulumi config set --stack <other> --secret notify:apiKey <its key>",
      "pulumi config rm --stack <other> adopt   # an object already there is then refused, naming adopt: true, rather than taken over",
      "pulumi up --stack <other>   # makes each object there; `notify-export --diff` then compares the two environments",
    ];
  }
  return [
    ...install,
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
  return JSON.stringify({ resources: model.resources.map((r) => ({ type: typeToken(r.kind), name: r.name, id: r.id })) }, null, 2) + "\n";
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
      (model.portable
        ? "it is portable: its first `pulumi up` makes each object in the stack's environment (any environment, of any installation), with the values of that environment's own read from the stack's config."
        : `the first \`pulumi up\` takes each over (${opts.frontEnd === "dynamic" ? "`adopt: true`" : "the `import` resource option"}) and changes nothing on the service.`),
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
    "## Pull changes made on the service",
    "",
    `\`${renderer.ownedFile}\` holds the declarations, and belongs to notify-export: \`notify-export --update .\` reads the environment again ` +
      `and rewrites that file alone, each object under the same name, so that \`git diff\` shows what changed on the service, field by field ` +
      "(an unchanged environment, no diff at all). It never rewrites the other files, this one included, which describes the first export.",
    "",
    `## Secrets (${model.secrets.length})`,
    "",
    "No secret value is written in this project: each is a stack config key the program reads as a secret; step 3 below sets them.",
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

/** The declarations file: its header (the settings an update reads back), then the declarations. */
export function ownedFile(model: ExportModel, language: Language, opts: RenderOptions | Omit<RenderOptions, "project" | "packageVersion" | "pulumiVersion">, settings: Omit<ExportSettings, "language" | "frontEnd" | "environment">): string {
  const renderer = RENDERERS[language];
  const header = ownedHeader(renderer, { language, frontEnd: opts.frontEnd, environment: model.environment.id, ...settings });
  return `${header.join("\n")}\n${renderer.program(model, opts)}`;
}

/**
 * What an exported project keeps out of git, in every language (its flow is `git diff` after
 * `notify-export --update`): installed dependencies, builds, Python's environment and caches.
 */
const GITIGNORE = ["node_modules/", "bin/", "venv/", "__pycache__/", "*.pyc", ""].join("\n");

/** Every file of the exported project, by name. `settings`: the options the declarations depend on, which an update reads back. */
export function projectFiles(model: ExportModel, language: Language, opts: RenderOptions, settings: Omit<ExportSettings, "language" | "frontEnd" | "environment"> = {}): Record<string, string> {
  const renderer = RENDERERS[language];
  const pulumiYaml = [
    `name: ${yamlString(opts.project)}`,
    `description: ${yamlString(`Environment ${model.environment.name ?? model.environment.id} of the notification service, exported by notify-export`)}`,
    `runtime: ${renderer.runtime}`,
    "",
  ].join("\n");
  return {
    "Pulumi.yaml": pulumiYaml,
    ".gitignore": GITIGNORE,
    ...renderer.userFiles(opts),
    [renderer.ownedFile]: ownedFile(model, language, opts, settings),
    // A portable program takes nothing over: there is nothing to import.
    ...(model.portable ? {} : { "import.json": importFile(model) }),
    "README.md": readme(model, renderer, opts),
  };
}

/**
 * The model as the language can write it: a resource the renderer cannot express is skipped with
 * its reason, and so is each resource that references one (its reference would name nothing),
 * with their secrets.
 */
export function forLanguage(model: ExportModel, language: Language): ExportModel {
  const renderer = RENDERERS[language];
  const reasons = new Map<string, string>();
  for (const r of model.resources) {
    const why = renderer.cannotExpress?.(r);
    if (why) reasons.set(r.key, why);
  }
  if (reasons.size === 0) return model;
  const targets = (v: Value): string[] => v instanceof Ref ? [v.target] : v && typeof v === "object" ? Object.values(v).flatMap(targets) : [];
  // References point back in the model's order, so one pass in that order finds every dependant.
  for (const r of model.resources) {
    const gone = targets(r.inputs).find((t) => reasons.has(t));
    if (gone && !reasons.has(r.key)) reasons.set(r.key, `it references ${gone}, which ${renderer.language} cannot declare`);
  }
  // A resource that only comes after a skipped one is declared without that dependsOn.
  const kept = (r: ExportedResource): ExportedResource => {
    const after = r.dependsOn?.filter((k) => !reasons.has(k));
    if (after?.length === r.dependsOn?.length) return r;
    const { dependsOn: _, ...rest } = r;
    return after?.length ? { ...rest, dependsOn: after } : rest;
  };
  return {
    ...model,
    resources: model.resources.filter((r) => !reasons.has(r.key)).map(kept),
    secrets: model.secrets.filter((s) => !reasons.has(s.owner)),
    skipped: [...model.skipped, ...model.resources.filter((r) => reasons.has(r.key)).map((r) => ({ kind: r.kind, name: r.name, reason: reasons.get(r.key)! }))],
  };
}

/** What a declarations file says: the export's settings, and the names it gives, which an update keeps. */
export interface OwnedFile {
  settings: ExportSettings;
  /** Each declared resource's variable (by model key), where its declaration names one. */
  variables: Map<string, string>;
  /** The stack config keys each resource (by model key) reads its secrets from, in the file's order. */
  secretKeys: Map<string, string[]>;
}

/**
 * Reads a declarations file back: the settings line of its header, then each declaration, found by
 * the comment {@link describe} writes before it (`// Workflow "welcome" (id ...)`), with the
 * variable its first line names and the secrets it reads. Undefined when the file has no settings
 * line of notify-export's (not a file it wrote).
 */
export function parseOwned(text: string, renderer: Renderer): OwnedFile | undefined {
  const lines = text.split("\n");
  const mark = `${renderer.comment} ${SETTINGS_MARK}`;
  const settingsLine = lines.find((l) => l.startsWith(mark));
  if (!settingsLine) return undefined;
  let settings: ExportSettings;
  try {
    settings = JSON.parse(settingsLine.slice(mark.length)) as ExportSettings;
  } catch {
    return undefined;
  }
  const escaped = renderer.comment.replace(/[/#]/g, (c) => `\\${c}`);
  const comment = new RegExp(`^\\s*${escaped} ([A-Za-z]+) ("(?:[^"\\\\]|\\\\.)*") \\((?:id .*|portable)\\)$`);
  const variables = new Map<string, string>();
  const secretKeys = new Map<string, string[]>();
  let current: string | undefined;
  lines.forEach((line, i) => {
    const m = comment.exec(line);
    if (m) {
      current = `${m[1]}/${JSON.parse(m[2]!) as string}`;
      const variable = renderer.declaredVariable(lines[i + 1] ?? "");
      if (variable) variables.set(current, variable);
      secretKeys.set(current, []);
    } else if (current) {
      secretKeys.get(current)!.push(...renderer.secretKeys(line));
    }
  });
  return { settings, variables, secretKeys };
}
