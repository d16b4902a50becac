/**
 * A live run's names: every identifier the suite's objects have on the emulator (`scenario-news`,
 * `alice`, `SCENARIO_URL`, ...) carries the run prefix on the live service (`lvk3x9a2-scenario-news`,
 * `LVK3X9A2_SCENARIO_URL`). The descriptors of test/kinds, written for the emulator, run unchanged:
 * what they send is renamed on its way to the service, and what the service answers is renamed
 * back. A name is renamed wherever it stands whole as a value, a segment of a path (between `/`
 * or `:`) or a query value; never as a key, which may be a field's name (`read` is an agent's
 * identifier in one probe, and a message's field). An id paired with another ({@link pair}: the
 * environment's) is renamed as a key too (a variable's values are keyed by environment id). The
 * renaming is one-to-one, so nothing is lost either way.
 *
 * The names are those the suite makes (collected on an emulator by test/live/names.ts), never one
 * a fresh environment holds (`Development`), so no object of the environment's own is named.
 */

/** A run prefix: a lower-case letter, then 3 to 15 lower-case letters or digits. */
export const PREFIX_PATTERN = /^[a-z][a-z0-9]{3,15}$/;

/** A fresh run prefix: `lv` and 6 random base-36 characters. */
export function newPrefix(): string {
  return `lv${Math.random().toString(36).slice(2, 8).padEnd(6, "0")}`;
}

/** Whether `name` is upper case with underscores (an environment variable's key): its prefix is written so too. */
const SHOUTED = /^[A-Z][A-Z0-9_]*$/;

type Json = unknown;

export class Namespace {
  private readonly forward = new Map<string, string>();
  private readonly back = new Map<string, string>();
  private readonly keysForward = new Map<string, string>();
  private readonly keysBack = new Map<string, string>();

  constructor(readonly prefix: string) {
    if (!PREFIX_PATTERN.test(prefix)) throw new Error(`run prefix ${JSON.stringify(prefix)}: must be a lower-case letter then 3 to 15 lower-case letters or digits`);
  }

  /** `name` as the live service holds it. */
  liveName(name: string): string {
    return SHOUTED.test(name) ? `${this.prefix.toUpperCase()}_${name}` : `${this.prefix}-${name}`;
  }

  /** Whether an identifier carries this run's prefix (as {@link liveName} writes it). */
  ours(identifier: string): boolean {
    return carriesPrefix(this.prefix, identifier);
  }

  /** Renames `name` on the service. */
  add(name: string): void {
    if (this.forward.has(name)) return;
    const live = this.liveName(name);
    this.forward.set(name, live);
    this.back.set(live, name);
  }

  /** Renames `from` to `to` (an id the emulator gives, the live service another). */
  pair(from: string, to: string): void {
    this.forward.set(from, to);
    this.back.set(to, from);
    this.keysForward.set(from, to);
    this.keysBack.set(to, from);
  }

  /** The names renamed, for the report. */
  get size(): number {
    return this.forward.size;
  }

  toLive<T extends Json>(v: T): T {
    return rename(v, this.forward, this.keysForward) as T;
  }

  fromLive<T extends Json>(v: T): T {
    return rename(v, this.back, this.keysBack) as T;
  }

  /** A request path (with its query) as the service is asked. */
  pathToLive(path: string): string {
    return renamePath(path, this.forward);
  }
}

/** Whether `identifier` carries `prefix` as a live run writes it: `prefix-...`, `PREFIX_...`. */
export function carriesPrefix(prefix: string, identifier: string): boolean {
  const id = identifier.toLowerCase();
  return id.startsWith(`${prefix}-`) || id.startsWith(`${prefix}_`);
}

/** A string renamed whole, else segment by segment (between `/` and `:`) when a segment is a name. */
function renameString(s: string, names: ReadonlyMap<string, string>): string {
  const whole = names.get(s);
  if (whole !== undefined) return whole;
  if (!/[/:]/.test(s)) return s;
  const parts = s.split(/([/:])/);
  let changed = false;
  const out = parts.map((p) => {
    const n = names.get(p);
    if (n === undefined) return p;
    changed = true;
    return n;
  });
  return changed ? out.join("") : s;
}

function rename(v: Json, names: ReadonlyMap<string, string>, keys: ReadonlyMap<string, string>): Json {
  if (typeof v === "string") return renameString(v, names);
  if (Array.isArray(v)) return v.map((x) => rename(x, names, keys));
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v as Record<string, Json>).map(([k, x]) => [keys.get(k) ?? k, rename(x, names, keys)]));
  }
  return v;
}

function renamePath(path: string, names: ReadonlyMap<string, string>): string {
  const [p, q] = path.split("?", 2) as [string, string | undefined];
  const segments = p.split("/").map((seg) => {
    const decoded = decodeURIComponent(seg);
    const renamed = renameString(decoded, names);
    return renamed === decoded ? seg : encodeURIComponent(renamed);
  });
  if (q === undefined) return segments.join("/");
  const params = new URLSearchParams(q);
  const renamed = new URLSearchParams();
  for (const [k, v] of params) renamed.append(k, renameString(v, names));
  return `${segments.join("/")}?${renamed.toString()}`;
}
