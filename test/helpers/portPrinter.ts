/**
 * A child process that prints the port it listens on as its first line of stdout: a provider
 * plugin (the engine's handshake), and the loopback registries of the release rehearsal.
 */
import { spawn, type ChildProcess } from "node:child_process";

/**
 * Starts `command args` and resolves with the child, the port it prints first on stdout, and its
 * stderr so far; rejects, with the end of its stderr, when it exits first. No timeout of its own:
 * an emulated CPU may be slow, the test's bound applies.
 */
export function startPrintingPort(command: string, args: string[], opts: { cwd?: string; env: NodeJS.ProcessEnv }, label: string): Promise<{ child: ChildProcess; port: number; stderr: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stderr!.on("data", (d) => (err += d));
    child.stdout!.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve({ child, port: Number(out.slice(0, nl)), stderr: () => err });
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`${label} exited ${code} before printing its port:\n${err.slice(-4000)}`)));
  });
}
