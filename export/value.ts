/**
 * The values of an exported resource's inputs beyond JSON: references to another exported
 * resource's output and secrets read from the stack's config. Their own module, so that the
 * kinds' parts (kinds.ts) make them without importing the model that imports those parts.
 */
import { SECRET_MASK } from "../provider/schemas";

/** A reference to an output of another exported resource (an email step's layout, credentials' integration). */
export class Ref {
  constructor(readonly target: string, readonly output: string) {}
}

/**
 * A value read from the stack's config: a secret (`requireSecret`), or, with `secret` false, a
 * plain value that belongs to one environment (`require`: a portable program's domain name, a
 * bridge URL, a variable's value).
 */
export class SecretRef {
  constructor(readonly key: string, readonly secret: boolean = true) {}
}

/**
 * A flag of the stack's config, false when unset: a portable program's `adopt` (config key
 * {@link ADOPT_KEY}), which the stack of the environment the objects came from sets, so that it
 * takes them over rather than being refused.
 */
export class ConfigFlag {
  constructor(readonly key: string) {}
}

/** The config key of a portable program's `adopt`. */
export const ADOPT_KEY = "adopt";

/** A value as a renderer writes it: JSON, references, secrets and config. */
export type Value = null | boolean | number | string | Value[] | { [key: string]: Value } | Ref | SecretRef | ConfigFlag;

/** Whether `v` is exactly the mask the service shows for a secret value. */
export const isMasked = (v: unknown): boolean => v === SECRET_MASK;
