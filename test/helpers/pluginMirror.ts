/**
 * A plugin mirror on loopback, and the environment of a user's `pulumi` process that downloads the
 * provider plugin from it: what the engine does for a Python or Go program on a machine that has
 * never run one (test/e2e/pluginBinary.test.ts, test/e2e/releaseRehearsal.test.ts).
 */
import { execFileSync } from "node:child_process";
import { createReadStream, mkdirSync, statSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { cliEnv, cliPath } from "./pulumi";
import { PLUGIN_DOWNLOAD_URL } from "../../scripts/schema";

/** A running mirror: its address, the requests it got (`METHOD path`), and how to stop it. */
export interface PluginMirror {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/**
 * A loopback HTTP server of the archive files `archives`, by file name, recording each request's
 * path; anything else is a 404.
 */
export async function serveArchives(archives: string[]): Promise<PluginMirror> {
  const files = new Map(archives.map((a) => [`/${path.basename(a)}`, a]));
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const file = files.get(req.url ?? "");
    if (req.method !== "GET" || !file) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": "application/gzip", "content-length": statSync(file).size });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * The engine's override variable (pulumi/pulumi sdk/go/common/workspace/plugins.go,
 * pluginDownloadURLOverrides: `regexp=URL` pairs, comma-separated, the regexp matched against the
 * plugin's download URL): the schema's URL, and only it, goes to `url`.
 */
export function overrideTo(url: string): string {
  // The engine matches the URL as Go's url.URL prints it, `${VERSION}` escaped.
  const base = PLUGIN_DOWNLOAD_URL.split("${")[0]!;
  return `^${base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}=${url}`;
}

/**
 * The environment of a user's `pulumi` process: the CLI's settings of the harness (local backend,
 * passphrase), an empty plugin cache, automatic plugin acquisition on, the override to `mirror`,
 * and a PATH of the CLI alone (no node).
 */
export function userEnv(dir: string, mirror: string): Record<string, string> {
  const home = path.join(dir, "pulumi-home");
  mkdirSync(home, { recursive: true });
  const env: Record<string, string> = {
    ...cliEnv(dir),
    PULUMI_HOME: home,
    PATH: path.dirname(cliPath()),
    HOME: process.env.HOME ?? dir,
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: overrideTo(mirror),
  };
  delete env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION;
  return env;
}

/** The resource plugins `pulumi plugin ls` lists in `env`'s PULUMI_HOME. */
export function installedPlugins(env: Record<string, string>): { name: string; kind: string; version: string }[] {
  const out = execFileSync(cliPath(), ["plugin", "ls", "--json"], { env, encoding: "utf8" });
  return (JSON.parse(out) as { name: string; kind: string; version: string }[]).map(({ name, kind, version }) => ({ name, kind, version }));
}
