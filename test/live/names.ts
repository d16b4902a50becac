/**
 * The suite's names, read off an emulator: everything a live run does is done first on a scratch
 * emulator in this process (each kind's `setup`, `prepare`, its scenario's object made by its
 * implementation module, its hand edit, its adopt object; the probes' objects and cases), and
 * every identifier the environment then holds that a fresh one does not is a name the live run
 * prefixes (test/live/namespace.ts). So the names are never written twice: a descriptor that makes
 * a new object makes a new name.
 */
import { NotifyClient } from "../../provider/client/index";
import { RESOURCE_TABLES } from "../../provider/resources/index";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { impl } from "../helpers/implementation";
import { KINDS } from "../kinds/index";
import { ALL_CASES, makeMade } from "../kinds/openapi";
import { fieldEdits } from "../property/handEdits";
import { listNamed } from "./owned";
import { identitiesOf } from "./service";

/** An id the emulator gives an object (emulator/util.ts), never a name. */
const EMULATOR_ID = /^[0-9a-f]{24}$/;

/** The names the suite makes, and the scratch emulator's environment id (the descriptors write it). */
export async function suiteNames(): Promise<{ names: string[]; environmentId: string }> {
  // The kinds on one emulator, the probes on another: a live run removes the probes' objects
  // before the kinds start, so the two never meet.
  const kinds = await namesOn(async (emu) => {
    for (const k of KINDS) await attempt(async () => k.setup?.(emu));
    for (const k of KINDS) {
      await attempt(async () => {
        await k.prepare?.(emu, k.scenario.declared);
        const p = impl(RESOURCE_TABLES.find((t) => t.name === k.kind)!.module);
        const { inputs } = await p.check({}, k.scenario.declared);
        const { id } = await p.create(inputs);
        for (const edit of fieldEdits({ name: k.kind, kind: k.kind, inputs: k.scenario.declared }, "production").slice(0, 1)) await edit.apply(emu, id);
      });
    }
    for (const k of KINDS) await attempt(() => k.adopt.seed(emu));
  });
  const probes = await namesOn(async (emu) => {
    await emu.api("POST", "/__emulator/behaviour", { plan: null });
    const made = await makeMade(emu.api);
    for (const [op, { run }] of ALL_CASES) {
      const [method] = op.split(" ");
      await attempt(() => run({
        mode: "production", api: emu.api, made,
        expect: () => ({ toBe: () => undefined, toEqual: () => undefined }),
        call: async (_status, p, body) => (await emu.api(method!, p, body)).body,
      }));
    }
  });
  return { names: [...new Set([...kinds.names, ...probes.names])].sort(), environmentId: kinds.environmentId };
}

/** Every step is tried: a step that fails on the emulator fails the suite's own tests, not this. */
const attempt = async (run: () => Promise<unknown>) => { await run().catch(() => undefined); };

/** The names `steps` make on a scratch emulator (production mode), and its environment's id. */
async function namesOn(steps: (emu: TestEmulator) => Promise<void>): Promise<{ names: string[]; environmentId: string }> {
  const emu = await startTestEmulator({ mode: "production" });
  const client = new NotifyClient({ apiUrl: emu.url, apiKey: emu.key });
  const disconnect = emu.connectEnvironment();
  try {
    const identifiers = async () => new Set((await listNamed(client)).objects.map((o) => o.identifier));
    const fresh = await identifiers();
    const environmentId = (await client.environments.me())._id;
    await steps(emu);
    // What the writes named (the guard of test/live/service.ts asks the same of a live write), but
    // the ids the emulator gave; and what the environment holds now that a fresh one did not (an
    // object the service made by itself: a channel connection's context).
    const written = (await emu.requests()).filter((r) => r.method !== "GET" && !r.path.startsWith("/__emulator"))
      .flatMap((r) => identitiesOf(r.method, r.path, r.body) ?? []).map((x) => x.value)
      .filter((v): v is string => typeof v === "string" && !EMULATOR_ID.test(v) && v !== environmentId);
    return { names: [...new Set([...written, ...[...await identifiers()].filter((n) => !fresh.has(n))])], environmentId };
  } finally {
    disconnect();
    await client.close();
    await emu.close();
  }
}
