/**
 * What the registry of kinds (routes/index.ts) gives the rest of the emulator: the route table and
 * the store's empty lists. Nothing here names a kind.
 */
import type { EmulatorKind } from "./kind";
import type { StoredLists } from "./records";
import * as registry from "./routes/index";
import type { Route } from "./types";

type Registry = typeof registry;

/**
 * The registered kinds, ordered by name so the order is the same however the registry is loaded
 * (an ES module namespace lists its names sorted, a CommonJS one in source order). No request can
 * match routes of two kinds (test/unit/emulator/kinds.test.ts), so the order decides no match.
 */
export const KINDS: readonly EmulatorKind[] = Object.keys(registry)
  .sort()
  .map((name) => registry[name as keyof Registry]);

/** Every API operation the emulator serves, kind by kind, each kind's in its own order. */
export const ROUTES: readonly Route[] = KINDS.flatMap((k) => k.routes);

/** The lists the registered kinds make, as one object type. */
type Registered = UnionToIntersection<{ [N in keyof Registry]: ReturnType<Registry[N]["lists"]> }[keyof Registry]>;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/**
 * A list some route module adds to `StoredLists` while its kind is not in the registry: the build
 * fails here naming it (and the store would have no such list at run time).
 */
type Unregistered = Exclude<keyof StoredLists, keyof Registered>;
noneOf<Unregistered>();

/** Compiles only when `T` is empty: the error message names what `T` holds. */
function noneOf<T extends never>(): void {}

/**
 * The store's lists, all empty and new: those of every registered kind. A list two kinds both make
 * would make them share records, so it stops the emulator here.
 */
export function emptyLists(): StoredLists {
  const lists: Partial<Record<keyof StoredLists, unknown[]>> = {};
  for (const kind of KINDS) {
    for (const [name, records] of Object.entries(kind.lists()) as [keyof StoredLists, unknown[]][]) {
      if (name in lists) throw new Error(`two kinds of the emulator make the store list "${name}"; each list belongs to one kind (routes/index.ts)`);
      lists[name] = records;
    }
  }
  // Complete: every list of StoredLists is a registered kind's (checked above), and each kind's
  // lists are typed by its own augmentation of StoredLists.
  return lists as StoredLists;
}
