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
  const listings = new Set<string>();
  const read = new Map<ResourceKind, number>();
  for (const o of objects) {
    const floor = DESCRIPTORS[o.kind].floor;
    const counts = floor.of(o.inputs);
    for (const op of FLOOR_OPS) total[op] += counts[op];
    if (floor.listing) listings.add(floor.listing);
    // From a kind's second read on, its listed read comes from one shared page.
    const before = read.get(o.kind) ?? 0;
    read.set(o.kind, before + 1);
    if (floor.listedRead && before >= 1) {
      total.read -= 1;
      listings.add(floor.listedRead);
    }
  }
  total.read += listings.size;
  return total;
}
