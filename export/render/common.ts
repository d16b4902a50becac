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
