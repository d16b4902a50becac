#!/usr/bin/env node
/**
 * `notify-export`: writes a Pulumi project that declares an existing environment of the service,
 * ready to be taken over by `pulumi up` without a change; with `--update DIR`, rewrites the
 * declarations of such a project from the service. Progress and skipped objects go to stderr; the
 * `pulumi config set --secret` lines to run go to stdout.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { CONNECTION_HELP as connectionHelp, CONNECTION_OPTIONS, connectionFailure, connectionFromOptions } from "../provider/cliConnection";
import { ExportError, checkState, diffEnvironments, exportEnvironment, updateProject } from "./index";
import { renderDiffMarkdown, renderDiffText } from "./diff";
import { optionOf, TOOL_SETTINGS } from "../provider/cliConnection";
import { renderCheck } from "./check";
import { configSetLines, nextSteps } from "./project";
import { FRONT_ENDS, LANGUAGES, type FrontEnd, type Language } from "./render/common";

const HELP = `Usage: notify-export --language ${LANGUAGES.join("|")} --out DIR [options]
       notify-export --update DIR [connection options]
       notify-export --diff --other-api-url URL --other-api-key KEY [--markdown] [connection options]

Reads the environment of an API key (integrations, workflows, layouts, translations, topics with
their subscribers, environment variables, contexts, inbound-email domains) and writes a Pulumi project that declares it as it is.
With --update, reads it again and rewrites the declarations file of a project it wrote (and no
other file), each object under the same name: git diff shows what changed on the service.

Options:
  --language LANG      ${LANGUAGES.slice(0, -1).join(", ")} or ${LANGUAGES.at(-1)}
  --front-end FE       dynamic (TypeScript only; the default for TypeScript) or native (the plugin)
  --out DIR            where to write the project (must be empty or new, unless --force)
  --environments       also declare the organisation's other environments (Environment resources)
  --subscriber ID      export this subscriber, its credentials and preferences; repeatable
  --project NAME       the Pulumi project name (default: the --out folder's name)
  --portable           a program that makes the same setup in any environment of any
                       installation: no import ids, and every value of the environment's own
                       (secrets, domain names, bridge URLs, variables' values) read from stack config
  --stack NAME         also make stack NAME of the project with your \`pulumi\` (PATH, backend,
                       secrets provider), holding this environment's config (the connection, the
                       values the service showed; for --portable, adopt: true)
  --environment-id ID  the key's environment, when the service does not show API keys
  --force              replace the contents of a non-empty --out
  --check STATE        compare a stack's state (the JSON of \`pulumi stack export\`, or - for stdin)
                       with the service: what is only in one of them, and what differs; exit 1
                       when they differ (with the connection options and --environment-id only)
  --update DIR         rewrite the declarations of the project in DIR from the service, with the
                       options it was exported with (so none of the options above)
  --diff               compare the key's environment with another (--other-api-url and
                       --other-api-key, else NOTIFY_OTHER_API_URL and NOTIFY_OTHER_API_KEY; of the
                       same installation or another): what is only in one, and each declared field
                       that differs, secrets left out; exit 1 when they differ. With --environments
                       and --subscriber as for an export
  --markdown           --diff's report as Markdown (a pull request's comment)
${connectionHelp}
  --help               show this help

Nothing on the service is changed. No secret is written to a file: each becomes a stack config
key. The steps that follow (install, stack, connection, the \`pulumi config set --secret\` lines
with the values the service returned, preview, up) are printed on stdout.
`;

function usage(msg: string): never {
  process.stderr.write(`notify-export: ${msg}\n\n${HELP}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        language: { type: "string" }, "front-end": { type: "string" }, out: { type: "string" },
        environments: { type: "boolean" }, subscriber: { type: "string", multiple: true }, project: { type: "string" },
        "environment-id": { type: "string" }, force: { type: "boolean" }, update: { type: "string" }, check: { type: "string" },
        diff: { type: "boolean" }, markdown: { type: "boolean" }, portable: { type: "boolean" }, stack: { type: "string" },
        ...CONNECTION_OPTIONS,
        ...OTHER_OPTIONS,
        help: { type: "boolean" },
      },
      strict: true,
    });
  } catch (err) {
    usage((err as Error).message);
  }
  const v = parsed.values;
  if (v.help) {
    process.stdout.write(HELP);
    return;
  }
  if (v.update !== undefined) return update(v.update, v as Record<string, unknown>);
  if (v.check !== undefined) return check(v.check, v as Record<string, unknown>);
  if (v.diff) return diff(v as Record<string, unknown>);
  if (!v.language || !(LANGUAGES as readonly string[]).includes(v.language)) usage(`--language must be one of ${LANGUAGES.join(", ")}${v.language ? `, got ${JSON.stringify(v.language)}` : ""}`);
  if (v["front-end"] !== undefined && !(FRONT_ENDS as readonly string[]).includes(v["front-end"])) usage(`--front-end must be one of ${FRONT_ENDS.join(", ")}, got ${JSON.stringify(v["front-end"])}`);
  if (!v.out) usage("--out DIR is required");

  const log = (line: string) => process.stderr.write(`notify-export: ${line}\n`);
  try {
    const result = await exportEnvironment({
      language: v.language as Language,
      frontEnd: v["front-end"] as FrontEnd | undefined,
      out: v.out,
      connection: connectionFromOptions(v as Record<string, unknown>),
      environments: v.environments,
      subscribers: v.subscriber,
      project: v.project,
      environmentId: v["environment-id"],
      force: v.force,
      portable: v.portable,
      stack: v.stack,
      progress: log,
    });
    const { model } = result;
    for (const s of model.skipped) log(`skipped ${s.kind} ${JSON.stringify(s.name)}: ${s.reason}`);
    log(`wrote ${v.out}: ${model.resources.length} resources, ${model.skipped.length} skipped, ${model.secrets.length} secrets, ${result.requests.length} requests`);
    log(`project ${JSON.stringify(result.render.project)}${v.project ? "" : " (named after the folder; --project NAME chooses another)"}`);
    if (v.stack) {
      log(`made stack ${v.stack} with this environment's config${result.unset?.length ? `; set what the service showed masked: ${result.unset.join(", ")}` : ""}`);
      process.stdout.write(`# Next, in the project:\ncd ${v.out}\n${result.unset?.map((k) => `pulumi config set --stack ${v.stack} --secret ${k} <value>`).join("\n") ?? ""}${result.unset?.length ? "\n" : ""}` +
        `pulumi preview --stack ${v.stack}${model.portable ? "   # takes this environment's objects over (adopt: true): no change" : ""}\n`);
      return;
    }
    const steps = nextSteps(model, v.language as Language, result.render, result.connection, true);
    process.stdout.write(`# Next, in the project (also in its README.md, without the secret values):\ncd ${v.out}\n${steps.join("\n")}\n`);
  } catch (err) {
    fail(err, v as Record<string, unknown>);
  }
}

/** Exits with the message of an error of the export's or the service's; rethrows any other. */
function fail(err: unknown, v: Record<string, unknown>): never {
  // A refused key: say where this one came from, as the provider does (its option, else its variable).
  const line = err instanceof ExportError ? `notify-export: ${err.message}` : connectionFailure("notify-export", err, v);
  if (!line) throw err;
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

/** `--check STATE`: the state's objects beside the service's; exit 0 when they agree, 1 when not. */
async function check(file: string, v: Record<string, unknown>): Promise<void> {
  const given = EXPORT_ONLY.filter((o) => o !== "environment-id" && v[o] !== undefined);
  if (given.length) usage(`--check compares a state with the service; drop ${given.map((o) => `--${o}`).join(", ")}`);
  let state: unknown;
  try {
    state = JSON.parse(file === "-" ? readFileSync(0, "utf8") : readFileSync(file, "utf8"));
  } catch (err) {
    usage(`--check ${file}: cannot read it as the JSON of \`pulumi stack export\`: ${(err as Error).message}`);
  }
  try {
    const report = await checkState({ state, connection: connectionFromOptions(v), environmentId: v["environment-id"] as string | undefined, progress: (line) => process.stderr.write(`notify-export: ${line}\n`) });
    process.stdout.write(renderCheck(report));
    process.exitCode = report.same ? 0 : 1;
  } catch (err) {
    if (err instanceof Error && /^not the JSON of/.test(err.message)) usage(`--check ${file}: ${err.message}`);
    fail(err, v);
  }
}

/** The second environment's connection options of --diff: each connection option with `other-` before it, read before NOTIFY_OTHER_<its variable>. */
const OTHER_OPTIONS = Object.fromEntries(Object.entries(CONNECTION_OPTIONS).map(([k, o]) => [`other-${k}`, o]));

/** `--diff`: the key's environment beside another; exit 0 when they hold the same setup, 1 when not. */
async function diff(v: Record<string, unknown>): Promise<void> {
  const given = ["language", "front-end", "out", "project", "environment-id", "force", "portable", "stack"].filter((o) => v[o] !== undefined);
  if (given.length) usage(`--diff compares two environments and writes no project; drop ${given.map((o) => `--${o}`).join(", ")}`);
  const to = Object.fromEntries(TOOL_SETTINGS.map((s) => {
    const value = v[`other-${optionOf(s.key)}`] ?? process.env[s.env.replace(/^NOTIFY_/, "NOTIFY_OTHER_")];
    return [s.key, s.type === "boolean" && typeof value === "string" ? value === "true" : value];
  }).filter(([, x]) => x !== undefined));
  try {
    const d = await diffEnvironments({
      from: connectionFromOptions(v), to, environments: v.environments as boolean | undefined, subscribers: v.subscriber as string[] | undefined,
      progress: (line) => process.stderr.write(`notify-export: ${line}\n`),
    });
    process.stdout.write(v.markdown ? renderDiffMarkdown(d) : renderDiffText(d));
    process.exitCode = d.same ? 0 : 1;
  } catch (err) {
    fail(err, v);
  }
}

/** The options that decide what an export declares: an update takes them from the project, never from the command line. */
const EXPORT_ONLY = ["language", "front-end", "out", "environments", "subscriber", "project", "environment-id", "force", "portable", "stack"] as const;

/** `--update DIR`: rewrites the project's declarations, says what changed and which new secrets to set. */
async function update(dir: string, v: Record<string, unknown>): Promise<void> {
  const given = EXPORT_ONLY.filter((o) => v[o] !== undefined);
  if (given.length) usage(`--update takes the options the project was exported with from its declarations file; drop ${given.map((o) => `--${o}`).join(", ")}`);
  const log = (line: string) => process.stderr.write(`notify-export: ${line}\n`);
  try {
    const result = await updateProject({ dir, connection: connectionFromOptions(v), progress: log });
    const { model } = result;
    for (const s of model.skipped) log(`skipped ${s.kind} ${JSON.stringify(s.name)}: ${s.reason}`);
    const file = path.join(dir, result.file);
    log(`${result.changed ? "updated" : "unchanged:"} ${file}: ${model.resources.length} resources, ${model.skipped.length} skipped, ${model.secrets.length} secrets, ${result.requests.length} requests`);
    if (result.newSecrets.length) {
      process.stdout.write(`# New secrets to set, in the project:\ncd ${dir}\n${configSetLines({ ...model, secrets: result.newSecrets }, true).join("\n")}\n`);
    }
  } catch (err) {
    fail(err, v);
  }
}

void main();
