/**
 * What the kinds' generators (test/kinds/<kind>.ts, each kind's `inputs`) are made of: fast-check
 * arbitraries valid by construction, unicode and edge lengths included. Identifiers carry a
 * per-run suffix so runs never meet each other's objects.
 */
import fc from "fast-check";

type Obj = Record<string, unknown>;

/** Text without control characters (the inputs refuse them), unicode included, up to `max`. */
export const text = (min: number, max: number) =>
  fc.string({ unit: "grapheme", minLength: min, maxLength: max }).filter((s) => !/[\u0000-\u001f\u007f]/.test(s) && s.length <= max && s.length >= min);

const slugPart = fc.stringMatching(/^[a-z0-9]{1,8}$/);
/** A slug by the service's rule: segments joined by `-`, `_` or `.`. */
export const slug = fc.array(slugPart, { minLength: 1, maxLength: 3 }).chain((parts) =>
  fc.array(fc.constantFrom("-", "_", "."), { minLength: parts.length - 1, maxLength: parts.length - 1 })
    .map((seps) => parts.map((p, i) => (i ? seps[i - 1]! + p : p)).join("")));

const jsonLeaf = fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean());
/** A JSON object of up to four keys, one level of nesting. */
export const jsonObject: fc.Arbitrary<Obj> = fc.dictionary(fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9]{0,6}$/), fc.oneof(jsonLeaf, fc.dictionary(fc.stringMatching(/^[a-z]{1,5}$/), jsonLeaf, { maxKeys: 3 })), { maxKeys: 4 });

/** The arbitrary, or undefined (an input left out). */
export const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

/** Removes keys whose value is `undefined`, recursively. */
export function strip<T>(v: T): T {
  if (Array.isArray(v)) return v.map(strip) as T;
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, strip(x)])) as T;
  return v;
}
