/**
 * Bad input never reaches the service, row by row (test/helpers/badInput.ts): each resource row
 * fails its resource's `check` (what both front ends run for the engine's Check), each function
 * row fails the function before any request, with a message naming the property, while an
 * emulator the provider is pointed at receives nothing. test/e2e/badInput.test.ts runs one row of
 * each kind through the engine.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FUNCTIONS } from "../../../provider/functions/index";
import { RESOURCE_TABLES } from "../../../provider/resources/index";
import type { CheckFailure } from "../../../provider/resources/check";
import { kindOf, ROWS, type Row } from "../../helpers/badInput";
import { startTestEmulator, type TestEmulator } from "../../helpers/emulator";

type Check = (olds: Record<string, unknown>, news: Record<string, unknown>) => Promise<{ failures: CheckFailure[] }>;

/** A resource's check, from its implementation module (as the native plugin and the dynamic provider load it). */
async function checkOf(kind: string): Promise<Check> {
  const table = RESOURCE_TABLES.find((t) => t.name === kind);
  if (!table) throw new Error(`no resource ${kind}`);
  const mod = (await import(`../../../provider/resources/${table.module}.ts`)) as { provider: { check: Check } };
  return mod.provider.check;
}

/** The error a row's input gives: the check failures' reasons, or the function's error. */
async function errorOf([, kind, args]: Row): Promise<string | undefined> {
  if (kind.startsWith("fn:")) {
    const fn = FUNCTIONS.find((f) => f.name === kind.slice(3));
    if (!fn) throw new Error(`no function ${kind}`);
    return (fn.fn as (a: unknown) => Promise<unknown>)(args).then(() => undefined, (e: Error) => e.message);
  }
  const { failures } = await (await checkOf(kind))({}, args);
  return failures.length ? failures.map((f) => f.reason).join("\n") : undefined;
}

describe("the bad-input table", () => {
  it("has rows for every resource of RESOURCE_TABLES and every function of FUNCTIONS, and no other kind", () => {
    expect(new Set(ROWS.filter((r) => !r[1].startsWith("fn:")).map(kindOf))).toEqual(new Set(RESOURCE_TABLES.map((t) => t.name)));
    expect(new Set(ROWS.filter((r) => r[1].startsWith("fn:")).map((r) => r[1].slice(3)))).toEqual(new Set(FUNCTIONS.map((f) => f.name)));
  });
});

describe("bad input fails before any request, naming the property", () => {
  let emu: TestEmulator;
  let restore: () => void;
  beforeAll(async () => {
    emu = await startTestEmulator();
    restore = emu.connectEnvironment();
  });
  afterAll(async () => {
    restore?.();
    await emu?.close();
  });
  beforeEach(async () => { await emu.clearRequests(); });

  it.each(ROWS)("%s (%s)", async (...row) => {
    const message = await errorOf(row as Row);
    expect(message, "the input should be refused").toBeDefined();
    expect(message).toMatch(row[3]);
    expect(await emu.requests()).toEqual([]);
  });
});
