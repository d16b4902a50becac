/**
 * The e2e set-up of a test file in one call: an emulator (production or spec mode) and a stack on
 * a `file://` backend, made before the tests of the enclosing `describe` (or file) and removed after
 * them in order, the stacks first and the emulator last, however the tests end, a failed set-up
 * included. As `pulumitest` gives a Go test a stack that cleans itself up.
 *
 *     describe.each(EMULATOR_MODES)("contexts in %s mode", (mode) => {
 *       const { emu, ts, stack } = useStack({ emulator: { mode }, program: program(spec) });
 *       it("...", async () => { await ts.stack.up(); expect(await emu.state()) ... });
 *     });
 *
 * `emu` and `ts` are handles to what the fixture's `beforeAll` makes: usable inside tests and
 * hooks registered after the call, never at the describe's top level (they throw there, saying so).
 */
import { afterAll, beforeAll } from "vitest";
import type * as automation from "@pulumi/pulumi/automation";
import type * as EmulatorModule from "../../emulator";
import { startTestEmulator, type TestEmulator } from "./emulator";
import { createTestStack, type TestStack } from "./pulumi";
import { usePlugin } from "./native";
import type { FrontEnd } from "./frontEnds";

/** An emulator mode: production's behaviour (envelope, hidden credentials) or the API description's. */
export type EmulatorMode = NonNullable<EmulatorModule.EmulatorOptions["mode"]>;

// A record over the modes, so that a mode the emulator gains and this lacks does not compile.
const MODE_NAMES: Record<EmulatorMode, true> = { production: true, spec: true };
/** Every emulator mode, production first: what a test that runs in each mode iterates. */
export const EMULATOR_MODES = Object.keys(MODE_NAMES) as EmulatorMode[];

/** A config value of a stack (secret when marked). */
export type ConfigValue = { value: string; secret?: boolean };

/** A stack of the fixture, beside its first. */
export interface StackOptions {
  program: automation.PulumiFn;
  /** Stack config beyond the emulator's connection (`notify:apiUrl`, secret `notify:apiKey`), which every stack gets. */
  config?: Record<string, ConfigValue>;
  /** The front end whose plugin serves the program's resources: `native` points the project at bin/ of this checkout. */
  frontEnd?: FrontEnd;
  projectName?: string;
  stackName?: string;
  env?: Record<string, string>;
}

/** What {@link useStack} starts. */
export interface UseStackOptions extends Partial<StackOptions> {
  /** The emulator's options (mode, keys, limits); the test key is always accepted unless `apiKeys` says otherwise. */
  emulator?: EmulatorModule.EmulatorOptions;
  /** Makes what the program needs on the service (subscribers, integrations), once the emulator runs and before the stack. */
  seed?: (emu: TestEmulator) => Promise<void>;
}

/** The fixture of a test file: its emulator, its stack, and more stacks on the same emulator. */
export interface StackFixture {
  /** The emulator (a handle: see the module's comment). */
  emu: TestEmulator;
  /** The stack of `program` (a handle; throws when the fixture was given no program). */
  ts: TestStack;
  /** Another stack on the emulator, removed with the fixture (or earlier by its own `cleanup`). */
  stack(opts: StackOptions): Promise<TestStack>;
}

/**
 * A stand-in for an object made later: every property read, call and check goes to the object
 * once `set`, and throws naming `what` before (a test file using it outside its tests).
 */
function handle<T extends object>(what: string): { value: T; set(v: T | undefined): void } {
  let target: T | undefined;
  const live = (): T => {
    if (target === undefined) throw new Error(`${what} of useStack (test/helpers/stack.ts) exists only inside the tests and the hooks registered after it`);
    return target;
  };
  const value = new Proxy({} as T, {
    get: (_t, key) => Reflect.get(live(), key),
    set: (_t, key, v) => Reflect.set(live(), key, v),
    has: (_t, key) => Reflect.has(live(), key),
    ownKeys: () => Reflect.ownKeys(live()),
    getOwnPropertyDescriptor: (_t, key) => {
      const d = Reflect.getOwnPropertyDescriptor(live(), key);
      // The stand-in's own target has no such property, and a proxy may not report it fixed.
      return d && { ...d, configurable: true };
    },
  });
  return { value, set: (v) => { target = v; } };
}

/** A fixture and its two steps, which {@link useStack} runs as the describe's `beforeAll` and `afterAll`. */
export interface FixtureSteps {
  fixture: StackFixture;
  /** Starts the emulator, runs `seed`, makes the stack of `program` (when given). */
  setUp(): Promise<void>;
  /**
   * Removes every stack the fixture made, then closes the emulator, whatever `setUp` got to: each
   * step runs even when one before it failed, and the first failure is thrown after all ran.
   */
  tearDown(): Promise<void>;
}

/**
 * The fixture of {@link useStack} without the hooks, for a set-up that runs once per case rather
 * than per describe (each random stack of the oracle) and for the fixture's own test.
 */
export function stackFixture(opts: UseStackOptions = {}): FixtureSteps {
  const emu = handle<TestEmulator>("emu");
  const ts = handle<TestStack>(opts.program ? "ts" : "ts (given no program, so never made)");
  // What to undo, in the order it was made; undone last first.
  const made: { what: string; undo: () => Promise<void> }[] = [];
  let started: TestEmulator | undefined;

  const stack = async (s: StackOptions): Promise<TestStack> => {
    if (!started) throw new Error("useStack: stack() needs the emulator, which exists only inside the tests and the hooks registered after useStack");
    const created = await createTestStack({
      program: s.program, projectName: s.projectName, stackName: s.stackName, env: s.env,
      config: { ...started.stackConfig(), ...s.config },
    });
    made.push({ what: `the stack in ${created.dir}`, undo: created.cleanup });
    if (s.frontEnd === "native") await usePlugin(created);
    return created;
  };

  const setUp = async () => {
    const own = await startTestEmulator(opts.emulator);
    made.push({ what: "the emulator", undo: () => own.close() });
    started = own;
    emu.set(own);
    await opts.seed?.(own);
    if (opts.program) ts.set(await stack({ ...opts, program: opts.program }));
  };

  const tearDown = async () => {
    const failures: unknown[] = [];
    for (const { what, undo } of made.splice(0).reverse()) {
      await undo().catch((err: unknown) => failures.push(new Error(`useStack: removing ${what} failed`, { cause: err })));
    }
    emu.set(undefined);
    ts.set(undefined);
    started = undefined;
    if (failures.length) throw failures[0];
  };

  return { fixture: { emu: emu.value, ts: ts.value, stack }, setUp, tearDown };
}

/**
 * Registers, in the enclosing `describe` (or the file), a `beforeAll` that starts an emulator,
 * runs `seed` and makes the stack of `program` (when given) with the emulator's connection in its
 * config, and an `afterAll` that removes every stack the fixture made, then closes the emulator,
 * however the tests and the set-up ended.
 */
export function useStack(opts: UseStackOptions = {}): StackFixture {
  const { fixture, setUp, tearDown } = stackFixture(opts);
  beforeAll(setUp);
  afterAll(tearDown);
  return fixture;
}
