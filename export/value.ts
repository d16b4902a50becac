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

/** A secret value: the stack config key the program reads it from with `requireSecret`. */
export class SecretRef {
  constructor(readonly key: string) {}
}

/** A value as a renderer writes it: JSON, references and secrets. */
export type Value = null | boolean | number | string | Value[] | { [key: string]: Value } | Ref | SecretRef;

/** Whether `v` is exactly the mask the service shows for a secret value. */
export const isMasked = (v: unknown): boolean => v === SECRET_MASK;
