/**
 * Package registries on loopback, from their own packages (pinned in scripts/release-tools and
 * installed into the cache by its ensure script): the npm registry server verdaccio and the Python
 * index pypiserver. Each runs as a child process on 127.0.0.1, on a port the system picks, which
 * it prints; packages it does not hold come from the public registry it fronts (verdaccio's
 * uplink, pypiserver's fallback redirect), as a company's private registry does. Our own
 * packages are never proxied: a name the rehearsal did not publish is a 404, whatever the public
 * registry holds.
 */
import type { ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";
import { startPrintingPort } from "./portPrinter";

/** A running registry: its address and how to stop it. */
export interface Registry {
  url: string;
  close(): Promise<void>;
}

/** Stops a child and waits for it. */
function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill();
  });
}

/** The launcher: verdaccio's own server factory, listening on a port the system picks. */
const VERDACCIO_LAUNCHER = `
const [verdaccio, configFile] = process.argv.slice(2);
require(verdaccio).runServer(configFile).then((app) => {
  const server = app.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
}, (err) => { process.stderr.write(String(err && err.stack || err) + "\\n"); process.exit(1); });
`;

/** The npm packages of this repository, which verdaccio serves only as published to it. */
const OWN_NPM_PACKAGES = ["pulumi-notify", "@pulumi-notify/*"];

/**
 * verdaccio in `dir` (its storage, users and config), fronting the public npm registry for every
 * package but ours, with one user whose token publishes: `token` goes in an npmrc as
 * `//127.0.0.1:<port>/:_authToken`, as `npm login` would write it.
 */
export async function startVerdaccio(verdaccio: string, dir: string): Promise<Registry & { token: string }> {
  mkdirSync(dir, { recursive: true });
  const own = { access: "$all", publish: "$authenticated" };
  const config = {
    storage: path.join(dir, "storage"),
    auth: { htpasswd: { file: path.join(dir, "htpasswd"), max_users: 1 } },
    uplinks: { npmjs: { url: "https://registry.npmjs.org/" } },
    packages: { ...Object.fromEntries(OWN_NPM_PACKAGES.map((p) => [p, own])), "**": { access: "$all", proxy: "npmjs" } },
    log: { type: "stdout", format: "pretty", level: "error" },
  };
  const configFile = path.join(dir, "config.yaml");
  writeFileSync(configFile, stringify(config));
  const launcher = path.join(dir, "launch.js");
  writeFileSync(launcher, VERDACCIO_LAUNCHER);
  const { child, port } = await startPrintingPort(process.execPath, [launcher, verdaccio, configFile], { env: process.env }, "verdaccio");
  const url = `http://127.0.0.1:${port}/`;
  // `npm adduser`'s request: the registry's only user, whose token publishes.
  const res = await fetch(`${url}-/user/org.couchdb.user:rehearsal`, {
    method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "rehearsal", password: "rehearsal-password" }),
  });
  const body = (await res.json()) as { token?: string; error?: string };
  if (!body.token) {
    await stop(child);
    throw new Error(`verdaccio did not create the publishing user: ${res.status} ${JSON.stringify(body)}`);
  }
  return { url, token: body.token, close: () => stop(child) };
}

/**
 * The launcher: pypiserver's WSGI app on the standard library's server (threaded), on a port the
 * system picks; uploads need no password (`-a . -P .` of its command line); a project it does not
 * hold is redirected to the fallback index (its default behaviour, here made explicit).
 */
const PYPISERVER_LAUNCHER = `
import sys
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server
import pypiserver

class Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True

class Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass

app = pypiserver.app(roots=[sys.argv[1]], authenticate=[], password_file=".", fallback_url=sys.argv[2])
server = make_server("127.0.0.1", 0, app, server_class=Server, handler_class=Quiet)
print(server.server_port, flush=True)
server.serve_forever()
`;

/** pypiserver over the folder `dir/packages`, with PyPI as the fallback for what it does not hold. Its index is `<url>simple/`. */
export async function startPypiServer(python: string, dir: string): Promise<Registry> {
  const packages = path.join(dir, "packages");
  mkdirSync(packages, { recursive: true });
  const launcher = path.join(dir, "launch.py");
  writeFileSync(launcher, PYPISERVER_LAUNCHER);
  const { child, port } = await startPrintingPort(python, [launcher, packages, "https://pypi.org/simple/"], { env: process.env }, "pypiserver");
  return { url: `http://127.0.0.1:${port}/`, close: () => stop(child) };
}
