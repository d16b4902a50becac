#!/usr/bin/env node
/**
 * `notify-export`: writes a Pulumi project that declares an existing environment of the service,
 * ready to be taken over by `pulumi up` without a change. Progress and skipped objects go to
 * stderr; the `pulumi config set --secret` lines to run go to stdout.
 */
import { parseArgs } from "node:util";
import { CONNECTION_HELP as connectionHelp, CONNECTION_OPTIONS, connectionFailure, connectionFromOptions } from "../provider/cliConnection";
import { ExportError, exportEnvironment } from "./index";
import { nextSteps } from "./project";
import { FRONT_ENDS, LANGUAGES, type FrontEnd, type Language } from "./render/common";

const HELP = `Usage: notify-export --language typescript|python|go --out DIR [options]

Reads the environment of an API key (integrations, workflows, layouts, translations, topics with
their subscribers, environment variables, contexts, inbound-email domains) and writes a Pulumi project that declares it as it is.

Options:
  --language LANG      typescript, python or go
  --front-end FE       dynamic (TypeScript only; the default for TypeScript) or native (the plugin)
  --out DIR            where to write the project (must be empty or new, unless --force)
  --environments       also declare the organisation's other environments (Environment resources)
  --subscriber ID      export this subscriber, its credentials and preferences; repeatable
  --project NAME       the Pulumi project name (default: notify-<environment name>)
  --environment-id ID  the key's environment, when the service does not show API keys
  --force              replace the contents of a non-empty --out
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
        "environment-id": { type: "string" }, force: { type: "boolean" },
        ...CONNECTION_OPTIONS,
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
  if (!v.language || !(LANGUAGES as readonly string[]).includes(v.language)) usage(`--language must be one of ${LANGUAGES.join(", ")}${v.language ? `, got ${JSON.stringify(v.language)}` : ""}`);
  if (v["front-end"] !== undefined && !(FRONT_ENDS as readonly string[]).includes(v["front-end"])) usage(`--front-end must be one of ${FRONT_ENDS.join(", ")}, got ${JSON.stringify(v["front-end"])}`);
  if (!v.out) usage("--out DIR is required");

  const log = (line: string) => process.stderr.write(`notify-export: ${line}\n`);
  try {
    const result = await exportEnvironment({
      language: v.language as Language,
      frontEnd: v["front-end"] as FrontEnd | undefined,
      out: v.out,
      connection: connectionFromOptions(v),
      environments: v.environments,
      subscribers: v.subscriber,
      project: v.project,
      environmentId: v["environment-id"],
      force: v.force,
      progress: log,
    });
    const { model } = result;
    for (const s of model.skipped) log(`skipped ${s.kind} ${JSON.stringify(s.name)}: ${s.reason}`);
    log(`wrote ${v.out}: ${model.resources.length} resources, ${model.skipped.length} skipped, ${model.secrets.length} secrets, ${result.requests.length} requests`);
    const steps = nextSteps(model, v.language as Language, result.render, result.connection, true);
    process.stdout.write(`# Next, in the project (also in its README.md, without the secret values):\ncd ${v.out}\n${steps.join("\n")}\n`);
  } catch (err) {
    // A refused key: say where this one came from, as the provider does (its option, else its variable).
    const line = err instanceof ExportError ? `notify-export: ${err.message}` : connectionFailure("notify-export", err, v);
    if (line) {
      process.stderr.write(`${line}\n`);
      process.exit(1);
    }
    throw err;
  }
}

void main();
