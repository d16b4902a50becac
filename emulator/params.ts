/**
 * Query parameter readers for what the contract does not say (integer ranges, sort fields,
 * dates, the `type:id` form). The contract step has already checked types and enumerations;
 * a failure here is collected and answered as the same 422 validation error.
 */
import { validationFailed } from "./errors";

/** Collects the messages of one request's parameter checks. */
export class ParamReader {
  private readonly errors: string[] = [];
  constructor(private readonly q: URLSearchParams) {}

  int(name: string, def: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.q.get(name);
    if (raw === null) return def;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      this.errors.push(`${name}: must be an integer from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ""}`);
      return def;
    }
    return n;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], def: T): T {
    const raw = this.q.get(name);
    if (raw === null) return def;
    if (!allowed.includes(raw as T)) {
      this.errors.push(`${name}: must be one of ${allowed.join(", ")}`);
      return def;
    }
    return raw as T;
  }

  /** Every value of a repeated parameter, each one of `allowed`. */
  allOf(name: string, allowed: readonly string[]): string[] {
    const values = this.q.getAll(name);
    if (values.some((v) => !allowed.includes(v))) this.errors.push(`${name}: each value must be one of ${allowed.join(", ")}`);
    return values;
  }

  bool(name: string, def: boolean): boolean {
    const raw = this.q.get(name);
    return raw === null ? def : raw === "true";
  }

  /** Milliseconds since the epoch, or undefined when absent. */
  date(name: string): number | undefined {
    const raw = this.q.get(name);
    if (raw === null) return undefined;
    const t = Date.parse(raw);
    if (!Number.isFinite(t)) this.errors.push(`${name}: must be an ISO 8601 timestamp`);
    return Number.isFinite(t) ? t : undefined;
  }

  /** Context keys (`type:id`), matched as an order-insensitive exact set; undefined when absent. */
  contextKeys(): string[] | undefined {
    const keys = this.q.getAll("contextKeys");
    if (!keys.length) return undefined;
    for (const k of keys) if (!/^[^:\s]+:[^:\s]+$/.test(k)) this.errors.push(`contextKeys: ${JSON.stringify(k)} must have the form type:id`);
    return keys;
  }

  /** Throws the 422 validation error if any check failed. */
  done(): void {
    if (this.errors.length) throw validationFailed(this.errors);
  }
}

/** Whether two lists hold the same set of strings. */
export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a), sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}

/** Newest first, then by id. */
export function byCreatedDesc(a: { createdAt: string; _id: string }, b: { createdAt: string; _id: string }): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a._id < b._id ? 1 : -1;
}
