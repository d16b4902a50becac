/** What the three renderers share: the options and the shape of a rendered program. */
import type { ExportModel, ExportedResource } from "../model";

/** The languages a program can be written in. */
export const LANGUAGES = ["typescript", "python", "go"] as const;
export type Language = (typeof LANGUAGES)[number];

/** The front ends a program can use: the dynamic provider (TypeScript only) or the native plugin. */
export const FRONT_ENDS = ["dynamic", "native"] as const;
export type FrontEnd = (typeof FRONT_ENDS)[number];

/** What a renderer is told besides the model. */
export interface RenderOptions {
  frontEnd: FrontEnd;
  /** The Pulumi project name (also the namespace of the stack config keys). */
  project: string;
  /** This package's version (the SDK versions the manifests name). */
  packageVersion: string;
  /** The @pulumi/pulumi version the package is built with (the Pulumi SDK versions the manifests name). */
  pulumiVersion: string;
}

/**
 * How a project's dependencies are installed: the command that reads its manifest, and what to run
 * instead until the packages the manifest names are published (each line a shell command or a
 * note; `<checkout>` is a clone of this package's repository).
 */
export interface InstallSteps {
  command: string;
  beforeRelease: string[];
}

/** The tarball `npm pack` writes for package `name` at `version` (`@scope/name` → `scope-name-<version>.tgz`). */
export const packedName = (name: string, version: string) => `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;

/**
 * The native plugin before a release: the engine would download it from the schema's
 * `pluginDownloadURL`, where nothing is published yet, so it is built from a checkout and installed.
 */
export const pluginBeforeRelease = (version: string): string[] => [
  "(cd <checkout> && npm ci && npm run native-plugin)   # prints the plugin's folder",
  `pulumi plugin install resource notify ${version} --file <that folder>`,
];

/** A renderer: the program's file and its package manifest files. */
export interface Renderer {
  language: Language;
  /** The program's file name. */
  programFile: string;
  /** The program: one declaration per resource of the model, in the model's order. */
  program(model: ExportModel, opts: RenderOptions): string;
  /** The package manifest and any other files the language needs, by name. */
  manifest(opts: RenderOptions): Record<string, string>;
  /** The runtime of Pulumi.yaml. */
  runtime: string;
  /** How the manifest's dependencies are installed, published or not. */
  install(opts: RenderOptions): InstallSteps;
}

/** The resources another resource references (by model key). */
export function referenced(model: ExportModel): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (v && typeof v === "object") {
      if ("target" in v && "output" in v) out.add((v as { target: string }).target);
      else if (Array.isArray(v)) v.forEach(walk);
      else Object.values(v).forEach(walk);
    }
  };
  model.resources.forEach((r) => walk(r.inputs));
  return out;
}

/** A one-line comment naming the object a declaration takes over. */
export function describe(r: ExportedResource): string {
  return `${r.kind} ${JSON.stringify(r.name)} (id ${r.id})`;
}
