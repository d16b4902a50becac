/**
 * `notify-export --stack NAME`: the exported project's stack, made with the user's own `pulumi`
 * (on PATH, with their backend and secrets provider), as `pulumi stack init` and `pulumi config
 * set` would make it by hand: the connection the export read with (the key a secret), each value
 * of the environment's own the service showed (secrets as secrets), and, for a portable program,
 * `adopt` (the stack is of the environment the objects came from, which it takes over). Values go
 * to `pulumi` on its standard input, never on a command line. What the service showed masked is
 * left for the user, and returned.
 */
import { execFileSync } from "node:child_process";
import type { ExportModel } from "./shapes";
import { ADOPT_KEY } from "./value";

/** How `pulumi` is run: its arguments, in the project's directory, `input` its standard input. */
export type PulumiRunner = (args: string[], input?: string) => void;

/** `pulumi` from PATH in `dir`; a failure throws with what it printed. */
export function pulumiIn(dir: string): PulumiRunner {
  return (args, input) => {
    try {
      execFileSync("pulumi", args, { cwd: dir, input: input ?? "", stdio: ["pipe", "pipe", "pipe"], encoding: "utf8" });
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string; message: string; code?: string };
      if (e.code === "ENOENT") throw new Error("--stack needs the Pulumi CLI (`pulumi`) on PATH");
      throw new Error(`pulumi ${args.filter((a) => a !== "--non-interactive").join(" ")}: ${(e.stderr || e.stdout || e.message).trim()}`);
    }
  };
}

/** The connection the stack is given (the key only here, never printed or written but by `pulumi`). */
export interface StackConnection {
  apiUrl: string;
  apiKey: string;
  allowInsecureHttp?: boolean;
}

/** Makes the stack and sets its config; returns the config keys left to the user (values the service showed masked). */
export function initStack(run: PulumiRunner, stack: string, model: ExportModel, connection: StackConnection): string[] {
  run(["stack", "init", stack, "--non-interactive"]);
  const set = (key: string, value: string, secret: boolean) => run(["config", "set", "--stack", stack, ...(secret ? ["--secret"] : []), key, "--non-interactive"], value);
  set("notify:apiUrl", connection.apiUrl, false);
  set("notify:apiKey", connection.apiKey, true);
  if (connection.allowInsecureHttp) set("notify:allowInsecureHttp", "true", false);
  if (model.portable) set(ADOPT_KEY, "true", false);
  const missing: string[] = [];
  for (const s of model.secrets) {
    if (s.value === undefined) missing.push(s.key);
    else set(s.key, s.value, !s.plain);
  }
  return missing;
}
