#!/usr/bin/env node
/**
 * `notify-export`: writes a Pulumi project that declares an existing environment of the service,
 * ready to be taken over by `pulumi up` without a change. Progress and skipped objects go to
 * stderr; the `pulumi config set --secret` lines to run go to stdout.
 */
import { parseArgs } from "node:util";
import { NotifyError } from "../provider/client/errors";
import { CONNECTION_SETTINGS, connectionSetting } from "../provider/client/settings";
import { isUnauthorized, refusedKeyHint, type ConnectionSettings } from "../provider/config";
import { ExportError, exportEnvironment } from "./index";
import { nextSteps } from "./project";
import { FRONT_ENDS, LANGUAGES, type FrontEnd, type Language } from "./render/common";

/** `apiUrl` → `api-url`: each connection setting of the provider is an option of the same name. */
const optionOf = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const connectionHelp = CONNECTION_SETTINGS.map((s) => {
  const flag = `  --${optionOf(s.key)}${s.type === "boolean" ? "" : " VALUE"}`;
  return `${flag.padEnd(28)} ${s.summary} (else ${s.env})`;
}).join("\n");

const HELP = `Usage: notify-export --language typescript|python|go --out DIR [options]

Reads the environment of an API key (integrations, workflows, layouts, translations, topics with
their subscribers, environment variables, contexts, inbound-email domains) and writes a Pulumi project that declares it as it is.

Options:
  --language LANG      typescript, python or go
  --front-end FE       dynamic (TypeScript only; the default for TypeScript) or native (the plugin)
  --out DIR            where to write the project (must be empty or new, unless --force)
  --environments       also declare the organisation's other environments (Environment resources)
  --subscriber ID      export this subscriber's credentials; repeatable
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
        ...Object.fromEntries(CONNECTION_SETTINGS.map((c) => [optionOf(c.key), { type: c.type === "boolean" ? "boolean" as const : "string" as const }])),
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
      connection: Object.fromEntries(CONNECTION_SETTINGS.map((c) => [c.key, (v as Record<string, unknown>)[optionOf(c.key)]]).filter(([, x]) => x !== undefined)) as ConnectionSettings,
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
    if (err instanceof ExportError || err instanceof NotifyError) {
      // A refused key: say where this one came from, as the provider does (its option, else its variable).
      const keyOption = optionOf(connectionSetting("apiKey").key);
      const source = (v as Record<string, unknown>)[keyOption] ? `the --${keyOption} option` : `the ${connectionSetting("apiKey").env} environment variable`;
      process.stderr.write(`notify-export: ${err.message}${isUnauthorized(err) ? `. ${refusedKeyHint(source)}` : ""}\n`);
      process.exit(1);
    }
    throw err;
  }
}

void main();
