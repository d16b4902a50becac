/**
 * The request floor of a set of objects (each kind's `floor`, test/kinds/<kind>.ts): per operation,
 * the sum of each object's, and for reads one request per listing the objects' kinds read from.
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
  for (const o of objects) {
    const floor = DESCRIPTORS[o.kind].floor;
    const counts = floor.of(o.inputs);
    for (const op of FLOOR_OPS) total[op] += counts[op];
    if (floor.listing) listings.add(floor.listing);
  }
  total.read += listings.size;
  return total;
}
