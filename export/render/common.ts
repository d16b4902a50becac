/** What the renderers share: the options and the shape of a rendered program. */
import type { ExportModel, ExportedResource } from "../shapes";

/** The languages a program can be written in. */
export const LANGUAGES = ["typescript", "python", "go", "yaml"] as const;
export type Language = (typeof LANGUAGES)[number];

/** The front ends a program can use: the dynamic provider (TypeScript only) or the native plugin. */
export const FRONT_ENDS = ["dynamic", "native"] as const;
export type FrontEnd = (typeof FRONT_ENDS)[number];

/** What the declarations are rendered with besides the model. */
export interface ProgramOptions {
  frontEnd: FrontEnd;
  /**
   * The variable names the project's declarations file gives already, by model key (an update):
   * kept, so that an object keeps its name across exports.
   */
  previousVariables?: ReadonlyMap<string, string>;
}

/** What a renderer is told besides the model. */
export interface RenderOptions extends ProgramOptions {
  /** The Pulumi project name (also the namespace of the stack config keys). */
  project: string;
  /** This package's version (the SDK versions the manifests name). */
  packageVersion: string;
  /** The @pulumi/pulumi version the package is built with (the Pulumi SDK versions the manifests name). */
  pulumiVersion: string;
}

/**
 * How a project's dependencies are installed: the command that reads its manifest, and what to run
 * instead until the packages the manifest names are published (each line a shell command, with a
 * `#` note where it needs one): the README's commands for a checkout ({@link fromCheckout}).
 */
export interface InstallSteps {
  command: string;
  beforeRelease: string[];
}

/** The tarball `npm pack` writes for package `name` at `version` (`@scope/name` → `scope-name-<version>.tgz`). */
export const packedName = (name: string, version: string) => `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;

/** A clone of this package's repository, as the README's install commands write it. */
export const CHECKOUT = "/path/to/checkout";

/**
 * Before a release, each artifact an exported project needs, installed from a checkout as the
 * README's "Install and configure" section installs it (its second block, which the release
 * rehearsal runs as written; test/unit/export/project.test.ts checks these lines against it):
 * `npm run release -- build` in the checkout writes the version's artifacts into its
 * `dist/release/`, from which the project installs its npm package, its wheel or the plugin, and
 * the Go module is replaced by the checkout's `sdk/go`. The plugin too: the engine would download
 * it from the schema's `pluginDownloadURL`, where nothing is published yet.
 */
export const fromCheckout = {
  build: `(cd ${CHECKOUT} && npm run release -- build)   # the artifacts of its version in dist/release/`,
  npm: (name: string, version: string) => `npm install ${CHECKOUT}/dist/release/${packedName(name, version)} @pulumi/pulumi`,
  pip: (version: string) => `pip install ${CHECKOUT}/dist/release/pulumi_notify-${version}-py3-none-any.whl`,
  go: (module: string) => [`go mod edit -replace ${module}=${CHECKOUT}/sdk/go`, "go mod tidy"],
  plugin: (version: string) => `pulumi plugin install resource notify ${version} --file ${CHECKOUT}/dist/release/pulumi-resource-notify-v${version}-linux-amd64.tar.gz`,
};

/**
 * A renderer. A project has two kinds of files: the declarations file, which notify-export owns
 * (every object of the environment, rewritten from the service by `notify-export --update`), and
 * the files the user owns, written once: the entry point, which loads the declarations, and the
 * package manifest.
 */
export interface Renderer {
  language: Language;
  /** The runtime of Pulumi.yaml. */
  runtime: string;
  /** How a line comment starts. */
  comment: string;
  /** The declarations file's name: the file notify-export owns. */
  ownedFile: string;
  /** Where the user's own resources go, as the owned file's header says it. */
  ownedNote: string;
  /**
   * The declarations: one per resource of the model, in the model's order, each after the line
   * comment {@link describe} writes (which an update reads back). What follows the owned file's header.
   */
  program(model: ExportModel, opts: ProgramOptions): string;
  /** The entry point and the package manifest (and any other file the language needs), by name: the user's. */
  userFiles(opts: RenderOptions): Record<string, string>;
  /** How the manifest's dependencies are installed, published or not. */
  install(opts: RenderOptions): InstallSteps;
  /** The variable the first line of a declaration (the line after its comment) names, if it names one. */
  declaredVariable(line: string): string | undefined;
  /** The stack config keys of the secrets a line of the declarations reads. */
  secretKeys(line: string): string[];
  /** Why the language cannot write a resource, when it cannot (the others are written). */
  cannotExpress?(r: ExportedResource): string | undefined;
}

/**
 * What an export recorded in its declarations file, so that `--update` reads the environment again
 * the same way: the options that decide what is declared, and the environment it was read from.
 */
export interface ExportSettings {
  language: Language;
  frontEnd: FrontEnd;
  /** The id of the environment the declarations are of; an update refuses a key of another. */
  environment: string;
  /** Whether the organisation's other environments are declared (--environments). */
  environments?: boolean;
  /** The subscribers whose credentials are declared (--subscriber). */
  subscribers?: string[];
  /** The environment id the user gave (--environment-id), when the service shows no API keys. */
  environmentId?: string;
  /** A portable program (--portable): an update writes it portable again. */
  portable?: boolean;
}

/** How the declarations file's settings line starts, after the comment mark. */
export const SETTINGS_MARK = "notify-export: ";

/**
 * The declarations file's header, as comment lines: generated, not to be edited, how to update it,
 * and the export's settings (read back by `--update`). Every line is the same for the same
 * settings, so an update of an unchanged environment writes the same bytes.
 */
export function ownedHeader(renderer: Renderer, settings: ExportSettings): string[] {
  // One key order whatever order the settings were built in.
  const ordered: ExportSettings = {
    language: settings.language, frontEnd: settings.frontEnd, environment: settings.environment,
    environments: settings.environments || undefined, subscribers: settings.subscribers?.length ? settings.subscribers : undefined,
    environmentId: settings.environmentId, portable: settings.portable || undefined,
  };
  return [
    "Code generated by notify-export; DO NOT EDIT.",
    `\`notify-export --update <project directory>\` rewrites this file from the service; ${renderer.ownedNote}.`,
    SETTINGS_MARK + JSON.stringify(ordered),
  ].map((l) => `${renderer.comment} ${l}`);
}

/** The resources another resource references or depends on (by model key). */
export function referenced(model: ExportModel): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (v && typeof v === "object") {
      if ("target" in v && "output" in v) out.add((v as { target: string }).target);
      else if (Array.isArray(v)) v.forEach(walk);
      else Object.values(v).forEach(walk);
    }
  };
  model.resources.forEach((r) => {
    walk(r.inputs);
    r.dependsOn?.forEach((k) => out.add(k));
  });
  return out;
}

/** The variables of the resources `r` depends on (its `dependsOn`), in its order; `names` maps model keys to variables. */
export const dependsOnVariables = (r: ExportedResource, names: ReadonlyMap<string, string>): string[] => (r.dependsOn ?? []).map((k) => names.get(k)!);

/** A one-line comment naming the object a declaration takes over (or, in a portable program, makes: it has no id). */
export function describe(r: ExportedResource): string {
  return `${r.kind} ${JSON.stringify(r.name)} (${r.id ? `id ${r.id}` : "portable"})`;
}

/**
 * The stack config keys a program reads, and the message of its refusal to start while some are
 * unset: each program checks them all before it declares anything, so that a stack missing some
 * hears of every one at once (the language's own `require` stops at the first).
 */
export const MISSING_CONFIG = "set this stack's config before `pulumi up` (`pulumi config set [--secret] <key> <value>`; notify-export printed the lines); missing: ";

/** The config keys a program reads, in the model's order. */
export const configKeys = (model: ExportModel): string[] => model.secrets.map((s) => s.key);

/** The first comment line of a program: what its first `pulumi up` does. */
export function programPurpose(model: ExportModel, takeOver: string): string {
  return model.portable
    ? "A portable program: the first `pulumi up` makes each object in the stack's environment, with the values of that environment's own from the stack's config."
    : `The first \`pulumi up\` ${takeOver} and changes nothing on the service.`;
}
