import { spawnSync } from "node:child_process";
import path from "node:path";
import { NODE_BIN, pulumiCliPath, REPO_ROOT } from "../../scripts/workspace";
import { buildNodejsSdk } from "../../scripts/nodejs-sdk";

/**
 * Makes sure the pinned Pulumi CLI exists (building it on first run) and shares its path with the
 * workers, that the typed TypeScript SDK (sdk/nodejs) is compiled (once per change of it), and
 * that Node's compile cache holds what every engine run loads.
 */
export default function setup(): void {
  pulumiCliPath();
  buildNodejsSdk();
  warmCompileCache();
}

/**
 * Every `pulumi` operation of an e2e test starts the Node.js dynamic-provider plugin, which loads
 * all of @pulumi/pulumi and this package before it answers: about a second of CPU each time, most
 * of it compiling the same files again. Node's on-disk compile cache (NODE_COMPILE_CACHE, keyed
 * by each file's content, so it changes how fast modules load and never what they do) would keep
 * that work, but Node writes the cache when a process exits, and the engine ends its plugins with
 * a signal. So one process of the pinned Node loads what the plugin and the workers load and exits
 * normally, writing the cache, and every later process of the run reads it: the variable reaches
 * the workers and, through the CLI's environment, their plugins.
 */
function warmCompileCache(): void {
  const dir = (process.env.NODE_COMPILE_CACHE ??= path.join(REPO_ROOT, "node_modules/.cache/node-compile-cache"));
  const modules = ["@pulumi/pulumi", "@pulumi/pulumi/cmd/dynamic-provider/config", "@pulumi/pulumi/proto/provider_grpc_pb", "@pulumi/pulumi/automation", "source-map-support/register", "require-from-string", REPO_ROOT];
  const r = spawnSync(path.join(NODE_BIN, "node"), ["-e", `for (const m of ${JSON.stringify(modules)}) require(m);`], {
    cwd: REPO_ROOT, env: { ...process.env, NODE_COMPILE_CACHE: dir }, encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`warming Node's compile cache failed: ${r.stderr || r.error}`);
}
