#!/usr/bin/env node
/**
 * `notify-run`: runs the Pulumi program of the current directory through the Automation API as
 * an inline program, so that it needs the `pulumi` CLI but no Node.js language host
 * (`pulumi-language-nodejs`). The engine finds the dynamic-provider plugin
 * (`pulumi-resource-pulumi-nodejs`) this package's resources run in beside the CLI, where a
 * release archive ships it; for a CLI without one, notify-run puts the installed `@pulumi/pulumi`,
 * which has it, first on `PATH`.
 *
 *   notify-run <up|preview|refresh|destroy> [--stack NAME] [--program FILE] [--refresh] [--run-program] [--expect-no-changes]
 *
 * The project is the directory's `Pulumi.yaml`; the stack, `--stack` or the selected one (created
 * when missing); the backend and secrets provider, whatever the CLI is set up with (`pulumi login`,
 * `PULUMI_BACKEND_URL`, `PULUMI_CONFIG_PASSPHRASE`). The program is `--program`, else the
 * project's `main`, else `index.js` (or `index.ts`, which Node.js 22.18 and later run by stripping
 * types): a module that declares resources when loaded, or exports a function that does (its
 * result becomes the stack's outputs).
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import type * as automation from "@pulumi/pulumi/automation";
import { findOnPath } from "./onPath";

/** The operations, as the CLI names them. */
export const OPERATIONS = ["up", "preview", "refresh", "destroy"] as const;
type Operation = (typeof OPERATIONS)[number];

/** What the command line asks for. */
export interface RunOptions {
  operation: Operation;
  stack?: string;
  program?: string;
  refresh: boolean;
  runProgram: boolean;
  expectNoChanges: boolean;
}

const USAGE = `usage: notify-run <${OPERATIONS.join("|")}> [--stack NAME] [--program FILE] [--refresh] [--run-program] [--expect-no-changes]`;

/** Parses the arguments; throws with the usage on anything unknown. */
export function parseArgs(argv: readonly string[]): RunOptions {
  const [operation, ...rest] = argv;
  if (!OPERATIONS.includes(operation as Operation)) throw new Error(`${operation === undefined ? "no operation" : `unknown operation "${operation}"`}\n${USAGE}`);
  const options: RunOptions = { operation: operation as Operation, refresh: false, runProgram: false, expectNoChanges: false };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const value = () => {
      const v = rest[++i];
      if (v === undefined || v.startsWith("--")) throw new Error(`${arg} needs a value\n${USAGE}`);
      return v;
    };
    if (arg === "--stack" || arg === "-s") options.stack = value();
    else if (arg === "--program") options.program = value();
    else if (arg === "--refresh" || arg === "-r") options.refresh = true;
    else if (arg === "--run-program") options.runProgram = true;
    else if (arg === "--expect-no-changes") options.expectNoChanges = true;
    else if (arg === "--yes" || arg === "-y" || arg === "--skip-preview") continue; // never asks: accepted for habit
    else throw new Error(`unknown option "${arg}"\n${USAGE}`);
  }
  return options;
}

/** The project's name and main program file, from `Pulumi.yaml` in `dir` (a minimal reading: top-level `name:` and `main:`). */
export function readProject(dir: string): { name: string; main?: string } {
  const file = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(dir, f)).find(existsSync);
  if (!file) throw new Error(`no Pulumi.yaml in ${dir}: run notify-run in the project's directory`);
  const text = readFileSync(file, "utf8");
  const top = (key: string) => new RegExp(`^${key}:\\s*["']?([^"'#\\n]+?)["']?\\s*(#.*)?$`, "m").exec(text)?.[1]?.trim();
  const name = top("name");
  if (!name) throw new Error(`${file} has no top-level name`);
  return { name, main: top("main") };
}

/** The program file to load: `--program`, the project's `main`, `index.js`, `index.ts`. */
export function programFile(dir: string, options: Pick<RunOptions, "program">, main?: string): string {
  const candidates = options.program ? [options.program] : main ? [main, path.join(main, "index.js"), path.join(main, "index.ts")] : ["index.js", "index.ts"];
  const found = candidates.map((c) => path.resolve(dir, c)).find((f) => existsSync(f) && !f.endsWith(path.sep));
  if (!found) throw new Error(`no program: none of ${candidates.join(", ")} exists in ${dir} (pass --program FILE)`);
  return found;
}

/** The dynamic-provider plugin's file name, as @pulumi/pulumi and every release archive of the CLI ship it. */
const DYNAMIC_PLUGIN = process.platform === "win32" ? "pulumi-resource-pulumi-nodejs.cmd" : "pulumi-resource-pulumi-nodejs";

/**
 * The directory of the first `pulumi` on `current` (a PATH), its links resolved: where the engine
 * looks for the plugins bundled with it (GetPluginPath in sdk/go/common/workspace/plugins.go).
 */
function cliDirectory(current: string): string | undefined {
  const cli = findOnPath(process.platform === "win32" ? ["pulumi.exe", "pulumi"] : ["pulumi"], current);
  return cli === undefined ? undefined : path.dirname(realpathSync(cli));
}

/**
 * PATH for the CLI: with this Node.js first, for the dynamic-provider plugin's `node`, and the
 * directory of the installed `@pulumi/pulumi` too when the CLI has no dynamic-provider plugin
 * beside it (a CLI built without its release archive). A normal install has one there, and the
 * engine, finding another on PATH, would warn "using pulumi-resource-pulumi-nodejs from $PATH" on
 * every operation.
 */
export function pathWithDynamicPlugin(dir: string, current = process.env.PATH ?? ""): string {
  const cli = cliDirectory(current);
  const bundled = cli !== undefined && existsSync(path.join(cli, DYNAMIC_PLUGIN));
  const sdk = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [dir, __dirname] }));
  return [...(bundled ? [] : [sdk]), path.dirname(process.execPath), current].join(path.delimiter);
}

/** Runs one operation; resolves to the process's exit code. */
export async function run(options: RunOptions, dir = process.cwd(), out: (s: string) => void = (s) => process.stdout.write(s)): Promise<number> {
  const auto = require(require.resolve("@pulumi/pulumi/automation", { paths: [dir, __dirname] })) as typeof automation;
  const project = readProject(dir);
  const file = programFile(dir, options, project.main);
  const program: automation.PulumiFn = async () => {
    const loaded = require(file) as unknown;
    const fn = typeof loaded === "function" ? loaded : typeof (loaded as { default?: unknown })?.default === "function" ? (loaded as { default: () => unknown }).default : undefined;
    return (fn ? await fn() : loaded) as Record<string, unknown> | void;
  };
  const envVars = { PATH: pathWithDynamicPlugin(dir) };
  const stackName = options.stack ?? (await (await auto.LocalWorkspace.create({ workDir: dir, envVars })).stack())?.name;
  if (!stackName) throw new Error("no stack selected: pass --stack NAME (it is created when missing)");
  const stack = await auto.LocalWorkspace.createOrSelectStack({ projectName: project.name, stackName, program }, { workDir: dir, envVars });
  const common = { onOutput: out, color: "never" as const };
  switch (options.operation) {
    case "up": await stack.up({ ...common, refresh: options.refresh }); return 0;
    case "preview": {
      const r = await stack.preview({ ...common, refresh: options.refresh, expectNoChanges: options.expectNoChanges });
      return r.changeSummary && options.expectNoChanges && Object.entries(r.changeSummary).some(([k, n]) => k !== "same" && (n ?? 0) > 0) ? 1 : 0;
    }
    case "refresh": await stack.refresh({ ...common, runProgram: options.runProgram, expectNoChanges: options.expectNoChanges }); return 0;
    case "destroy": await stack.destroy({ ...common, runProgram: options.runProgram }); return 0;
  }
}

if (require.main === module) {
  (async () => {
    try {
      process.exitCode = await run(parseArgs(process.argv.slice(2)));
    } catch (err) {
      // A failed CLI command's output, the engine's diagnostics included, is already printed.
      const cli = (err as { commandResult?: unknown }).commandResult !== undefined;
      process.stderr.write(`notify-run: ${cli ? "the operation failed (the output above says why)" : err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    }
  })();
}
