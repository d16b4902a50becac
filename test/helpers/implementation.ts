/**
 * The resources' implementation modules (provider/resources/<module>.ts, from source), whose
 * `provider` the engine's plugins call, driven in this process against an emulator: the component
 * layer's way to read what each lifecycle step sends off the emulator's request log.
 */
/// <reference types="vite/client" />
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import type * as EmulatorModule from "../../emulator";
import { startTestEmulator, type TestEmulator } from "./emulator";

export type Obj = Record<string, unknown>;

/** A resource's dynamic provider, as its module exports it. */
export interface Provider {
  check(olds: Obj, news: Obj): Promise<{ inputs: Obj; failures: unknown[] }>;
  diff(id: string, olds: Obj, news: Obj): Promise<{ changes: boolean; changed: string[]; replaces: string[]; paths?: { path: string; key: string; kind: string }[] }>;
  create(inputs: Obj): Promise<{ id: string; outs: Obj }>;
  read(id: string, props: Obj): Promise<{ id: string; props: Obj; inputs?: Obj }>;
  update(id: string, olds: Obj, news: Obj): Promise<{ outs: Obj }>;
  delete(id: string, props: Obj): Promise<void>;
}

/** Every module of provider/resources, by its path from here (vite's glob: the folder is the list). */
const MODULES = import.meta.glob<{ provider?: Provider }>("../../provider/resources/*.ts", { eager: true });

/** The provider of `provider/resources/<module>.ts` (a table's `module`). */
export function impl(module: string): Provider {
  const provider = MODULES[`../../provider/resources/${module}.ts`]?.provider;
  if (!provider) throw new Error(`provider/resources/${module}.ts exports no provider; the implementation modules: ${Object.keys(MODULES).filter((m) => MODULES[m]!.provider).map((m) => m.replace(/^.*\//, "")).join(", ")}`);
  return provider;
}

/** The inputs `check` makes of `inputs`, which must pass it. */
export async function checked(p: Provider, inputs: Obj): Promise<Obj> {
  const r = await p.check({}, inputs);
  expect(r.failures).toEqual([]);
  return r.inputs;
}

/**
 * One emulator for the enclosing describe block, with this process's connection variables
 * pointed at it (the implementation modules read them); before each test it is reset, `seed`
 * runs, and its request log is cleared. Returns the emulator (valid inside hooks and tests).
 */
export function emulatorPerBlock(options: EmulatorModule.EmulatorOptions, seed: (emu: TestEmulator) => Promise<void> = async () => {}): () => TestEmulator {
  let emu: TestEmulator | undefined;
  let disconnect = () => {};
  beforeAll(async () => {
    emu = await startTestEmulator(options);
    disconnect = emu.connectEnvironment();
  });
  afterAll(async () => {
    disconnect();
    await emu?.close();
  });
  beforeEach(async () => {
    await emu!.api("POST", "/__emulator/reset");
    await seed(emu!);
    await emu!.clearRequests();
  });
  return () => emu!;
}
