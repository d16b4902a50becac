/**
 * The request floor of a set of objects (each kind's `floor`, test/kinds/<kind>.ts): per operation,
 * the sum of each object's, and for reads one request per listing the objects' kinds read from
 * (a kind's `listedRead` serves one request of each of its reads after the first).
 * The bench sets what it measured against it (bench/programs.ts); the tests assert it.
 */
import type { ResourceKind } from "../../provider/resources/index";
import type { Obj, RequestCounts } from "./descriptor";
import { DESCRIPTORS } from "./index";

/** The operations a floor counts. */
export const FLOOR_OPS = ["create", "read", "update", "delete"] as const satisfies readonly (keyof RequestCounts)[];

/** The floor of `objects`, each a kind and its declared inputs. */
export function floorOf(objects: readonly { kind: ResourceKind; inputs: Obj }[]): RequestCounts {
  const total: RequestCounts = { create: 0, read: 0, update: 0, delete: 0 };
  for (const o of objects) {
    const counts = DESCRIPTORS[o.kind].floor.of(o.inputs);
    for (const op of FLOOR_OPS) if (op !== "read") total[op] += counts[op];
  }
  total.read = readsOf(objects).reduce((a, b) => a + b, 0);
  return total;
}

/**
 * The requests of each object's read in the floor, in order: its own, less the one a kind's listed
 * read takes from the shared page from its second read on, plus each listing page (`listing`,
 * `listedRead`) it is the first to need. Their sum is the floor's reads; an object with none is
 * read from a page another object's read fetched (the bench's waiting baseline waits for the others).
 */
export function readsOf(objects: readonly { kind: ResourceKind; inputs: Obj }[]): number[] {
  const listings = new Set<string>();
  const read = new Map<ResourceKind, number>();
  const page = (listing: string) => (listings.has(listing) ? 0 : (listings.add(listing), 1));
  return objects.map((o) => {
    const floor = DESCRIPTORS[o.kind].floor;
    let requests = floor.of(o.inputs).read;
    if (floor.listing) requests += page(floor.listing);
    const before = read.get(o.kind) ?? 0;
    read.set(o.kind, before + 1);
    // From a kind's second read on, its listed read comes from one shared page.
    if (floor.listedRead && before >= 1) requests += page(floor.listedRead) - 1;
    return requests;
  });
}
