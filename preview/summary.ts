/**
 * The Markdown summary of a `notify-preview` run, ready to post on a pull request: the changed
 * steps first, before and after side by side (the email's subject and screenshot, the other
 * channels' fields), then every other step; links and images are relative to the summary.
 */
import type { BrowserChoice } from "./screenshot";
import type { Side, StepReport } from "./report";

/** The heading of the changed steps. */
export const CHANGED_HEADING = "Changed steps";

/** The line of a run whose screenshots were skipped, with the reason. */
export const screenshotsSkipped = (reason: string): string => `Screenshots skipped: ${reason}. The HTML files are written.`;

/** Text for one table cell: no pipes or line breaks to break the row. */
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>");

/** A side of a step in a table cell: an email's subject and screenshot, another channel's fields. */
function showSide(side: Side | undefined, type: string): string {
  if (!side) return "";
  if (side.status === "absent" || side.status === "unavailable") return `_${cell(side.note ?? side.status)}_`;
  if (side.status === "empty") return "_the service rendered nothing (a template error, or the step is incomplete)_";
  const p = side.preview ?? {};
  const lines: string[] = [];
  if (type === "email") {
    if (typeof p.subject === "string") lines.push(`**Subject:** ${cell(p.subject)}`);
    if (side.png) lines.push(`![screenshot](${side.png})`);
  } else {
    for (const [k, v] of Object.entries(p)) lines.push(`**${k}:** ${cell(typeof v === "string" ? v : `\`${JSON.stringify(v)}\``)}`);
  }
  if (side.html) lines.push(`[HTML](${side.html})`);
  return lines.join("<br>");
}

const title = (s: StepReport) => `\`${s.workflowId}\` › \`${s.stepId}\` (${s.type})`;

/** The summary's Markdown. `comparing`: the kind of change source, when steps were compared. */
export function writeSummary(run: { steps: StepReport[]; missing: string[]; screenshots: BrowserChoice; comparing?: "plan" | "state" }): string {
  const out: string[] = ["# Notification previews", ""];
  if (run.comparing) {
    out.push(run.comparing === "plan"
      ? "Before: the service now. After: as the change declares it (rendered by the service with the planned control values)."
      : "Before: as the stack last deployed it (its state). After: the service now.", "");
  }
  out.push("path" in run.screenshots ? "Screenshots of emails taken with a headless Chromium." : screenshotsSkipped(run.screenshots.skipped), "");
  if (run.missing.length) out.push(`Not on the service: ${run.missing.map((m) => `\`${m}\``).join(", ")}.`, "");
  const changed = run.steps.filter((s) => s.changed);
  const others = run.steps.filter((s) => !s.changed);
  if (run.comparing) {
    out.push(`## ${CHANGED_HEADING}`, "");
    if (!changed.length) out.push("No step renders differently.", "");
    for (const s of changed) {
      out.push(`### ${title(s)}`, "", "| Before | After |", "|---|---|", `| ${showSide(s.sides.before, s.type)} | ${showSide(s.sides.after, s.type)} |`, "");
    }
  }
  if (others.length) {
    out.push(run.comparing ? "## Unchanged steps" : "## Steps", "", "| Step | Preview |", "|---|---|");
    for (const s of others) out.push(`| ${title(s)} | ${showSide(s.sides.current ?? s.sides.after, s.type)} |`);
    out.push("");
  }
  if (!run.steps.length) out.push("No step to render: only the steps of a delivery channel are.", "");
  return out.join("\n");
}
