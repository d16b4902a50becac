/**
 * Hand edits, as a person makes them in the dashboard: through the service's API, one declared
 * field of one object changed, or the object deleted. Each edit says which resource and which
 * input a `preview --refresh` must show changing. The edits of each kind are in its descriptor
 * (test/kinds/<kind>.ts).
 */
import type { TestEmulator } from "../helpers/emulator";
import { descriptorOf } from "../kinds/index";
import { ok, type Mode } from "../kinds/descriptor";

type Obj = Record<string, unknown>;

/** One resource of a random stack, as the program declares it. */
export interface Declared {
  name: string;
  /** A kind registered in test/kinds/index.ts. */
  kind: string;
  inputs: Obj;
}

/** What an edit changed: the resource, and the input (undefined for a deletion). */
export interface Edit {
  resource: string;
  field?: string;
  description: string;
  apply(emu: TestEmulator, id: string): Promise<void>;
}

/** The field edits possible on a declared resource (secret fields only where the service shows them). */
export function fieldEdits(r: Declared, mode: Mode): Edit[] {
  const edits: Edit[] = [];
  // The edit is made only for a declared field, so it is built only then.
  descriptorOf(r.kind).handEdits(r.inputs, mode, (field, description, make) => {
    if (r.inputs[field] !== undefined) edits.push({ resource: r.name, field, description: `${r.name}.${field}: ${description}`, apply: make() });
  });
  return edits;
}

/** Deleting the object behind the engine's back. */
export function deletion(r: Declared): Edit {
  const path = descriptorOf(r.kind).deletePath;
  return { resource: r.name, description: `${r.name} deleted`, apply: async (emu, id) => void (await ok(emu.api("DELETE", path(r.inputs, id)), `hand edit delete ${r.kind}`)) };
}
