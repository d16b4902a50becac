/**
 * The shapes the exporter's parts share: the model of an environment (its resources, secrets and
 * what was skipped) and what builds it. In a module of their own, so that the parts that read
 * (kinds.ts, read.ts) and render (render/) import no part that imports them back.
 */
import type { ResourceKind } from "../provider/resources/index";
import type { Value } from "./value";

/** A resource kind (a name of RESOURCES). */
export type Kind = ResourceKind;

/** One resource of the exported program. */
export interface ExportedResource {
  /** The resource's key in the model: `<Kind>/<service key>`, unique. */
  key: string;
  kind: Kind;
  /** The service's identifier of the object (identifier, workflowId, layoutId, topic key, ...): also the Pulumi resource name. */
  name: string;
  /** The id `pulumi import` and the native plugin's read take. */
  id: string;
  /** The declared inputs, in the table's field order. */
  inputs: Record<string, Value>;
  /**
   * The resources (by model key) it is declared after without taking a value of theirs: each
   * language's `dependsOn` resource option. A subscriber's preferences for one workflow after its
   * global ones, whose write clears the per-workflow choices (docs/subscribers.md).
   */
  dependsOn?: string[];
}

/** A stack config key holding a secret, or (`plain`) a value of the environment's own that is not one. */
export interface ConfigSecret {
  key: string;
  /** A plain value (`pulumi config set` without --secret; the program reads it with `require`). */
  plain?: boolean;
  /** The value, when the service returned it; undefined when it showed it masked (the user supplies it). */
  value?: string;
  /** What the value is, for the printed `pulumi config set` lines and the README. */
  what: string;
  /** The model key of the resource that reads it. */
  owner: string;
}

/** An object (or part of one) the export leaves out, and why. */
export interface Skipped {
  kind: string;
  name: string;
  reason: string;
}

/** The model the renderers write. */
export interface ExportModel {
  environment: { id: string; name?: string };
  /**
   * A portable program (`--portable`): it makes the setup in any environment rather than taking this
   * one's objects over (no adopt, no import ids), and reads every value of the environment's own from config.
   */
  portable?: boolean;
  resources: ExportedResource[];
  secrets: ConfigSecret[];
  skipped: Skipped[];
}

/** What a kind's part of {@link buildModel} (its `declare` in kinds.ts) is given: the model being built. */
export interface ModelBuilder {
  /** The API key's environment. */
  envId: string;
  /** The declared inputs of a kind from its mapper's outputs: the compared input fields, in table order. */
  pick(kind: Kind, outs: Record<string, unknown>): Record<string, unknown>;
  /**
   * Adds a resource when its inputs pass the provider's own input check; else records why not.
   * `dependsOn`: the model keys of resources already added that it comes after (see {@link ExportedResource.dependsOn}).
   */
  add(kind: Kind, name: string, id: string, inputs: Record<string, unknown>, dependsOn?: string[]): void;
  /** Makes every string under `value` a secret of the resource. */
  secretLeaves(kind: Kind, name: string, path: string[], value: unknown, what: string): Value;
  /** Makes the table's secret inputs secrets. */
  secretInputs(kind: Kind, name: string, inputs: Record<string, unknown>, what: (field: string) => string): void;
  /** Whether a resource of that key (`<Kind>/<name>`) is in the model already. */
  has(key: string): boolean;
  skip(s: Skipped): void;
  sortBy<T>(list: readonly T[], key: (t: T) => string): T[];
}
