/**
 * Many inline Automation API runs in one Node.js process, each as if it were alone.
 *
 * The Node.js SDK's inline language server (`@pulumi/pulumi/automation/server`) runs every
 * operation's program in the calling process, and three things it does carry state from one run
 * into the next:
 *
 * 1. Each run opens gRPC clients to its CLI's engine and resource monitor and never closes them
 *    (`disconnectSync` closes only the module-level clients a CLI-launched program uses, not the
 *    run's own in its async-local store).
 * 2. A run whose CLI has already exited goes on in this process: a failing `preview` (bad input)
 *    or a killed `up` ends the CLI while the program still has calls on the way. Those calls to
 *    the dead addresses fail, and grpc-js keeps retrying the connection with backoff for as long
 *    as the client lives, so the address's subchannel stays in TRANSIENT_FAILURE.
 * 3. grpc-js shares subchannels between clients through a process-wide pool keyed by address.
 *    When the kernel gives a later CLI a port one of those dead addresses had, that run's client
 *    gets the failed subchannel, and its first engine call (`setRootResource`) fails at once with
 *    "14 UNAVAILABLE: No connection established". The SDK ignores a gRPC error from the program,
 *    so the run either reports that stray rejection ("One or more errors occurred") or succeeds
 *    without having run the program at all (no resource declared).
 *
 * And the language server installs its `unhandledRejection` handler on the process for the whole
 * run, so a run collects every stray rejection of a previous, orphaned run as its own error.
 *
 * {@link isolateInlineRuns} removes each: every client the SDK opens gets its own subchannels
 * (`grpc.use_local_subchannel_pool`), a run's clients are closed when it ends, and a run starts
 * only after the runs whose CLI went away before them have finished. Runs whose CLI is alive
 * are not waited for, so concurrent stacks in one process still run concurrently.
 */
type Client = { close(): void };
type Store = { settings: { monitor?: Client; engine?: Client } };
type Run = (call: { on(event: "cancelled", listener: () => void): unknown }, callback: (...args: unknown[]) => void) => Promise<unknown>;

let isolated = false;

/** How long a run waits at most for the orphaned runs before it (see {@link isolateInlineRuns}). */
const ORPHAN_WAIT_MS = 120_000;

/**
 * Patches the `@pulumi/pulumi` that `req` loads (the copy the Automation API runs programs with),
 * once per process. See the module comment for what it fixes and why.
 */
export function isolateInlineRuns(req: NodeRequire = require): void {
  if (isolated) return;
  isolated = true;
  const settings = req("@pulumi/pulumi/runtime/settings") as { grpcClientOptions: Record<string, unknown>; resetOptions: (...args: unknown[]) => void };
  const state = req("@pulumi/pulumi/runtime/state") as { getStore(): Store };
  const server = req("@pulumi/pulumi/automation/server") as { LanguageServer: { prototype: { run: Run } } };

  // The SDK passes this object to every client it creates (engine, monitor), read at creation.
  settings.grpcClientOptions["grpc.use_local_subchannel_pool"] = 1;

  // The run's store is created by the language server inside its run; resetOptions is the first
  // thing the run does in it, synchronously, so the store current there is the run's.
  let opened: Store | undefined;
  const resetOptions = settings.resetOptions;
  settings.resetOptions = function (this: unknown, ...args: unknown[]) {
    resetOptions.apply(this, args);
    opened = state.getStore();
  };

  /** Runs whose CLI went away (the call was cancelled) before the run finished. */
  const orphans = new Set<Promise<unknown>>();

  /**
   * The orphans' end. An orphan's calls fail at once (its engine is gone), so it ends soon; should
   * one not, the next run goes ahead after ORPHAN_WAIT_MS rather than wait forever, saying so, and
   * that orphan is given up: no later run waits for it again (each would otherwise pay the wait).
   */
  const leftovers = (runs: Promise<unknown>[]): Promise<unknown> => {
    if (!runs.length) return Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        process.stderr.write(`inline runs: ${runs.length} run(s) whose CLI exited still going after ${ORPHAN_WAIT_MS} ms; starting the next run anyway\n`);
        for (const r of runs) orphans.delete(r);
        resolve();
      }, ORPHAN_WAIT_MS);
      timer.unref();
    });
    return Promise.race([Promise.all(runs), late]).finally(() => clearTimeout(timer));
  };
  const run = server.LanguageServer.prototype.run;
  server.LanguageServer.prototype.run = function (this: unknown, call, callback) {
    let finished = false;
    let store: Store | undefined;
    const close = () => {
      store?.settings.monitor?.close();
      store?.settings.engine?.close();
    };
    const body: Promise<unknown> = leftovers([...orphans]).then(() => {
      opened = undefined;
      const result = run.call(this, call, callback);
      store = opened as Store | undefined; // set by resetOptions during run.call
      return Promise.resolve(result).finally(close);
    });
    const settled = body.then(() => undefined, () => undefined).finally(() => {
      finished = true;
      orphans.delete(settled);
    });
    call.on("cancelled", () => {
      if (finished) return;
      orphans.add(settled);
      // Its engine is gone: closing its clients fails the calls it still waits on, so it ends now.
      close();
    });
    return body;
  };
}
