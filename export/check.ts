/**
 * `notify-export --check STATE`: a stack's state (the JSON of `pulumi stack export`) beside the
 * service, after an outage or a failed run: the objects only in the state (gone from the service,
 * or made at another address), those only in the service (made outside the stack, or by a create
 * whose answer was lost: adopt or delete them), and those in both whose declared fields differ.
 */
import { RESOURCE_TABLES } from "../provider/resources";
import { project } from "../provider/resources/diff";
import type { ExportModel } from "./model";
import { ConfigFlag, Ref, SecretRef, type Value } from "./value";

/** One object, as the check names it. */
export interface CheckedObject {
  kind: string;
  /** The resource's name in the stack, else the export's name for it. */
  name: string;
  id: string;
}

/** What the check found. */
export interface CheckReport {
  onlyInState: CheckedObject[];
  onlyInService: CheckedObject[];
  differ: (CheckedObject & { fields: string[] })[];
  /** Whether state and service agree. */
  same: boolean;
}

/** One resource of the provider's in a state. */
export interface StateResource extends CheckedObject {
  inputs: Record<string, unknown>;
}

const TYPE = /^(?:pulumi-nodejs:dynamic\/notify:|notify:index:)(\w+)$/;
const KINDS = new Set(RESOURCE_TABLES.map((t) => t.name));

/** The provider's resources in the JSON of `pulumi stack export` (either front end's type). */
export function stateResources(state: unknown): StateResource[] {
  const deployment = (state as { deployment?: { resources?: unknown } } | undefined)?.deployment;
  const resources = Array.isArray(deployment?.resources) ? (deployment.resources as Record<string, unknown>[]) : undefined;
  if (!resources) throw new Error("not the JSON of `pulumi stack export`: it has no deployment.resources");
  const out: StateResource[] = [];
  for (const r of resources) {
    const kind = TYPE.exec(String(r.type ?? ""))?.[1];
    if (!kind || !KINDS.has(kind) || typeof r.id !== "string" || !r.id) continue;
    out.push({ kind, name: String(r.urn ?? "").replace(/^.*::/, ""), id: r.id, inputs: (r.inputs ?? {}) as Record<string, unknown> });
  }
  return out;
}

/** The subscribers the state's resources are about, so that the service is read for them too. */
export function stateSubscribers(resources: readonly StateResource[]): string[] {
  const ids = resources.filter((r) => r.kind.startsWith("Subscriber")).map((r) => r.inputs.subscriberId).filter((s): s is string => typeof s === "string");
  return [...new Set(ids)].sort();
}

/** A value the state holds encrypted (`pulumi stack export` without --show-secrets). */
const isStateSecret = (v: unknown) => typeof v === "object" && v !== null && "4dabf18193072939515e22adc298c5e6" in v;

/** A model value with no reference to another resource or to config, else undefined (it cannot be compared). */
function plain(v: Value): unknown {
  if (v instanceof Ref || v instanceof SecretRef || v instanceof ConfigFlag) return undefined;
  if (Array.isArray(v)) {
    const items = v.map(plain);
    return items.some((x) => x === undefined) ? undefined : items;
  }
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const p = plain(x as Value);
      if (p === undefined) return undefined;
      out[k] = p;
    }
    return out;
  }
  return v;
}

/** JSON with sorted keys, for comparing values whatever their key order. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(",")}]`;
  if (v && typeof v === "object") return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`).join(",")}}`;
  return JSON.stringify(v);
}

/**
 * The state's resources beside the service's objects (the export's model of the same environment,
 * read for the kinds the state holds). A field counts only where both sides hold a comparable
 * value: secrets, values the state holds encrypted, and references to other resources are left out.
 */
export function compareState(resources: readonly StateResource[], model: ExportModel): CheckReport {
  const key = (kind: string, id: string) => `${kind}\u0000${id}`;
  const service = new Map(model.resources.map((r) => [key(r.kind, r.id), r]));
  const inState = new Set(resources.map((r) => key(r.kind, r.id)));
  const onlyInState: CheckedObject[] = [];
  const differ: CheckReport["differ"] = [];
  for (const r of resources) {
    const live = service.get(key(r.kind, r.id));
    if (!live) {
      onlyInState.push({ kind: r.kind, name: r.name, id: r.id });
      continue;
    }
    const table = RESOURCE_TABLES.find((t) => t.name === r.kind)!;
    const fields = table.inputKeys.filter((k) => {
      if ((table.secretKeys as readonly string[]).includes(k) || (table.controlKeys as readonly string[]).includes(k)) return false;
      const declared = r.inputs[k];
      if (declared === undefined || isStateSecret(declared)) return false;
      const held = live.inputs[k] === undefined ? undefined : plain(live.inputs[k]!);
      if (held === undefined && live.inputs[k] !== undefined) return false;
      // Seen through what the program declared, as a refresh compares: the service's defaults are not a difference.
      return stable(declared) !== stable(project(held, declared));
    });
    if (fields.length) differ.push({ kind: r.kind, name: r.name, id: r.id, fields });
  }
  const kinds = new Set(resources.map((r) => r.kind));
  const onlyInService = model.resources.filter((r) => !inState.has(key(r.kind, r.id)) && kinds.has(r.kind)).map((r) => ({ kind: r.kind, name: r.name, id: r.id }));
  return { onlyInState, onlyInService, differ, same: !onlyInState.length && !onlyInService.length && !differ.length };
}

/** The report as text: a line per object, and what to run. */
export function renderCheck(report: CheckReport): string {
  if (report.same) return "The state and the service agree: every object of the state's kinds is in both, with the same declared fields.\n";
  const line = (o: CheckedObject) => `  ${o.kind} ${JSON.stringify(o.name)} (id ${o.id})`;
  const parts: string[] = [];
  if (report.onlyInState.length) {
    parts.push(`Only in the state (${report.onlyInState.length}): gone from the service, or at another address; \`pulumi refresh\` drops what the service says is gone.`, ...report.onlyInState.map(line));
  }
  if (report.onlyInService.length) {
    parts.push(`Only in the service (${report.onlyInService.length}), of the kinds the state holds: made outside the stack; declare them with adopt: true to manage them, or delete them.`, ...report.onlyInService.map(line));
  }
  if (report.differ.length) {
    parts.push(`In both, differing (${report.differ.length}): \`pulumi preview --refresh\` shows each change, \`pulumi up --refresh\` puts the declared values back.`, ...report.differ.map((o) => `${line(o)}: ${o.fields.join(", ")}`));
  }
  return `${parts.join("\n")}\n`;
}
