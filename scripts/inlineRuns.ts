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
 * 4. An orphaned run may never end. When a resource's registration fails with UNAVAILABLE or
 *    CANCELLED (the engine went away while the call was on the way: a refused create fails the
 *    `up`, and the engine drops the registrations still in flight), the SDK marks the run's
 *    monitor terminated (`terminateRpcs`) and leaves that resource's outputs (`urn`, `id`, every
 *    property) unsettled on purpose (`resolveURN`/`resolveID` in `runtime/resource.js` return on a
 *    gRPC error): a program the CLI launched is about to exit with its process. A program that
 *    awaits one of them (a stack output naming the resource's `id`, a resource that depends on
 *    it) then waits forever, and so does the run, whose end is `runInPulumiStack` followed by
 *    `disconnect` (which waits for every registration).
 *
 * {@link isolateInlineRuns} removes each: every client the SDK opens gets its own subchannels
 * (`grpc.use_local_subchannel_pool`), a run's clients are closed when it ends or its CLI goes
 * away, a run whose CLI went away and whose monitor the SDK took for terminated is abandoned as
 * its process would be (its program no longer awaited, its handlers removed: the SDK has nothing
 * left to do but fail), one whose CLI went away before it started never starts, and a run starts
 * only after the runs whose CLI went away before them have finished. Runs whose
 * CLI is alive are not waited for, so concurrent stacks in one process still run concurrently.
 */
type Client = { close(): void };
/** A promise the SDK made debuggable: what it was made for (e.g. `resolveID(resource:a[t])`). */
type Tracked = { _debugCtx?: string };
type Store = {
  settings: { monitor?: Client; engine?: Client };
  leakCandidates?: Set<Tracked>;
  /** Set by the SDK when a call to the monitor failed with UNAVAILABLE or CANCELLED. */
  terminated?: boolean;
};
/** One Run of the language server, as this module follows it. */
interface RunState {
  /** The run's async-local store (set when the SDK starts the run). */
  store?: Store;
  /** Its CLI went away (the Run call was cancelled). */
  gone: boolean;
  /** Resolves when the run is abandoned: its CLI went away and the SDK took its monitor for gone. */
  abandoned: Promise<void>;
  /** Abandons the run if both hold. */
  check(): void;
}
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
  const settings = req("@pulumi/pulumi/runtime/settings") as {
    grpcClientOptions: Record<string, unknown>;
    resetOptions: (...args: unknown[]) => void;
    disconnect: (...args: unknown[]) => Promise<void>;
    disconnectSync: () => void;
    terminateRpcs: () => void;
  };
  const state = req("@pulumi/pulumi/runtime/state") as { getStore(): Store };
  const stack = req("@pulumi/pulumi/runtime/stack") as { runInPulumiStack: (...args: unknown[]) => Promise<unknown> };
  const server = req("@pulumi/pulumi/automation/server") as { LanguageServer: { prototype: { run: Run } } };

  // The SDK passes this object to every client it creates (engine, monitor), read at creation.
  settings.grpcClientOptions["grpc.use_local_subchannel_pool"] = 1;

  // The run's store is created by the language server inside its run; resetOptions is the first
  // thing the run does in it, synchronously, so the store current there is the run's.
  let starting: RunState | undefined;
  const runOf = new WeakMap<Store, RunState>();
  const resetOptions = settings.resetOptions;
  settings.resetOptions = function (this: unknown, ...args: unknown[]) {
    resetOptions.apply(this, args);
    if (!starting) return;
    starting.store = state.getStore();
    runOf.set(starting.store, starting);
    starting = undefined;
  };

  // A run's program and its wait for outstanding registrations (the language server's
  // `await runInPulumiStack(program)` then `await disconnect()`) end when it is abandoned, as the
  // process of a program the CLI launched would: the outputs of a registration that failed with
  // UNAVAILABLE or CANCELLED never settle (see the module comment, 4).
  const terminateRpcs = settings.terminateRpcs;
  settings.terminateRpcs = function (this: unknown) {
    terminateRpcs.apply(this);
    runOf.get(state.getStore())?.check();
  };
  const runInPulumiStack = stack.runInPulumiStack;
  stack.runInPulumiStack = function (this: unknown, ...args: unknown[]) {
    const result = runInPulumiStack.apply(this, args);
    const run = runOf.get(state.getStore());
    if (!run) return result;
    const gone = run.abandoned.then(() => { throw new Error("the Pulumi CLI of this run exited before its program finished"); });
    return Promise.race([result, gone]);
  };
  const disconnect = settings.disconnect;
  settings.disconnect = function (this: unknown, ...args: unknown[]) {
    const run = runOf.get(state.getStore());
    if (!run) return disconnect.apply(this, args);
    // Its clients are closed: nothing to signal, nothing left to wait for.
    if (run.gone && run.store?.terminated) return Promise.resolve(settings.disconnectSync());
    return Promise.race([disconnect.apply(this, args), run.abandoned.then(() => settings.disconnectSync())]);
  };

  /** Runs whose CLI went away (the call was cancelled) before the run finished. */
  const orphans = new Set<Promise<unknown>>();
  /** Each orphan's store, for the message of a run that outlives the wait. */
  const orphanStores = new WeakMap<Promise<unknown>, Store>();

  /**
   * The orphans' end. An orphan's calls fail at once (its clients are closed), and once one has
   * failed so the SDK takes its monitor for terminated and the run is abandoned, so it ends soon;
   * should one not, the next run goes ahead after ORPHAN_WAIT_MS rather than wait forever, saying
   * so and what the orphan waits on, and that orphan is given up: no later run waits for it again
   * (each would otherwise pay the wait).
   */
  const leftovers = (runs: Promise<unknown>[]): Promise<unknown> => {
    if (!runs.length) return Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        // What the SDK still waits on in those runs, so that such a run can be understood.
        const waits = runs.flatMap((r) => [...(orphanStores.get(r)?.leakCandidates ?? [])].map((p) => p._debugCtx ?? "?"));
        const shown = waits.slice(0, 5).join(", ") + (waits.length > 5 ? `, and ${waits.length - 5} more` : "");
        process.stderr.write(`inline runs: ${runs.length} run(s) whose CLI exited still going after ${ORPHAN_WAIT_MS} ms (waiting on: ${shown || "nothing the SDK tracks"}); starting the next run anyway\n`);
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
    let leave: () => void = () => undefined;
    const me: RunState = {
      gone: false,
      abandoned: new Promise<void>((resolve) => { leave = resolve; }),
      check: () => { if (me.gone && me.store?.terminated) leave(); },
    };
    const close = () => {
      me.store?.settings.monitor?.close();
      me.store?.settings.engine?.close();
    };
    const body: Promise<unknown> = leftovers([...orphans]).then(() => {
      // Its CLI went away while it waited: nobody is there to run it for.
      if (me.gone) {
        callback(new Error("the Pulumi CLI of this run exited before its program started"));
        return undefined;
      }
      starting = me;
      try {
        return Promise.resolve(run.call(this, call, callback)).finally(close);
      } finally {
        starting = undefined;
      }
    });
    const settled = body.then(() => undefined, () => undefined).finally(() => {
      finished = true;
      orphans.delete(settled);
    });
    call.on("cancelled", () => {
      if (finished) return;
      me.gone = true;
      orphans.add(settled);
      if (me.store) orphanStores.set(settled, me.store);
      // Its engine is gone: closing its clients fails the calls it still waits on (the SDK then
      // takes its monitor for terminated), and a terminated run is abandoned (module comment, 4).
      close();
      me.check();
    });
    return body;
  };
}
