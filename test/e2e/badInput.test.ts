/**
 * Bad input never reaches the service, through the engine: a real `pulumi preview` of a
 * one-resource (or one-call) program for one row of each kind of the bad-input table
 * (test/helpers/badInput.ts) must fail with a message naming the property, while the emulator's
 * request log stays empty. The rows run through both front ends, the dynamic resources and the
 * native plugin, which must give the same messages, each naming the value given where the engine
 * cannot (a nested property, such as a step's misspelt type).
 */
import { describe, expect, it } from "vitest";
import type * as pulumiModule from "@pulumi/pulumi";
import { loadPackage, nativeRequire } from "../helpers/pulumi";
import { declare } from "../helpers/native";
import { useStack } from "../helpers/stack";
import { kindOf, ROWS, type Row } from "../helpers/badInput";
import type { ResourceTable } from "../../provider/resources/fields";

const pulumi = nativeRequire("@pulumi/pulumi") as typeof pulumiModule;

const { RESOURCE_TABLES } = nativeRequire("pulumi-notify/dist/provider/resources/index") as { RESOURCE_TABLES: readonly ResourceTable[] };

/**
 * One row of each kind (each resource of RESOURCE_TABLES, and the functions): the engine-level
 * path of each. Every row of the table runs, in milliseconds, in
 * test/component/provider/badInput.test.ts.
 */
const KINDS = [...RESOURCE_TABLES.map((t) => t.name), "fn"];
const ONE_PER_KIND: Row[] = KINDS.map((k) => {
  const row = ROWS.find((r) => kindOf(r) === k);
  if (!row) throw new Error(`the bad-input table has no row of ${k}`);
  return row;
});
/** The rows the engine runs by default: one of each kind, and each row marked `engine`. */
const DEFAULT_ROWS: Row[] = [...ONE_PER_KIND, ...ROWS.filter((r) => r[4]?.engine && !ONE_PER_KIND.includes(r))];
/**
 * BAD_INPUT_ROWS=all runs every row through the engine, BAD_INPUT_REPEAT=n each n times: the soak
 * of many failing inline runs in one process (scripts/inlineRuns.ts), in docs/testing.md.
 */
const ENGINE_ROWS: Row[] = Array.from({ length: Number(process.env.BAD_INPUT_REPEAT ?? 1) }, () => process.env.BAD_INPUT_ROWS === "all" ? ROWS : DEFAULT_ROWS).flat();

/** How a front end declares a row's resource or calls its function. */
const FRONT_ENDS = {
  // The package's classes and program-side functions.
  dynamic: async ([, kind, args]: Row) => {
    const notify = loadPackage() as unknown as Record<string, any>;
    if (kind.startsWith("fn:")) return void (await notify[kind.slice(3)](args));
    new notify[kind]("subject", args);
  },
  // The native plugin: the same types by token, the functions as engine invokes.
  native: async ([, kind, args]: Row) => {
    if (kind.startsWith("fn:")) return void (await pulumi.runtime.invoke(`notify:index:${kind.slice(3)}`, args));
    declare(kind, "subject", args);
  },
} as const;

describe.each(Object.keys(FRONT_ENDS) as (keyof typeof FRONT_ENDS)[])("bad input fails at preview, naming the property, with no request (%s front end)", (frontEnd) => {
  let current: Row = ENGINE_ROWS[0]!;
  const { emu, ts } = useStack({ program: () => FRONT_ENDS[frontEnd](current), frontEnd });

  it.each(ENGINE_ROWS)("%s (%s)", async (...row) => {
    current = row as Row;
    await emu.clearRequests();
    const err = await ts.stack.preview().then(() => undefined, (e: Error) => e);
    expect(err, "preview should fail").toBeInstanceOf(Error);
    expect(String(err!.message)).toMatch(row[3]);
    // The engine prints a failure's value from the inputs by its property: never a value it cannot find,
    // nor an object or a list, which it prints as a Go map or slice (`value {map[channelID:{C1}]}`).
    expect(String(err!.message)).not.toContain("<nil>");
    expect(String(err!.message)).not.toMatch(/ value \{(map)?\[/);
    expect(await emu.operationRequests()).toEqual([]);
  });
});
