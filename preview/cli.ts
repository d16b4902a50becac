#!/usr/bin/env node
/**
 * `notify-preview`: renders workflows' messages with the service's own renderer and writes HTML
 * files, PNG screenshots of emails and a Markdown summary for a pull request. Progress goes to
 * stderr; the summary's path to stdout.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { CONNECTION_HELP, CONNECTION_OPTIONS, connectionFailure, connectionFromOptions } from "../provider/cliConnection";
import { BROWSER_ENV, readChangeSource, renderPreviews, workflowsOfState, type ChangeSource } from "./index";

const HELP = `Usage: notify-preview --out DIR (--workflow ID... | --state FILE | --changed-from FILE) [options]

Asks the service to render each email, in-app, SMS, chat and push step and writes DIR/summary.md,
an HTML file per step and a PNG screenshot per email step.

What to render:
  --workflow ID          a workflow as the service has it; repeatable
  --state FILE           every workflow of a stack: FILE is \`pulumi stack export\` output
  --changed-from FILE    each workflow a change touches, before and after, side by side when they differ:
                         - \`pulumi preview --json\` output, or a \`pulumi preview --event-log\` file:
                           before is the service now, after is what \`pulumi up\` will write;
                         - \`pulumi stack export\` output: before is what the stack deployed,
                           after is the service now (what changed in the dashboard since)

Options:
  --out DIR              where the files go (created when missing)
  --payload FILE         the trigger payload to render with (a JSON object); default: the service's
                         example, built from each workflow's payloadSchema
  --browser PATH         the Chromium or Chrome to take screenshots with (else ${BROWSER_ENV},
                         else chromium, chromium-browser or google-chrome on PATH)
  --no-screenshots       write HTML only
${CONNECTION_HELP}
  --help                 show this help

Nothing on the service is changed. Without a browser the HTML is written and the summary says
why the screenshots were skipped.
`;

function usage(msg: string): never {
  process.stderr.write(`notify-preview: ${msg}\n\n${HELP}`);
  process.exit(2);
}

/** A file's JSON, or a usage error naming the option, the file and what is wrong. */
function readJson(option: string, file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    usage(`${option} ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    usage(`${option} ${file}: not JSON (${(err as Error).message})`);
  }
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        out: { type: "string" }, workflow: { type: "string", multiple: true }, state: { type: "string" }, "changed-from": { type: "string" },
        payload: { type: "string" }, browser: { type: "string" }, "no-screenshots": { type: "boolean" },
        ...CONNECTION_OPTIONS,
        help: { type: "boolean" },
      },
      strict: true,
    });
  } catch (err) {
    usage((err as Error).message);
  }
  const v = parsed.values as Record<string, unknown> & { out?: string; workflow?: string[]; state?: string; "changed-from"?: string; payload?: string; browser?: string; "no-screenshots"?: boolean; help?: boolean };
  if (v.help) {
    process.stdout.write(HELP);
    return;
  }
  if (!v.out) usage("--out DIR is required");
  if (!v.workflow?.length && !v.state && !v["changed-from"]) usage("say what to render: --workflow ID, --state FILE or --changed-from FILE");
  if (v.browser !== undefined && v["no-screenshots"]) usage("--browser and --no-screenshots exclude each other");

  const workflows = [...(v.workflow ?? [])];
  if (v.state) {
    try {
      workflows.push(...workflowsOfState(readJson("--state", v.state)).map((w) => w.workflowId));
    } catch (err) {
      usage(`--state ${v.state}: ${(err as Error).message}`);
    }
  }
  let changes: ChangeSource | undefined;
  if (v["changed-from"]) {
    const file = v["changed-from"];
    try {
      changes = readChangeSource(readFileSync(file, "utf8"));
    } catch (err) {
      usage(`--changed-from ${file}: ${(err as NodeJS.ErrnoException).code ? `cannot read it (${(err as NodeJS.ErrnoException).code})` : (err as Error).message}`);
    }
  }
  let payload: Record<string, unknown> | undefined;
  if (v.payload) {
    const p = readJson("--payload", v.payload);
    if (typeof p !== "object" || p === null || Array.isArray(p)) usage(`--payload ${v.payload}: must hold a JSON object (the trigger payload), got ${Array.isArray(p) ? "an array" : JSON.stringify(p)}`);
    payload = p as Record<string, unknown>;
  }

  const log = (line: string) => process.stderr.write(`notify-preview: ${line}\n`);
  try {
    const result = await renderPreviews({
      out: v.out,
      connection: connectionFromOptions(v),
      workflows: [...new Set(workflows)],
      changes,
      payload,
      browser: v["no-screenshots"] ? false : v.browser,
      progress: log,
    });
    if ("skipped" in result.screenshots) log(`screenshots skipped: ${result.screenshots.skipped}`);
    for (const m of result.missing) log(`workflow ${JSON.stringify(m)} is not on the service`);
    log(`${result.steps.length} steps, ${result.steps.filter((s) => s.changed).length} changed`);
    process.stdout.write(`${result.summary}\n`);
  } catch (err) {
    const line = connectionFailure("notify-preview", err, v);
    if (line) {
      process.stderr.write(`${line}\n`);
      process.exit(1);
    }
    throw err;
  }
}

void main();
