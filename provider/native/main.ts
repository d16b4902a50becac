/**
 * Entry point of `pulumi-resource-notify` (bin/pulumi-resource-notify runs it): console output goes
 * to stderr before anything is loaded, since the engine reads the port from the first line of
 * stdout and a module that logged while loading would kill the plugin; then the server starts.
 */
console.log = console.info = console.debug = (...args: unknown[]) => console.error(...args);

// Loaded only now, after the redirect.
const { serve } = require("./server") as typeof import("./server");

serve().catch((err: unknown) => {
  process.stderr.write(`pulumi-resource-notify: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
