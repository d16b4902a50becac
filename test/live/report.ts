/**
 * The live run's report: per kind, function and probe, passed, failed (with the exchange and what
 * was expected), unsupported (with what it needs) or emulator-only; and, per probe, the emulator's
 * answer beside the live one, field by field. Written as JSON and Markdown into one folder.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Exchange } from "./service";

export type Verdict = "passed" | "failed" | "unsupported" | "emulator-only";

export interface Result {
  area: "kind" | "function" | "probe";
  name: string;
  verdict: Verdict;
  /** Why, for every verdict but passed: the failure, what it needs, what it needed of the emulator. */
  detail?: string;
  /** For a failure: the suite's last exchanges with the service. */
  exchanges?: Exchange[];
}

/** One difference between the live answer and the emulator's, at a path of the body. */
export interface FieldDifference {
  path: string;
  difference: "only live" | "only emulator" | "type" | "value" | "status";
  live?: unknown;
  emulator?: unknown;
}

export interface Differential {
  probe: string;
  differences: FieldDifference[];
}

export interface LiveReport {
  address: string;
  version: string | null;
  /** production ({data} envelope) or spec (api.md bodies), as the answers showed. */
  mode: string;
  environment: string;
  prefix: string;
  frontEnd: string;
  started: string;
  finished?: string;
  /** Requests the suite sent to the service: its own, and the engine's through the counting relay. */
  requests: { suite: number; engine: number };
  results: Result[];
  differential: Differential[];
  cleanup?: { removed: number; failed: string[] };
}

/** Keys whose values differ on every run (ids, times, generated slugs): compared by type only. */
const VOLATILE = /(^|\.)(_id|id|_[a-zA-Z]+Id|[a-zA-Z]*At|transactionId|next|previous|cursor|key|token|apiKey|slug|date|timestamp|identifier|contentHash|hash|version|__v|totalCount|totalCountCapped|hasMore|page|pageSize)$/;

const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/**
 * The leaves of a body by path, every list index written `[]` (two environments hold different
 * objects, in another order: what is compared is the shape of an element, not which it is); per
 * path the types found, and the value where the path holds one value outside a list.
 */
function leaves(v: unknown, at = "", out = new Map<string, { types: Set<string>; values: unknown[] }>()) {
  if (v && typeof v === "object" && Object.keys(v).length > 0) {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) leaves(x, Array.isArray(v) ? `${at}[]` : at ? `${at}.${k}` : k, out);
  } else {
    const leaf = out.get(at) ?? { types: new Set<string>(), values: [] };
    leaf.types.add(typeOf(v));
    leaf.values.push(v);
    out.set(at, leaf);
  }
  return out;
}

/**
 * The differences of two answers of one probe: paths one has and the other lacks, values of
 * another type, and values that differ outside lists where they are not ids, times or slugs
 * ({@link VOLATILE}).
 */
export function compareAnswers(live: { status: number; body: unknown }, emulator: { status: number; body: unknown }): FieldDifference[] {
  const out: FieldDifference[] = [];
  if (live.status !== emulator.status) out.push({ path: "(status)", difference: "status", live: live.status, emulator: emulator.status });
  const l = leaves(live.body);
  const e = leaves(emulator.body);
  const types = (x: { types: Set<string> }) => [...x.types].sort().join("|");
  for (const [p, v] of l) {
    const other = e.get(p);
    if (!other) out.push({ path: p, difference: "only live", live: v.values[0] });
    else if (types(v) !== types(other)) out.push({ path: p, difference: "type", live: types(v), emulator: types(other) });
    else if (!p.includes("[]") && !VOLATILE.test(p) && typeof v.values[0] !== "object" && v.values[0] !== other.values[0]) {
      out.push({ path: p, difference: "value", live: v.values[0], emulator: other.values[0] });
    }
  }
  for (const [p, v] of e) if (!l.has(p)) out.push({ path: p, difference: "only emulator", emulator: v.values[0] });
  return out;
}

const cell = (v: unknown) => (v === undefined ? "" : `\`${JSON.stringify(v).replace(/\|/g, "\\|").slice(0, 120)}\``);

/** The report as Markdown. */
export function markdown(r: LiveReport): string {
  const count = (v: Verdict) => r.results.filter((x) => x.verdict === v).length;
  const lines = [
    `# Live acceptance run against ${r.address}`,
    "",
    `- Server version: ${r.version ?? "not said (no health check)"}; answers in ${r.mode} mode; environment ${r.environment}`,
    `- Run prefix: \`${r.prefix}\`; front end: ${r.frontEnd}; ${r.started} to ${r.finished ?? "(unfinished)"}`,
    `- Requests sent: ${r.requests.suite} by the suite, ${r.requests.engine} by the provider under the engine`,
    `- ${count("passed")} passed, ${count("failed")} failed, ${count("unsupported")} unsupported, ${count("emulator-only")} emulator-only`,
    ...(r.cleanup ? [`- Cleanup: ${r.cleanup.removed} objects removed${r.cleanup.failed.length ? `; not removed: ${r.cleanup.failed.join("; ")}` : ""}`] : []),
    "",
  ];
  for (const area of ["kind", "function", "probe"] as const) {
    const rows = r.results.filter((x) => x.area === area);
    if (!rows.length) continue;
    lines.push(`## ${area === "kind" ? "Kinds" : area === "function" ? "Functions" : "Probes"}`, "", "| | Verdict | Detail |", "|---|---|---|");
    for (const x of rows) lines.push(`| ${x.name} | ${x.verdict} | ${(x.detail ?? "").replace(/\|/g, "\\|").replace(/\n/g, " ").slice(0, 400)} |`);
    lines.push("");
  }
  const failed = r.results.filter((x) => x.verdict === "failed" && x.exchanges?.length);
  if (failed.length) {
    lines.push("## Failures, with the suite's last exchanges", "");
    for (const x of failed) {
      lines.push(`### ${x.area} ${x.name}`, "", "```", x.detail ?? "", "", ...x.exchanges!.map((e) => `${e.method} ${e.path} ${e.body === undefined ? "" : JSON.stringify(e.body).slice(0, 300)}\n  -> ${e.status} ${JSON.stringify(e.answer).slice(0, 500)}`), "```", "");
    }
  }
  lines.push("## The emulator's answers beside the live ones", "",
    "Each probe sent to both, the emulator in production mode. Lists are compared by the shape of their elements (the two environments hold different objects); ids, times and slugs by type only.", "");
  const differing = r.differential.filter((d) => d.differences.length);
  lines.push(`${r.differential.length - differing.length} of ${r.differential.length} probes answered alike.`, "");
  for (const d of differing) {
    lines.push(`### ${d.probe}`, "", "| Path | Difference | Live | Emulator |", "|---|---|---|---|");
    for (const f of d.differences.slice(0, 40)) lines.push(`| \`${f.path}\` | ${f.difference} | ${cell(f.live)} | ${cell(f.emulator)} |`);
    if (d.differences.length > 40) lines.push(`| ... | ${d.differences.length - 40} more in report.json | | |`);
    lines.push("");
  }
  return lines.join("\n");
}

/** Writes report.json and report.md into `dir`; returns their paths. */
export function writeReport(dir: string, r: LiveReport): { json: string; md: string } {
  mkdirSync(dir, { recursive: true });
  const json = path.join(dir, "report.json");
  const md = path.join(dir, "report.md");
  writeFileSync(json, JSON.stringify(r, null, 2) + "\n");
  writeFileSync(md, markdown(r) + "\n");
  return { json, md };
}
