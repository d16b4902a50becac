/**
 * Renders docs/verification.md from docs/verification.json: the published verdicts of the long
 * checks that run outside `npm test` (the oracle of exact diffs over random stacks,
 * `npm run test:oracle`; the exporter's property over random environments, `npm run test:export`),
 * each with its seed, how many cases ran, what it found, and the commit, machine and date of
 * its run; and the history of whole-suite runs (`.ci/run` on a fresh clone: its tally, files
 * and duration), which are kept one after another rather than replaced.
 *
 * A verdict is read from the run's own output (vitest's log of the check, saved with `tee`): the
 * check prints its seed first and a line per case, so a run stopped early still publishes what it
 * covered, marked as such.
 *
 *   npm run test:export 2>&1 | tee export.log
 *   npm run verdicts -- --publish export export.log [--commit <id>]
 *
 * `--commit` names the code that ran when the log comes from another checkout (default: this one's
 * HEAD). A suite run that failed and whose log was lost is recorded with
 * `npm run verdicts -- --lost --commit <id> --before <ISO date> --why <what is known>`. `npm run verdicts` alone re-renders the page; test/unit/scripts/render-verdicts.test.ts
 * fails when the page is not the rendering of the committed data.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runInfo, type RunInfo } from "./runInfo";
import { REPO_ROOT } from "./workspace";

export const VERDICT_DATA = "docs/verification.json";
export const VERDICT_PAGE = "docs/verification.md";

/** The long checks, their commands and what one case is. */
export const CHECKS = {
  oracle: { command: "npm run test:oracle", planned: "ORACLE_RUNS", unit: "stacks", about: "Random stacks of every resource kind through the real engine against the emulator, in both of its modes and through both front ends in turn (the dynamic resources, the native plugin): after `up`, empty previews; one hand edit behind the engine's back, which `preview --refresh` must show exactly, down to each value the CLI displays (a spurious diff is a change shown that the edit did not make; a missed drift is the edit not shown); `up --refresh` restores it; `destroy` leaves nothing." },
  export: { command: "npm run test:export", planned: "EXPORT_K", unit: "environments", about: "Random environments made through the provider's create on the emulator, exported by `notify-export` (TypeScript, dynamic front end) and taken over by the real engine: the first `up` writes nothing but the secret values the service masks (counted exactly), and the next `preview` and `preview --refresh` show no change." },
  migration: { command: "npm run test:export", planned: "EXPORT_K", unit: "environments", about: "Half as many random environments as EXPORT_K says, of every kind, made on one emulator (in api.md's mode or production's) and moved to a second, empty one by a portable export (`notify-export --portable`, TypeScript) run by the real engine: the two then compare equal (`notify-export --diff`), a preview is empty, and, between production-mode servers, a portable export of the second is the first's byte for byte (but for the environment's id)." },
  suite: { command: "CI=true bash .ci/run", planned: "", unit: "tests", about: "The whole suite as CI runs it (set-up, then `npm test`) on a fresh clone: each run's tally, test files, vitest's duration and the whole run's time (set-up included), newest last. Runs are kept, not replaced, so consecutive runs without a failure can be counted." },
} as const;
/** How many suite runs the page keeps. */
const SUITE_HISTORY = 10;
export type Check = keyof typeof CHECKS;

/** One published verdict. */
export interface Verdict extends RunInfo {
  check: Check;
  /** The seed that replays the run (the property checks; not the suite). */
  seed?: number;
  /** The cases the run was asked for, and those it finished. */
  planned: number;
  completed: number;
  /** The cases that failed (a spurious diff or a missed drift; an unexpected write or a diff). */
  failed: number;
  /** The check's own summary of its findings. */
  findings: string;
}

/** The verdict of a check's log (vitest's output of `npm run test:oracle` or `test:export`). */
export function verdictOfLog(check: Check, log: string): Omit<Verdict, keyof RunInfo> {
  const text = log.replace(/\u001b\[[0-9;]*m/g, "");
  if (check === "oracle") {
    const seed = /oracle: seed (\d+) \(replay with ORACLE_SEED=\d+ ORACLE_RUNS=(\d+)\)/.exec(text);
    if (!seed) throw new Error("no `oracle: seed` line in the log: is it the output of npm run test:oracle?");
    const stacks = new Set([...text.matchAll(/^oracle: stack (\d+): /gm)].map((m) => m[1]));
    const failing = new Set([...text.matchAll(/^oracle: stack (\d+) \(seed /gm)].map((m) => m[1]));
    const final = /^oracle: (\d+) stacks, (\d+) spurious diffs, (\d+) missed drifts$/m.exec(text);
    return {
      check, seed: Number(seed[1]), planned: Number(seed[2]), completed: stacks.size, failed: failing.size,
      findings: final ? `${final[2]} spurious diffs, ${final[3]} missed drifts` : "no verdict line (the run stopped early)",
    };
  }
  if (check === "suite") {
    const tallies = [...text.matchAll(/^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/gm)];
    const tally = tallies[tallies.length - 1];
    if (!tally) throw new Error("no `<P> passed, <F> failed` line in the log: is it the output of .ci/run or npm test?");
    // `npm test` runs each layer as a vitest run of its own (scripts/test-layers.ts): its files and
    // durations add up, and its last tally line counts every layer's tests.
    const sum = (re: RegExp) => [...text.matchAll(re)].reduce<number | undefined>((total, m) => (total ?? 0) + Number(m[1]), undefined);
    const files = sum(/Test Files .*?\((\d+)\)/g);
    const duration = sum(/Duration\s+([\d.]+)s/g);
    // .ci/run's own line; a log of `npm test` alone has none.
    const whole = /^ci: the whole run took (\d+) s/m.exec(text);
    const caches = /^ci: caches at the start: (.+)$/m.exec(text);
    const [passed, failed, skipped] = [Number(tally[1]), Number(tally[2]), Number(tally[3] ?? 0)];
    return {
      check, planned: passed + failed + skipped, completed: passed + failed, failed,
      findings: `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}; ${files !== undefined ? `${files} test files` : "test files not shown"}; vitest's duration ${duration !== undefined ? `${Math.round(duration)} s` : "not shown"}${whole ? `; the whole run ${whole[1]} s` : ""}${caches ? `; caches at the start: ${caches[1]}` : ""}`,
    };
  }
  if (check === "migration") {
    const seed = /migration property: seed (\d+) \(replay with EXPORT_SEED=\d+ EXPORT_K=(\d+)\)/.exec(text);
    if (!seed) throw new Error("no `migration property: seed` line in the log: is it the output of npm run test:export?");
    const runs = [...text.matchAll(/^migration property: environment (\d+) \(.*?\): .*: (.*)$/gm)].map((m) => ({ n: m[1], moved: m[2] === "moved" }));
    const bad = runs.filter((r) => !r.moved);
    return {
      check, seed: Number(seed[1]), planned: Math.ceil(Number(seed[2]) / 2), completed: new Set(runs.map((r) => r.n)).size, failed: bad.length,
      findings: `${runs.length - bad.length} moved whole, ${bad.length} not`,
    };
  }
  const seed = /export property: seed (\d+) \(replay with EXPORT_SEED=\d+ EXPORT_K=(\d+)\)/.exec(text);
  if (!seed) throw new Error("no `export property: seed` line in the log: is it the output of npm run test:export?");
  const runs = [...text.matchAll(/^export property: environment (\d+): .*: (\{.*\})$/gm)].map((m) => ({ n: m[1], result: JSON.parse(m[2]!) as { unexpectedWrites: string[]; changes: string[] } }));
  const bad = runs.filter((r) => r.result.unexpectedWrites.length || r.result.changes.length);
  return {
    check, seed: Number(seed[1]), planned: Number(seed[2]), completed: new Set(runs.map((r) => r.n)).size, failed: bad.length,
    findings: `${bad.reduce((a, r) => a + r.result.unexpectedWrites.length, 0)} unexpected writes, ${bad.reduce((a, r) => a + r.result.changes.length, 0)} changes shown`,
  };
}

/**
 * A suite run that failed and whose log is lost (overwritten before it was published): recorded
 * so that the count of consecutive clean runs does not pass over it. `before` is when the run had
 * certainly ended (an ISO date: the commit that followed it, say), and places it among the others.
 */
export function lostSuiteRun(commit: string, before: string, why: string, info: RunInfo): Verdict {
  if (Number.isNaN(Date.parse(before))) throw new Error(`--before must be an ISO date, not "${before}"`);
  if (!why.trim()) throw new Error("--why must say what the run did, as far as it is known");
  return { ...info, check: "suite", planned: 0, completed: 1, failed: 1, commit, date: new Date(before).toISOString(), findings: `failed; its log is lost, so this is all that is known: ${why.trim()} (the date is when the run had ended by)` };
}

/** The published data after a run: the run's verdict replaces the published one of its check. */
export function publishVerdict(published: Verdict[], run: Verdict): Verdict[] {
  // A suite run joins the history (the newest SUITE_HISTORY kept); a check's verdict replaces its last.
  // In the order they ran (a lost run's record may come after later runs were published).
  if (run.check === "suite") {
    const suites = [...published.filter((v) => v.check === "suite"), run].sort((a, b) => a.date.localeCompare(b.date)).slice(-SUITE_HISTORY);
    return [...published.filter((v) => v.check !== "suite"), ...suites].sort((a, b) => a.check.localeCompare(b.check));
  }
  const kept = published.filter((v) => v.check !== run.check);
  return [...kept, run].sort((a, b) => a.check.localeCompare(b.check));
}

/** The page of the verdicts. */
export function renderVerdicts(data: Verdict[]): string {
  const lines = [
    "# Verification",
    "",
    "<!-- Generated by scripts/render-verdicts.ts from docs/verification.json: run `npm run verdicts` (`-- --publish <check> <log>` after a run). -->",
    "",
    "The long checks that run outside `npm test` (which runs a few cases of each). Each verdict is the published run's: its seed replays it.",
    "",
  ];
  for (const [check, c] of Object.entries(CHECKS) as [Check, (typeof CHECKS)[Check]][]) {
    lines.push(`## ${check}: \`${c.command}\``, "", c.about, "");
    if (check === "suite") {
      const runs = data.filter((d) => d.check === "suite");
      if (!runs.length) { lines.push("No run is published yet.", ""); continue; }
      let clean = 0;
      for (let i = runs.length - 1; i >= 0 && runs[i]!.failed === 0 && runs[i]!.completed > 0; i--) clean++;
      lines.push(`Consecutive runs without a failure, up to the newest: ${clean}.`, "", "| Date | Commit | Result | Machine |", "|---|---|---|---|");
      for (const r of runs) lines.push(`| ${r.date} | \`${r.commit}\` | ${r.findings} | ${r.machine.cores} cores, ${r.machine.cpu} |`);
      lines.push("");
      continue;
    }
    const v = data.find((d) => d.check === check);
    if (!v) { lines.push("No run is published yet.", ""); continue; }
    const stopped = v.completed < v.planned ? ` (stopped after ${v.completed} of ${v.planned})` : "";
    lines.push(
      `- Verdict: ${v.completed} ${c.unit}${stopped}, ${v.failed} failing; ${v.findings}`,
      // The migration runs half as many environments as EXPORT_K says (test/property/migration.test.ts).
      `- Replay: \`${c.planned}=${check === "migration" ? v.planned * 2 : v.planned} ${check === "oracle" ? "ORACLE_SEED" : "EXPORT_SEED"}=${String(v.seed)} ${c.command}\``,
      `- Commit: \`${v.commit}\``,
      `- Date: ${v.date}`,
      `- Machine: ${Object.entries(v.machine).map(([k, x]) => `${k} ${String(x)}`).join(", ")}`,
      `- Versions: ${Object.entries(v.versions).map(([k, x]) => `${k} ${String(x)}`).join(", ")}`,
      "",
    );
  }
  return lines.join("\n");
}

/** The page of the committed data. */
export function verificationPage(root = REPO_ROOT): string {
  return renderVerdicts(JSON.parse(readFileSync(path.join(root, VERDICT_DATA), "utf8")) as Verdict[]);
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--publish");
  const value = (flag: string) => { const i = args.indexOf(flag); return i >= 0 ? args[i + 1] : undefined; };
  if (args.includes("--lost")) {
    const [commit, before, why] = [value("--commit"), value("--before"), value("--why")];
    if (!commit || !before || why === undefined) throw new Error("usage: --lost --commit <id> --before <ISO date> --why <what is known of the run>");
    const data = JSON.parse(readFileSync(path.join(REPO_ROOT, VERDICT_DATA), "utf8")) as Verdict[];
    writeFileSync(path.join(REPO_ROOT, VERDICT_DATA), JSON.stringify(publishVerdict(data, lostSuiteRun(commit, before, why, runInfo())), null, 2) + "\n");
  } else if (at >= 0) {
    const check = args[at + 1] as Check;
    const log = args[at + 2];
    if (!(check in CHECKS) || !log) throw new Error(`usage: --publish <${Object.keys(CHECKS).join("|")}> <log> [--commit <id>]`);
    const commitAt = args.indexOf("--commit");
    const info = runInfo();
    // The run's date is its log's (last written when it ended); the machine is this one (publish where it ran).
    const verdict: Verdict = { ...verdictOfLog(check, readFileSync(log, "utf8")), ...info, date: statSync(log).mtime.toISOString(), commit: commitAt >= 0 ? args[commitAt + 1]! : info.commit };
    const data = JSON.parse(readFileSync(path.join(REPO_ROOT, VERDICT_DATA), "utf8")) as Verdict[];
    writeFileSync(path.join(REPO_ROOT, VERDICT_DATA), JSON.stringify(publishVerdict(data, verdict), null, 2) + "\n");
  }
  writeFileSync(path.join(REPO_ROOT, VERDICT_PAGE), verificationPage());
  console.log(`wrote ${VERDICT_PAGE} from ${VERDICT_DATA}`);
}
